// Tests: __builtin_choose_expr evaluates only the branch its constant
// selects, with that branch's type (libbpf's BPF_PROG2 picks a union of
// the argument's size this way); a void branch is a statement.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define PICK(t, v) __builtin_choose_expr(sizeof(t) == 8, (__u64)(v) << 32, \
	__builtin_choose_expr(sizeof(t) == 4, (__u32)(v) + 1, (void)0))

SEC("socket")
int builtin_choose_expr(struct __sk_buff *skb)
{
	volatile int calls = 0;
	__u64 wide = PICK(long, 3);
	__u32 narrow = PICK(int, 0xffffffff);

	if (wide != 3ULL << 32)
		return 1;
	if (narrow != 0)
		return 2;
	if (sizeof(PICK(int, 1)) != 4 || sizeof(PICK(long, 1)) != 8)
		return 3;
	PICK(char, calls++);
	__builtin_choose_expr(0, calls++, calls += 2);
	if (calls != 2)
		return 4;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: *(u32 *)(r10 - 4) = 0
// CHECK: w{{[0-9]}} += 2
// CHECK-NOT: call
// CHECK: r0 = 0
