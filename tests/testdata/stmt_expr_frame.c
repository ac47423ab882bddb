// Tests: a statement expression's objects end with it, so a variable
// declared after it may use their memory, as clang's lifetime markers let
// it (KubeArmor's READ_KERN: { typeof(x) _val; ...; _val; } copied into a
// local, then another local: three 240-byte objects made a 720-byte frame,
// over BPF's 512; clang's is 480). A struct of chars copied between stack
// objects moves in words, as the objects are 8-aligned.
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct big {
	char b[240];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct big);
} saved SEC(".maps");

#define READ_SKB(off) ({ struct big _val; __builtin_memset(&_val, 0, sizeof(_val)); \
			 bpf_skb_load_bytes(skb, (off), &_val, 16); _val; })

SEC("socket")
int stmt_expr_frame(struct __sk_buff *skb)
{
	struct big a = READ_SKB(0);
	struct big out;
	int k = 0, j = 1;

	__builtin_memset(&out, 0, sizeof(out));
	out.b[0] = a.b[12];
	if (bpf_skb_load_bytes(skb, 0, &out.b[1], 16))
		return 1;
	if (bpf_map_update_elem(&saved, &k, &a, BPF_ANY) || bpf_map_update_elem(&saved, &j, &out, BPF_ANY))
		return 2;
	if (out.b[0] != a.b[12] || out.b[13] != a.b[12])
		return 3;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: stmt_expr_frame: (section socket, {{[0-9]+}} insns, stack {{4[89][0-9]}})
// CHECK: exit
