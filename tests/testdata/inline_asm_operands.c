// Tests: inline asm with register ("r", "=r", "+r") and immediate ("i")
// operands, named and numbered, a helper id and a map address as "i"
// operands, an "i" parameter of an always-inline function, %= labels,
// numeric labels, clobbers, and C values flowing
// in and out of the asm.
// RUN: socket
// EXPECT: retval=0
// EXPECT-MAP: hits key=0 value=7
// ASM: "call 7"
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} hits SEC(".maps");

/* min(v, max) with a compare and branch in asm. */
static __always_inline __u64 clamp(__u64 v)
{
	__u64 out;

	asm volatile("%[out] = %[v];"
		     "if %[out] <= %[max] goto l0_%=;"
		     "%[out] = %[max];"
		     "l0_%=:"
		     : [out] "=r"(out)
		     : [v] "r"(v), [max] "i"(100));
	return out;
}

/* An "i" operand that is a constant only once the function is inlined, as
 * libbpf's bpf_tail_call_static passes its slot. */
static __always_inline __u64 add_const(__u64 v, const int k)
{
	asm volatile("%[v] += %[k]" : [v] "+r"(v) : [k] "i"(k));
	return v;
}

SEC("socket")
int inline_asm_operands(struct __sk_buff *skb)
{
	__u64 a = skb->len, b = 3, r;
	int i = 5;

	/* Numbered operands, a tied input/output. */
	asm volatile("%0 += %1" : "+r"(b) : "r"(a));
	CHECK(1, b == a + 3);

	asm volatile("%[i] *= 2; %[i] -= 1" : [i] "+r"(i));
	CHECK(2, i == 9);

	CHECK(3, clamp(42) == 42);
	CHECK(4, clamp(1000) == 100);

	/* Numeric local labels, both directions. */
	asm volatile("%[r] = 0;"
		     "1: %[r] += 1;"
		     "if %[r] < 4 goto 1b;"
		     "if %[r] == 4 goto 1f;"
		     "%[r] = 99;"
		     "1:"
		     : [r] "=r"(r));
	CHECK(5, r == 4);

	/* A helper called by id and a map element updated by address. */
	asm volatile("r1 = 0;"
		     "*(u32 *)(r10 - 4) = r1;"
		     "r2 = r10;"
		     "r2 += -4;"
		     "r1 = %[hits] ll;"
		     "call %[lookup];"
		     "if r0 == 0 goto 1f;"
		     "r1 = 7;"
		     "lock *(u64 *)(r0 + 0) += r1;"
		     "1:"
		     "call %[prandom];"
		     "%[r] = r0;"
		     : [r] "=r"(r)
		     : [hits] "i"(&hits), [lookup] "i"(bpf_map_lookup_elem),
		       [prandom] "i"(bpf_get_prandom_u32)
		     : "r0", "r1", "r2", "r3", "r4", "r5", "memory");
	CHECK(6, r <= 0xffffffff);

	/* A 64-bit immediate and an ALU32 operation. */
	asm volatile("%[r] = 0x100000005 ll; r1 = %[r]; w1 += 1; %[r] = r1"
		     : [r] "=r"(r) : : "r1");
	CHECK(7, r == 6);

	CHECK(8, add_const(a, 3) == a + 3);
	CHECK(9, add_const(10, -4) == 6);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[B:[0-9]]] = 3
// CHECK: r[[B]] += r{{[0-9]}}
// CHECK: r[[I:[0-9]]] = 5
// CHECK-NEXT: r[[I]] *= 2
// CHECK-NEXT: r[[I]] -= 1
// CHECK-NEXT: if w[[I]] != 9 goto
// CHECK-NEXT: r[[V:[0-9]]] = 42
// CHECK-NEXT: r[[O:[0-9]]] = r[[V]]
// CHECK-NEXT: [[A:[0-9]+]]: if r[[O]] <= 100 goto +1 <[[T:[0-9]+]]>
// CHECK-NEXT: r[[O]] = 100
// CHECK-NEXT: [[T]]: if r[[O]] != 42 goto
// CHECK-NEXT: r[[V:[0-9]]] = 1000
// CHECK-NEXT: r[[O:[0-9]]] = r[[V]]
// CHECK-NEXT: if r[[O]] <= 100 goto +1 <[[T:[0-9]+]]>
// CHECK-NEXT: r[[O]] = 100
// CHECK-NEXT: [[T]]: if r[[O]] != 100 goto
// CHECK-NEXT: r[[R:[0-9]]] = 0
// CHECK-NEXT: [[L:[0-9]+]]: r[[R]] += 1
// CHECK-NEXT: if r[[R]] < 4 goto -2 <[[L]]>
// CHECK-NEXT: if r[[R]] == 4 goto +1 <[[T:[0-9]+]]>
// CHECK-NEXT: r[[R]] = 99
// CHECK-NEXT: [[T]]: if r[[R]] != 4 goto
// CHECK-NEXT: r1 = 0
// CHECK-NEXT: *(u32 *)(r10 - 4) = r1
// CHECK-NEXT: r2 = r10
// CHECK-NEXT: r2 += -4
// CHECK-NEXT: r1 = hits ll
// CHECK-NEXT: call 1
// CHECK-NEXT: if r0 == 0 goto +2
// CHECK-NEXT: r1 = 7
// CHECK-NEXT: lock *(u64 *)(r0 + 0) += r1
// CHECK-NEXT: call 7
// CHECK: r[[R:[0-9]]] = 4294967301 ll
// CHECK-NEXT: r1 = r[[R]]
// CHECK-NEXT: w1 += 1
// CHECK: r[[V:[0-9]]] += 3
// CHECK: r[[V:[0-9]]] = 10
// CHECK-NEXT: r[[V]] += -4
// CHECK-NEXT: if r[[V]] != 6 goto
