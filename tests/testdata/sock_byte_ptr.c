// Tests: bytes of a struct bpf_sock field read through a byte pointer
// taken once and used in later blocks (`b = (u8 *)&sk->dst_port; b[0] ...
// && b[1] ...`): each read is at an offset from sk itself, as clang emits
// it, since the verifier refuses arithmetic on a sock_common pointer.
// RUN: load-only
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __attribute__((noinline)) int dst_port_is_cafe(struct bpf_sock *sk)
{
	__u8 *b = (__u8 *)&sk->dst_port;

	return b[0] == 0xca && b[1] == 0xfe;
}

SEC("cgroup_skb/egress")
int sock_byte_ptr(struct __sk_buff *skb)
{
	struct bpf_sock *sk = skb->sk;

	if (!sk)
		return 1;
	return dst_port_is_cafe(sk);
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: dst_port_is_cafe: (section .text,
// CHECK-NOT: r1 +=
// CHECK: = *(u8 *)(r1 + 48)
// CHECK: = *(u8 *)(r1 + 49)
// CHECK: sock_byte_ptr: (section cgroup_skb/egress,
// CHECK: = *(u64 *)(r1 + 168)
// CHECK: call dst_port_is_cafe
