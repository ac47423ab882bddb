/*
 * lua_types.c: a handler on Lua's luaH_new that reads through the
 * interpreter's lua_State, global_State and CallInfo with no declaration
 * of its own: <bpfcc/target.h> declares them from the traced lua's DWARF.
 * Each call's values are recorded under (call number, tag) and compared
 * with gdb's by tests/dwarf_realworld_test.go.
 */
#include <bpfcc.h>
#include <bpfcc/target.h>

SEC("config") char config[] = "h: luaH_new L";

struct key {
	__u32 seq, tag;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, struct key);
	__type(value, long);
} rec SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} calls SEC(".maps");

static __always_inline void put(__u32 seq, __u32 tag, long v)
{
	struct key k = {seq, tag};

	bpf_map_update_elem(&rec, &k, &v, BPF_ANY);
}

int h(struct pt_regs *ctx, lua_State *L)
{
	__u32 zero = 0, n, *c = bpf_map_lookup_elem(&calls, &zero);

	if (!c)
		return 0;
	n = *c;
	*c = n + 1;
	put(n, 0, BPFCC_READ(L, status));
	put(n, 1, BPFCC_READ(L, l_G, GCdebt));
	put(n, 2, BPFCC_READ(L, l_G, mainthread, status));
	put(n, 3, BPFCC_READ(L, l_G, mainthread, nCcalls));
	put(n, 4, BPFCC_READ(L, ci, callstatus));
	put(n, 5, (long)BPFCC_READ(L, ci, func));
	put(n, 6, BPFCC_READ(L, l_G, strt.nuse));
	put(n, 7, BPFCC_READ(L, l_G, strt.size));
	put(n, 8, BPFCC_READ(L, top, val.tt_));
	put(n, 9, BPFCC_READ(L, l_G, currentwhite));
	put(n, 10, BPFCC_READ(L, nCcalls));
	put(n, 11, BPFCC_READ(L, ci, previous, callstatus));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
