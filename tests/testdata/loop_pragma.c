// Tests: loop pragmas reach the loop they stand before, through a macro
// (_Pragma, under #if as libbpf's bpf_compiler.h spells them) or as a
// directive: unroll(full) unrolls a loop of more trips than bpfcc unrolls
// on its own (a multiply by 79 is left), unroll(disable) keeps a loop it
// would unroll (a backward jump is left), #pragma unroll unrolls.
// RUN: socket
// EXPECT: retval=19142
// ASM: "*= 79"
// ASM: "goto -"
// ASM: "*= 68"
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define DO_PRAGMA_(X) _Pragma(#X)
#define __pragma_loop_unroll_full DO_PRAGMA_(clang loop unroll(full))
#define __pragma_loop_no_unroll DO_PRAGMA_(clang loop unroll(disable))

const volatile __u32 k = 3;

SEC("socket")
int loop_pragma(struct __sk_buff *skb)
{
	__u32 s = 0, x = k;

#ifdef NO_UNROLL
	__pragma_loop_no_unroll
#else
	__pragma_loop_unroll_full
#endif
	for (int i = 0; i < 80; i++)
		s += i * x;
	__pragma_loop_no_unroll
	for (int i = 0; i < 3; i++)
		s ^= i + x;
#pragma unroll
	for (int i = 0; i < 70; i++)
		s += i * (x + 1);
	return s;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[K:[0-9]]] = k ll
// CHECK-NEXT: r[[X:[0-9]]] = *(u32 *)(r[[K]] + 0)
// CHECK-NOT: goto
// CHECK: w[[T:[0-9]]] *= 79
// CHECK-NEXT: w0 += w[[T]]
// CHECK-NEXT: r[[I:[0-9]]] = 0
// CHECK-NEXT: [[L:[0-9]+]]: r[[T:[0-9]]] = r[[I]]
// CHECK-NEXT: w[[T]] += w[[X]]
// CHECK-NEXT: w0 ^= w[[T]]
// CHECK-NEXT: w[[I]] += 1
// CHECK-NEXT: if w[[I]] < 3 goto -5 <[[L]]>
// CHECK-NOT: goto
// The unrolled copies of the third loop compute x + 1 once.
// CHECK-NEXT: w[[X]] += 1
// CHECK-NEXT: w0 += w[[X]]
// CHECK-NOT: += 1
// CHECK: w[[T:[0-9]]] *= 68
// CHECK-NEXT: w0 += w[[T]]
// CHECK-NEXT: r[[T]] = r[[X]]
// CHECK-NEXT: w[[T]] *= 69
// CHECK-NEXT: w0 += w[[T]]
// CHECK-NEXT: exit
