// Tests: casts between integer types and pointers: a pointer round-trips
// through unsigned long, pointer differences as integers, and casting a
// struct pointer to a byte pointer to read its representation.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct pair { __u32 lo; __u32 hi; };

SEC("socket")
int casts_pointers(struct __sk_buff *skb)
{
	struct pair p = { .lo = 0x04030201, .hi = 0x08070605 };
	__u8 *bytes = (__u8 *)&p;
	__u64 *whole = (__u64 *)&p;
	int arr[4] = { 10, 20, 30, 40 };
	int *q = &arr[3];

	CHECK(1, bytes[0] == 1 && bytes[3] == 4 && bytes[4] == 5 && bytes[7] == 8);
	CHECK(2, *whole == 0x0807060504030201ULL);
	CHECK(3, (long)((unsigned long)q - (unsigned long)arr) == 12);
	CHECK(4, q - arr == 3);
	CHECK(5, *(int *)((char *)arr + 8) == 30);
	CHECK(6, (__u16)*whole == 0x0201);
	CHECK(7, (int)(__s8)bytes[7] == 8);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: casts_pointers: (section socket, 2 insns, stack 0)
// CHECK-NOT: r0 = {{[1-9]}}
// CHECK: r0 = 0
// CHECK-NEXT: exit
