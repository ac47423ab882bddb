// Tests: value propagation runs on large functions too: each copy of a
// pragma-unrolled loop switches on a constant, and folds to its one case.
// It was skipped above 8,000,000 blocks x registers (KubeArmor's
// save_args_to_buffer: 3,923 x 2,043 after unrolling), which left every
// case of every copy in the code (5x clang's instructions), and `args`
// in memory, its address taken by the unfolded cases: a frame over 512
// bytes where clang's is 480.
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=3
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct args {
	__u64 a[6];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, char[4096]);
} bufs SEC(".maps");

static __always_inline void save(struct __sk_buff *skb, char *b, __u32 *off, const void *p, int n, __u8 tag)
{
	if (*off > 4096 - 64)
		return;
	b[*off & 4095] = tag;
	*off += 1;
	if (*off > 4096 - 64)
		return;
	if (bpf_skb_load_bytes(skb, tag & 15, &b[*off & 4095], 8) == 0)
		*off += n;
	__builtin_memcpy(&b[(*off + 8) & 4095], p, 4);
}

#define S(n) save(skb, b, &off, &big[4 * (n)], 4, n);
#define S10(n) S(n##0) S(n##1) S(n##2) S(n##3) S(n##4) S(n##5) S(n##6) S(n##7) S(n##8) S(n##9)
#define C(n) case n: save(skb, b, &off, &args.a[i], 4, n); break;
#define C10(n) C(n##0) C(n##1) C(n##2) C(n##3) C(n##4) C(n##5) C(n##6) C(n##7) C(n##8) C(n##9)

SEC("socket")
int unrolled_switch_fold(struct __sk_buff *skb)
{
	__u64 types = 0x0201;
	struct args args = {};
	char big[160] = {};
	__u32 k = 0, off = 0;
	char *b = bpf_map_lookup_elem(&bufs, &k);

	if (!b)
		return 0;
	args.a[0] = skb->len;
	args.a[1] = skb->protocol;
	S10(1) S10(2) S10(3)
#pragma unroll
	for (int i = 0; i < 6; i++) {
		switch ((types >> (8 * i)) & 0xff) {
		case 1:
			b[i] = 1;
			break;
		case 2:
			b[i] = 2;
			break;
		C10(3) C10(4) C10(5) C10(6)
		}
	}
	return b[0] + b[1];
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: unrolled_switch_fold: (section socket, {{[0-9]+}} insns, stack {{[0-9]}})
