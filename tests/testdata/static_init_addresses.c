// Tests: globals initialised with addresses (function pointers, string
// literals, pointers to other globals and into them) are emitted as
// R_BPF_64_ABS64 relocations in the data section, as clang emits them; the
// loaders leave those words alone, and the program reads the data around
// them.
// RUN: socket
// EXPECT: retval=0
// NONDET: ops names where
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct ops {
	int (*first)(int);
	__u32 flags;
	int (*second)(int);
	char name[8];
};

static __attribute__((noinline)) int twice(int x) { return 2 * x; }
__attribute__((noinline)) int thrice(int x) { return 3 * x; }

__u32 counts[4] = { 5, 6, 7, 8 };
struct ops ops = { .second = thrice, .first = twice, .flags = 9, .name = "ops" };
const char *names[] = { "alpha", &"beta"[1], 0 };
__u32 *where[] = { &counts[2], counts, (__u32 *)&ops.flags };

SEC("socket")
int static_init_addresses(struct __sk_buff *skb)
{
	volatile int x = 7;

	CHECK(1, ops.flags == 9 && ops.name[0] == 'o' && ops.name[2] == 's');
	CHECK(2, counts[2] == 7 && twice(x) + thrice(x) == 35);
	CHECK(3, sizeof(names) == 24 && sizeof(where) == 24);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: twice: (section .text,
// CHECK: thrice: (section .text,
// CHECK: static_init_addresses: (section socket,
// CHECK: r[[O:[0-9]]] = ops ll
// CHECK-NEXT: r[[V:[0-9]]] = *(u32 *)(r[[O]] + 8)
// CHECK-NEXT: if w[[V]] != 9 goto
// CHECK-NEXT: r[[V:[0-9]]] = *(u8 *)(r[[O]] + 24)
// CHECK-NEXT: if w[[V]] != 111 goto
// CHECK-NEXT: r[[V:[0-9]]] = *(u8 *)(r[[O]] + 26)
// CHECK-NEXT: if w[[V]] != 115 goto
// CHECK-NEXT: r[[C:[0-9]]] = counts ll
// CHECK-NEXT: r[[C]] = *(u32 *)(r[[C]] + 8)
// CHECK-NEXT: if w[[C]] != 7 goto
// CHECK: call twice
// CHECK: call thrice
// CHECK-NOT: r0 = 3
