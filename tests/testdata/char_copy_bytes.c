// Tests: a char loaded only to be stored back as a byte is loaded without
// sign extension (below -mcpu=v4 a signed byte load is a load and two
// shifts): a char array copied byte by byte (inspektor-gadget's
// sk_msg_sk_skb: 2x clang's verified instructions).
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct ev {
	__u32 a;
	char prefix[8];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct ev);
} out SEC(".maps");

SEC("socket")
int char_copy_bytes(struct __sk_buff *skb)
{
	char src[8];
	struct ev e = { .a = 1 }, *got;
	int k = 0;

	if (bpf_skb_load_bytes(skb, 12, src, sizeof(src)))
		return 1;
#pragma unroll
	for (int i = 0; i < 8; i++)
		e.prefix[i] = src[i];
	bpf_map_update_elem(&out, &k, &e, BPF_ANY);
	got = bpf_map_lookup_elem(&out, &k);
	if (!got)
		return 2;
	if (bpf_skb_load_bytes(skb, 12, src, sizeof(src)))
		return 3;
	for (int i = 0; i < 8; i++)
		if (got->prefix[i] != src[i])
			return 4 + i;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: call 26
// CHECK-NOT: s>>= 56
// CHECK: call 2
