// Tests: C semantics found wrong by differential testing against clang:
// the value of an assignment to a bit-field is the value stored (truncated
// to the field, C11 6.5.16p3); a 32-bit-wide bit-field of a 64-bit type is
// (unsigned) int in expressions; a later braced initializer of a
// sub-object replaces it whole (C11 6.7.9p19), in locals and globals;
// u8"..." literals are their UTF-8 bytes; copies of by-value arguments of
// successive calls share stack memory (ten 64-byte copies in one frame);
// __builtin_types_compatible_p ignores top-level qualifiers.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#pragma clang diagnostic ignored "-Winitializer-overrides"

struct bits {
	unsigned int c : 5;
	short d : 4;
	unsigned long long x : 40;
	unsigned long long a : 32;
	long long b : 32;
};

struct in { int a[3]; };
struct out { struct in x[2]; };
struct out gl = { .x[1] = { .a[1] = 7 }, .x[1].a = { [2] = 14 } };

struct blob { __u64 w[8]; };

static __always_inline __u64 first(struct blob b)
{
	b.w[1] += 1; /* the callee's copy */
	return b.w[0] + b.w[1];
}

volatile int v = 100;
volatile int one = 1;

SEC("socket")
int c_semantics_regress(struct __sk_buff *skb)
{
	struct bits s = { .c = 31, .x = 0xffffffffffULL, .a = 0xffffffff };
	struct out l = { .x[1] = { .a[1] = v }, .x[1].a = { [2] = v * 2 } };
	const char u8s[] = u8"ab";
	struct blob b = { .w = { 1, 2 } };
	__u64 sum = 0;

	if ((s.c += v) != 3 || (s.d = v) != 4 || (s.d = -v) != -4)
		return 1;
	if (++s.x != 0 || (s.x += -1) != 0xffffffffffULL)
		return 2;
	if (s.a + one != 0 || ~s.a != 0 || (s.a << 4) != 0xfffffff0)
		return 3;
	if (l.x[1].a[1] != 0 || l.x[1].a[2] != 200 || gl.x[1].a[1] != 0 || gl.x[1].a[2] != 14)
		return 4;
	if (sizeof(u8s) != 3 || u8s[0] != 'a' || u8s[1] != 'b' || u8s[2] != 0)
		return 5;
	sum += first(b); sum += first(b); sum += first(b); sum += first(b); sum += first(b);
	sum += first(b); sum += first(b); sum += first(b); sum += first(b); sum += first(b);
	if (sum != 40 || b.w[1] != 2)
		return 6;
	if (__builtin_types_compatible_p(int, int) != 1 || __builtin_types_compatible_p(int, long) ||
	    !__builtin_types_compatible_p(const int, int))
		return 7;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: c_semantics_regress: (section socket, {{[0-9]+}} insns, stack 16)
// CHECK: w[[C:[0-9]]] += 31
// CHECK: r[[C]] <<= 59
// CHECK-NEXT: r[[C]] >>= 59
// CHECK-NEXT: if w[[C]] != 3 goto
// CHECK: r[[D:[0-9]]] <<= 60
// CHECK-NEXT: r[[D]] s>>= 60
// CHECK-NEXT: if w[[D]] != 4 goto
// CHECK: r[[D:[0-9]]] <<= 60
// CHECK-NEXT: r[[D]] s>>= 60
// CHECK-NEXT: if w[[D]] != -4 goto
// CHECK: r[[X:[0-9]]] <<= 24
// CHECK-NEXT: r[[X]] >>= 24
// CHECK-NEXT: if r[[X]] != 0 goto
// CHECK: r[[X:[0-9]]] += -1
// CHECK: r[[X]] <<= 24
// CHECK-NEXT: r[[X]] >>= 24
// CHECK-NEXT: r[[M:[0-9]]] = 1099511627775 ll
// CHECK-NEXT: if r[[X]] != r[[M]] goto
// CHECK: r[[O:[0-9]]] = one ll
// CHECK-NEXT: r[[O]] = *(u32 *)(r[[O]] + 0)
// CHECK-NEXT: w[[O]] += -1
// CHECK-NEXT: if w[[O]] != 0 goto
// CHECK-NEXT: if w{{[0-9]}} != 200 goto
// CHECK-NEXT: r[[G:[0-9]]] = gl ll
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r[[G]] + 16)
// CHECK-NEXT: if w[[A]] != 0 goto
// CHECK-NEXT: r[[A]] = *(u32 *)(r[[G]] + 20)
// CHECK-NEXT: if w[[A]] == 14 goto
// CHECK-NOT: r0 = 5
// CHECK-NOT: r0 = 6
// CHECK-NOT: r0 = 7
