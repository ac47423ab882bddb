// Tests: an "ri" (or "g") asm input that is an integer constant is an
// immediate in the assembled text, as clang makes it (libbpf's bpf_assert
// family writes "r1 = %[value]" with "ri"), not a register loaded first.
// RUN: socket
// EXPECT: retval=7
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int asm_ri_immediate(struct __sk_buff *skb)
{
	long x;

	asm volatile("%[x] = %[k]" : [x] "=r"(x) : [k] "ri"(7));
	return x;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: asm_ri_immediate: (section socket,
// CHECK-NEXT: r[[X:[0-9]]] = 7
// CHECK-NEXT: r0 = r[[X]]
// CHECK-NEXT: exit
