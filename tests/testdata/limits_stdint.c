// Tests: the freestanding headers a compiler provides: <limits.h> and
// <stdint.h> (on the C library's where there is one, as clang's), the
// __need_* requests of <stddef.h>: a program defining its own wchar_t, as
// vmlinux.h does, can still include a header asking for size_t and NULL.
// (include/ holds the glibc stub header a BPF compilation needs.)
// CFLAGS: -Iinclude
// RUN: socket
// EXPECT: retval=0
typedef unsigned short wchar_t;
#define __need_size_t
#define __need_NULL
#include <stddef.h>
#include <limits.h>
#include <stdint.h>
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

_Static_assert(sizeof(wchar_t) == 2, "the program's wchar_t");
_Static_assert(sizeof(size_t) == 8, "LP64");
_Static_assert(CHAR_BIT == 8 && SCHAR_MIN == -128 && SCHAR_MAX == 127 && UCHAR_MAX == 255, "char");
_Static_assert(CHAR_MIN == SCHAR_MIN && CHAR_MAX == SCHAR_MAX, "char is signed");
_Static_assert(SHRT_MIN == -32768 && SHRT_MAX == 32767 && USHRT_MAX == 65535, "short");
_Static_assert(INT_MIN == -2147483647 - 1 && INT_MAX == 2147483647 && UINT_MAX == 4294967295U, "int");
_Static_assert(LONG_MAX == 9223372036854775807L && ULONG_MAX == 18446744073709551615UL, "long");
_Static_assert(LLONG_MIN == -9223372036854775807LL - 1 && ULLONG_MAX == 18446744073709551615ULL, "long long");
_Static_assert(sizeof(int8_t) == 1 && sizeof(uint16_t) == 2 && sizeof(int32_t) == 4 && sizeof(uint64_t) == 8, "intN_t");
_Static_assert(INT8_MIN == -128 && UINT16_MAX == 65535 && INT32_MAX == 2147483647 && UINT64_MAX == 18446744073709551615ULL, "intN limits");
_Static_assert(INT64_C(1) << 40 == 1099511627776LL && UINT32_C(7) == 7u, "constant macros");

SEC("socket")
int limits_stdint(struct __sk_buff *skb)
{
	volatile long big = LONG_MIN;

	CHECK(1, big < 0 && big == -9223372036854775807L - 1);
	CHECK(2, (unsigned char)UCHAR_MAX + 1 == 256);
	CHECK(3, NULL == (void *)0);
	CHECK(4, (int8_t)INT8_MAX + 1 == 128 && (uint32_t)-1 == UINT32_MAX);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[M:[0-9]]] = -9223372036854775808 ll
// CHECK-NEXT: *(u64 *)(r10 - 8) = r[[M]]
// CHECK-NEXT: r[[B:[0-9]]] = *(u64 *)(r10 - 8)
// CHECK-NEXT: if r[[B]] s>= 0 goto
// CHECK-NEXT: r[[B:[0-9]]] = *(u64 *)(r10 - 8)
// CHECK-NEXT: r[[M:[0-9]]] = -9223372036854775808 ll
// CHECK-NEXT: if r[[B]] == r[[M]] goto
// CHECK-NEXT: r0 = 1
// CHECK-NOT: r0 = 2
// CHECK-NOT: r0 = 3
// CHECK-NOT: r0 = 4
