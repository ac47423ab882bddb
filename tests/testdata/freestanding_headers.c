// Tests: the freestanding headers a compiler provides (stddef.h,
// stdbool.h, stdalign.h, stdnoreturn.h, stdarg.h, iso646.h) are there
// without a host compiler, with clang's types and values; alignas sets a
// local's alignment (the listing shows buf at r10 - 8).
// RUN: socket
// EXPECT: retval=0
#include <stddef.h>
#include <stdbool.h>
#include <stdalign.h>
#include <stdnoreturn.h>
#include <stdarg.h>
#include <iso646.h>
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct rec {
	char tag;
	__u64 value;
	bool flags[3];
};

_Static_assert(sizeof(size_t) == 8 && sizeof(ptrdiff_t) == 8 && sizeof(wchar_t) == 4, "types");
_Static_assert(offsetof(struct rec, value) == 8 && offsetof(struct rec, flags) == 16, "offsetof");
_Static_assert(alignof(max_align_t) == 8 && sizeof(bool) == 1, "alignment");

SEC("socket")
int freestanding_headers(struct __sk_buff *skb)
{
	alignas(8) volatile char buf[4] = { 1, 2, 3, 4 };
	bool ok = true;
	size_t n = sizeof(buf);
	int *p = NULL;

	ok = ok and n == 4 and p == NULL and not (buf[0] != 1);
	if (!ok)
		return 1;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: freestanding_headers: (section socket, {{[0-9]+}} insns, stack 8)
// CHECK: *(u32 *)(r10 - 8) = 67305985
// CHECK: {{r[0-9]}} = *(u8 *)(r10 - 8)
// CHECK-NEXT: if w{{[0-9]}} != 1 goto
