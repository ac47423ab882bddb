// Tests: the size and signedness of every integer type: char, short, int,
// long, long long (signed and unsigned), the __u8..__s64 typedefs and _Bool.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)
#define IS_SIGNED(T) ((T)-1 < (T)0)

SEC("socket")
int int_types_sizes(struct __sk_buff *skb)
{
	CHECK(1, sizeof(char) == 1 && sizeof(short) == 2 && sizeof(int) == 4);
	CHECK(2, sizeof(long) == 8 && sizeof(long long) == 8);
	CHECK(3, sizeof(__u8) == 1 && sizeof(__u16) == 2 && sizeof(__u32) == 4 && sizeof(__u64) == 8);
	CHECK(4, sizeof(__s8) == 1 && sizeof(__s16) == 2 && sizeof(__s32) == 4 && sizeof(__s64) == 8);
	CHECK(5, sizeof(_Bool) == 1 && sizeof(void *) == 8);
	CHECK(6, IS_SIGNED(signed char) && !IS_SIGNED(unsigned char));
	CHECK(7, IS_SIGNED(short) && !IS_SIGNED(unsigned short));
	CHECK(8, IS_SIGNED(int) && !IS_SIGNED(unsigned int));
	CHECK(9, IS_SIGNED(long) && !IS_SIGNED(unsigned long));
	CHECK(10, IS_SIGNED(long long) && !IS_SIGNED(unsigned long long));
	CHECK(11, IS_SIGNED(__s8) && IS_SIGNED(__s16) && IS_SIGNED(__s32) && IS_SIGNED(__s64));
	CHECK(12, !IS_SIGNED(__u8) && !IS_SIGNED(__u16) && !IS_SIGNED(__u32) && !IS_SIGNED(__u64));
	CHECK(13, !IS_SIGNED(_Bool));
	/* clang -target bpf makes plain char signed. */
	CHECK(14, IS_SIGNED(char));
	CHECK(15, sizeof(1) == 4 && sizeof(1L) == 8 && sizeof(1u) == 4 && sizeof('a') == 4);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: int_types_sizes: (section socket, 2 insns, stack 0)
// CHECK-NOT: r0 = {{[1-9]}}
// CHECK: r0 = 0
// CHECK-NEXT: exit
