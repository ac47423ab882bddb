// Tests: a naked function (__attribute__((naked))) is exactly its asm: no
// prologue, the context arrives in r1; "i" operands name a helper, a map and
// a constant; a naked subprogram is called from asm by name.
// RUN: xdp
// EXPECT: retval=2
// EXPECT-MAP: counter key=0 value=42
// ASM: "call 1"
// ASM: "call add_one"
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} counter SEC(".maps");

/* r0 = r1 + 1 */
__attribute__((naked, noinline, used)) static void add_one(void)
{
	asm volatile("r0 = r1; r0 += 1; exit;");
}

SEC("xdp")
__attribute__((naked)) int inline_asm_naked(void)
{
	asm volatile(
		"r1 = 0;"
		"*(u32 *)(r10 - 4) = r1;"
		"r2 = r10;"
		"r2 += -4;"
		"r1 = %[counter] ll;"
		"call %[bpf_map_lookup_elem];"
		"if r0 == 0 goto l_out_%=;"
		"r6 = r0;"
		"r1 = %[add] - 1;"
		"call add_one;"          /* r0 = add */
		"lock *(u64 *)(r6 + 0) += r0;"
	"l_out_%=:"
		"r0 = %[pass];"
		"exit;"
		:
		: [counter] "i"(&counter), [bpf_map_lookup_elem] "i"(bpf_map_lookup_elem),
		  [add] "i"(42), [pass] "i"(XDP_PASS)
		: "r0", "r1", "r2", "r3", "r4", "r5", "r6", "memory");
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: add_one: (section .text, 3 insns, stack 0)
// CHECK-NEXT: r0 = r1
// CHECK-NEXT: r0 += 1
// CHECK-NEXT: exit
// CHECK: inline_asm_naked: (section xdp,
// CHECK-NEXT: r1 = 0
// CHECK: r1 = counter ll
// CHECK-NEXT: call 1
// CHECK: r1 = 41
// CHECK-NEXT: call add_one
// CHECK-NEXT: lock *(u64 *)(r6 + 0) += r0
