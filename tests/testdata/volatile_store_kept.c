// Tests: stores through a cast to a pointer to volatile (WRITE_ONCE's
// `*(volatile T *)&x = v`) are kept, to a local nothing reads afterwards
// and twice in a row to one global, as clang keeps them.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u32 flag;

SEC("socket")
int volatile_store_kept(struct __sk_buff *skb)
{
	__u64 scratch;

	*(volatile __u64 *)&scratch = 0x55;
	*(volatile __u32 *)&flag = 1;
	*(volatile __u32 *)&flag = 2;
	return flag == 2 ? 0 : 1;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: volatile_store_kept: (section socket,
// CHECK: *(u64 *)(r10 - 8) = 85
// CHECK: *(u32 *)(r[[G:[0-9]]] + 0) = 1
// CHECK-NEXT: *(u32 *)(r[[G]] + 0) = 2
