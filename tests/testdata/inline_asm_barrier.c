// Tests: an empty asm statement with an output and a matching input
// operand (libbpf's barrier_var) hides the value from the optimiser: x * 2
// is computed at run time, not folded to 10; a "memory" barrier assembles
// to nothing; bpf_misc.h's __sink ("+g") keeps a value alive the same way.
// RUN: socket
// EXPECT: retval=0
// ASM: "<<= 1"
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* libbpf's definition, which clang sees; bpfcc's own header has the "+r"
 * form. */
#undef barrier_var
#define barrier_var(var) asm volatile("" : "=r"(var) : "0"(var))

SEC("socket")
int inline_asm_barrier(struct __sk_buff *skb)
{
	int x = 5;

	barrier_var(x);
	asm volatile("" ::: "memory");
	if (x * 2 != 10)
		return 1;
	int y = x + 1;
	asm volatile("" : "+g"(y));
	struct { int a, b; } pair = { 1, 2 };
	asm volatile("" : "+g"(pair)); /* an aggregate: nothing to bind */
	if (y != 6 || pair.b != 2)
		return 2;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[X:[0-9]]] = 5
// CHECK: w[[Y:[0-9]]] <<= 1
// CHECK-NEXT: if w[[Y]] != 10 goto
