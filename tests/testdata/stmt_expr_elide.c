// Tests: an aggregate initialised by a statement expression whose value is
// one of its own objects becomes that object, as clang forwards the copy
// (KubeArmor's struct sock_common conn = READ_KERN(...), whose 136 bytes
// were held twice): with out declared before, out, a and the expression's
// _val took 3 x 104 bytes of frame; out and a take 2.
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct big {
	char b[100];
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
int stmt_expr_elide(struct __sk_buff *skb)
{
	struct big out;
	int k = 0, j = 1;

	__builtin_memset(&out, 0, sizeof(out));
	struct big a = READ_SKB(0);

	out.b[0] = a.b[12];
	if (bpf_map_update_elem(&saved, &k, &a, BPF_ANY) || bpf_map_update_elem(&saved, &j, &out, BPF_ANY))
		return 1;
	if (out.b[0] != a.b[12] || a.b[90] != 0)
		return 2;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: stmt_expr_elide: (section socket, {{[0-9]+}} insns, stack {{2[0-9][0-9]}})
// CHECK: exit
