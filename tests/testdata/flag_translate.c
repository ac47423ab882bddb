// Tests: a flag translation, `if (x & C1) r |= C2;` for one-bit C1 and C2,
// is computed without branches, (x & C1) shifted to C2's bit, as clang
// computes it: as branches every path carries another constant and the
// verifier cannot merge them once the result is compared (falco's
// quotactl and ptrace flag tables: 9,001 verified insns against clang's
// 274). A test of a 0 flag (falco's flags & MAP_FILE) is never taken: kept
// as a branch it split the paths before it too.
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define MAP_FILE 0

static __always_inline __u32 to_ours(__u64 a)
{
	__u32 r = 0;

	if (a & (1UL << 1))
		r |= 1U << 0;
	if (a & (1UL << 4))
		r |= 1U << 1;
	if (a & (1UL << 7))
		r |= 1U << 2;
	if (a & (1UL << 40))
		r |= 1U << 3;
	if (a & MAP_FILE)
		r |= 1U << 4;
	if (a & (1UL << 3))
		r |= 1U << 9;
	return r;
}

SEC("socket")
int flag_translate(struct __sk_buff *skb)
{
	__u64 noise = skb->len * 0x10000000001ULL;
	__u32 r, want;

	if (to_ours((1UL << 1) | (1UL << 7)) != 5)
		return 1;
	if (to_ours(1UL << 40) != 8)
		return 2;
	if (to_ours(0) != 0)
		return 3;
	r = to_ours(noise);
	want = (noise >> 1 & 1) | (noise >> 4 & 1) << 1 | (noise >> 7 & 1) << 2 | (noise >> 40 & 1) << 3 |
	       (noise >> 3 & 1) << 9;
	if (r != want)
		return 4;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r{{[0-9]}} = *(u32 *)(r1 + 0)
// CHECK-NOT: if {{.*}} & {{[0-9]+}} goto
// CHECK: exit
