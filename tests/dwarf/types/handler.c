/*
 * handler.c: reads through t_types.c's structs with no declaration of its
 * own: State, struct CallInfo and the rest come from <bpfcc/target.h>,
 * generated from the traced binary's DWARF (-x). Each value is recorded
 * under (n, tag); the test reads the same expressions with gdb.
 */
#include <bpfcc.h>
#include <bpfcc/target.h>

SEC("config") char config[] = "h: step L n";

struct key {
	__u32 n, tag;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, struct key);
	__type(value, long);
} rec SEC(".maps");

static __always_inline void put(int n, __u32 tag, long v)
{
	struct key k = {n, tag};

	bpf_map_update_elem(&rec, &k, &v, BPF_ANY);
}

int h(struct pt_regs *ctx, State *L, int n)
{
	struct CallInfo ci = BPFCC_READ(L, base_ci);
	struct Packed pk = BPFCC_READ(L, pk);
	char label[24] = {};
	long first;

	put(n, 0, BPFCC_READ(L, status));
	put(n, 1, BPFCC_READ(L, l_G, total));
	put(n, 2, BPFCC_READ(L, l_G, mainthread, status));
	put(n, 3, BPFCC_READ(L, l_G, mainthread, ci, func));
	put(n, 4, BPFCC_READ(L, ci, previous, func));
	put(n, 5, ci.nresults);
	put(n, 6, ci.callstatus);
	put(n, 7, ci.hooked);
	put(n, 8, ci.delta);
	put(n, 9, ci.extra);
	put(n, 10, ci.mode);
	put(n, 11, pk.c);
	put(n, 12, pk.i);
	put(n, 13, pk.s);
	put(n, 14, BPFCC_READ(L, l_G, ratio));
	put(n, 15, BPFCC_READ(L, l_G, u.i));
	put(n, 16, BPFCC_READ(L, l_G, where.line));
	put(n, 17, BPFCC_READ(L, l_G, counts[1]));
	put(n, 18, BPFCC_READ(L, top));
	put(n, 19, BPFCC_READ(L, l_G, name[1]));
	put(n, 20, BPFCC_READ(L, ci, mode) == M_RUN);
	BPFCC_READ_STR(label, L, label);
	__builtin_memcpy(&first, label + 8, sizeof(first));
	put(n, 21, first);
	put(n, 22, BPFCC_READ(L, wide[8]));
	put(n, 23, BPFCC_READ_BITFIELD(BPFCC_READ(L, ci), callstatus));
	put(n, 24, BPFCC_READ_BITFIELD(L, base_ci.delta));
	put(n, 25, BPFCC_READ_BITFIELD(BPFCC_READ(L, ci, previous), extra));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
