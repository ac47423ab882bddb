// Tests: an inlined call's objects share memory with the objects of the
// calling block declared after the call, as clang's lifetime markers let
// them (the call's 248-byte temporary, a local declared before the call
// and one declared after made a 520-byte frame, over BPF's 512; now 272).
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct big {
	char b[248];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct big);
} saved SEC(".maps");

static __always_inline int stash(struct __sk_buff *skb, int k)
{
	struct big t;

	__builtin_memset(&t, 0, sizeof(t));
	if (bpf_skb_load_bytes(skb, 0, &t, 16))
		return 1;
	return bpf_map_update_elem(&saved, &k, &t, BPF_ANY);
}

SEC("socket")
int inlined_frame_share(struct __sk_buff *skb)
{
	struct big a, *got;
	int k = 1, z = 0;

	__builtin_memset(&a, 0, sizeof(a));
	if (stash(skb, 0))
		return 1;
	struct big out;

	__builtin_memset(&out, 0, sizeof(out));
	out.b[0] = 1;
	a.b[0] = 2;
	if (bpf_map_update_elem(&saved, &k, &out, BPF_ANY))
		return 2;
	got = bpf_map_lookup_elem(&saved, &z);
	if (!got || got->b[20] != 0 || a.b[0] != 2)
		return 3;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: inlined_frame_share: (section socket, {{[0-9]+}} insns, stack {{2[0-9][0-9]}})
// CHECK: exit
