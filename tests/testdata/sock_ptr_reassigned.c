// Tests: a field address of a socket pointer used in later blocks is
// folded into each read as an offset from the pointer even when the
// pointer's variable is assigned again later (`sk = bpf_sk_fullsock(sk)`):
// the verifier refuses arithmetic on a sock_common pointer.
// RUN: load-only
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static int is_loopback6(__u32 *a6)
{
	return !a6[0] && !a6[1] && !a6[2] && a6[3] == __builtin_bswap32(1);
}

SEC("cgroup_skb/egress")
int sock_ptr_reassigned(struct __sk_buff *skb)
{
	struct bpf_sock *sk = skb->sk;

	if (!sk)
		return 1;
	if (sk->family != 10 || !is_loopback6(sk->src_ip6))
		return 1;
	sk = bpf_sk_fullsock(sk);
	if (!sk)
		return 1;
	return sk->protocol == 6;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[S:[0-9]]] = *(u64 *)(r1 + 168)
// CHECK-NOT: r[[S]] +=
// CHECK: = *(u32 *)(r[[S]] + 4)
// CHECK: = *(u32 *)(r[[S]] + 40)
// CHECK: ; bpf_sk_fullsock
// CHECK: call 95
// CHECK-NOT: r0 +=
// CHECK: = *(u32 *)(r0 + 12)
