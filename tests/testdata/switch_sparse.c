// Tests: a sparse switch with widely spread, negative and 64-bit case
// values.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

static __attribute__((noinline)) int sparse(long v)
{
	switch (v) {
	case -1000: return 1;
	case 3: return 2;
	case 80: return 3;
	case 443: return 4;
	case 65535: return 5;
	case 0x100000000L: return 6;
	}
	return 0;
}

SEC("socket")
int switch_sparse(struct __sk_buff *skb)
{
	CHECK(1, sparse(-1000) == 1 && sparse(3) == 2 && sparse(80) == 3);
	CHECK(2, sparse(443) == 4 && sparse(65535) == 5);
	CHECK(3, sparse(0x100000000L) == 6);
	CHECK(4, sparse(0) == 0 && sparse(81) == 0 && sparse(-1) == 0);
	CHECK(5, sparse(0x100000003L) == 0); /* low 32 bits match case 3 */
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// 64-bit compares (r, not w), the 2^32 case through a 64-bit constant.
// CHECK: sparse: (section .text,
// CHECK-NOT: if w1
// CHECK: if r1 == -1000 goto {{[+][0-9]+}} <[[C1:[0-9]+]]>
// CHECK-NEXT: if r1 == 3 goto {{[+][0-9]+}} <[[C2:[0-9]+]]>
// CHECK-NEXT: if r1 != 80 goto {{[+][0-9]+}} <[[DEF:[0-9]+]]>
// CHECK-NEXT: r0 = 3
// CHECK: if r1 == 443 goto {{[+][0-9]+}} <[[C4:[0-9]+]]>
// CHECK-NEXT: if r1 == 65535 goto {{[+][0-9]+}} <[[C5:[0-9]+]]>
// CHECK-NEXT: r[[K:[0-9]]] = 4294967296 ll
// CHECK-NEXT: if r1 == r[[K]] goto {{[+][0-9]+}} <[[C6:[0-9]+]]>
// CHECK-NEXT: [[DEF]]: r0 = 0
// CHECK-NEXT: exit
// CHECK-NEXT: [[C1]]: r0 = 1
// CHECK: [[C2]]: r0 = 2
// CHECK: [[C4]]: r0 = 4
// CHECK: [[C5]]: r0 = 5
// CHECK: [[C6]]: r0 = 6
// CHECK: switch_sparse: (section socket,
// CHECK: r1 = 4294967299 ll
// CHECK-NEXT: call sparse
// CHECK-NEXT: if w0 != 0 goto
