// Tests: signed division and modulo with negative operands truncate toward
// zero and the remainder takes the dividend's sign (C99), 32 and 64 bit.
// bpfcc must emit an equivalent sequence at its default -mcpu=v3 (clang
// cannot, so the corpus check compiles it for v4); see div_signed_v4.c.
// RUN: socket
// CLANG-CPU: v4
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int div_signed(struct __sk_buff *skb)
{
	volatile int a = -7, b = 2, c = 7, d = -2;
	volatile long la = -7000000000L, lb = 3;

	CHECK(1, a / b == -3 && a % b == -1);
	CHECK(2, c / d == -3 && c % d == 1);
	CHECK(3, a / d == 3 && a % d == -1);
	CHECK(4, c / b == 3 && c % b == 1);
	CHECK(5, la / lb == -2333333333L && la % lb == -1);
	CHECK(6, la / -lb == 2333333333L);
	CHECK(7, a / 4 == -1 && a % 4 == -3);   /* power of two: no plain shift */
	CHECK(8, (a >> 2) == -2);                /* unlike the shift */
	CHECK(9, -a / b == 3);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK-NOT: {{s[/%]=}}
// CHECK: r[[A:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: r[[B:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: r[[SA:[0-9]]] = r[[A]]
// CHECK-NEXT: w[[SA]] s>>= 31
// CHECK-NEXT: r[[SB:[0-9]]] = r[[B]]
// CHECK-NEXT: w[[SB]] s>>= 31
// CHECK-NEXT: w[[A]] ^= w[[SA]]
// CHECK-NEXT: w[[A]] -= w[[SA]]
// CHECK-NEXT: w[[B]] ^= w[[SB]]
// CHECK-NEXT: w[[B]] -= w[[SB]]
// CHECK-NEXT: w[[A]] /= w[[B]]
// CHECK-NEXT: w[[SA]] ^= w[[SB]]
// CHECK-NEXT: w[[A]] ^= w[[SA]]
// CHECK-NEXT: w[[A]] -= w[[SA]]
// CHECK-NEXT: if w[[A]] != -3 goto
// CHECK: r[[A:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: r[[B:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: r[[SA:[0-9]]] = r[[A]]
// CHECK-NEXT: w[[SA]] s>>= 31
// CHECK-NEXT: r[[SB:[0-9]]] = r[[B]]
// CHECK-NEXT: w[[SB]] s>>= 31
// CHECK-NEXT: w[[A]] ^= w[[SA]]
// CHECK-NEXT: w[[A]] -= w[[SA]]
// CHECK-NEXT: w[[B]] ^= w[[SB]]
// CHECK-NEXT: w[[B]] -= w[[SB]]
// CHECK-NEXT: w[[A]] %= w[[B]]
// CHECK-NEXT: w[[A]] ^= w[[SA]]
// CHECK-NEXT: w[[A]] -= w[[SA]]
// CHECK-NEXT: if w[[A]] != -1 goto
// CHECK: r[[A:[0-9]]] = *(u64 *)(r10 - 24)
// CHECK-NEXT: r[[B:[0-9]]] = *(u64 *)(r10 - 32)
// CHECK-NEXT: r[[SA:[0-9]]] = r[[A]]
// CHECK-NEXT: r[[SA]] s>>= 63
// CHECK-NEXT: r[[SB:[0-9]]] = r[[B]]
// CHECK-NEXT: r[[SB]] s>>= 63
// CHECK-NEXT: r[[A]] ^= r[[SA]]
// CHECK-NEXT: r[[A]] -= r[[SA]]
// CHECK-NEXT: r[[B]] ^= r[[SB]]
// CHECK-NEXT: r[[B]] -= r[[SB]]
// CHECK-NEXT: r[[A]] /= r[[B]]
// CHECK-NEXT: r[[SA]] ^= r[[SB]]
// CHECK-NEXT: r[[A]] ^= r[[SA]]
// CHECK-NEXT: r[[A]] -= r[[SA]]
// CHECK-NEXT: r[[C:[0-9]]] = -2333333333 ll
// CHECK-NEXT: if r[[A]] != r[[C]] goto
// CHECK: r[[A:[0-9]]] = *(u64 *)(r10 - 24)
// CHECK-NEXT: r[[B:[0-9]]] = *(u64 *)(r10 - 32)
// CHECK-NEXT: r[[SA:[0-9]]] = r[[A]]
// CHECK-NEXT: r[[SA]] s>>= 63
// CHECK-NEXT: r[[SB:[0-9]]] = r[[B]]
// CHECK-NEXT: r[[SB]] s>>= 63
// CHECK-NEXT: r[[A]] ^= r[[SA]]
// CHECK-NEXT: r[[A]] -= r[[SA]]
// CHECK-NEXT: r[[B]] ^= r[[SB]]
// CHECK-NEXT: r[[B]] -= r[[SB]]
// CHECK-NEXT: r[[A]] %= r[[B]]
// CHECK-NEXT: r[[A]] ^= r[[SA]]
// CHECK-NEXT: r[[A]] -= r[[SA]]
// CHECK-NEXT: if r[[A]] != -1 goto
// CHECK: r[[A:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: r[[T:[0-9]]] = r[[A]]
// CHECK-NEXT: w[[T]] s>>= 31
// CHECK-NEXT: w[[T]] >>= 30
// CHECK-NEXT: w[[T]] += w[[A]]
// CHECK-NEXT: w[[T]] s>>= 2
// CHECK-NEXT: if w[[T]] != -1 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: r[[T:[0-9]]] = r[[A]]
// CHECK-NEXT: w[[T]] s>>= 31
// CHECK-NEXT: w[[T]] >>= 30
// CHECK-NEXT: w[[T]] += w[[A]]
// CHECK-NEXT: w[[T]] &= -4
// CHECK-NEXT: w[[A]] -= w[[T]]
// CHECK-NEXT: if w[[A]] != -3 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: w[[A]] s>>= 2
// CHECK-NEXT: if w[[A]] != -2 goto
// CHECK-NOT: {{s[/%]=}}
