// Tests: a static inline variadic function, inlined away as clang inlines
// it (sched_ext's ___scx_bpf_bstr_format_checker checks printf formats
// with an empty body): no error, and the extra arguments are still
// evaluated for their side effects.
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=5
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static inline __attribute__((format(printf, 1, 2))) void format_checker(const char *fmt, ...)
{
}

static __always_inline int first(int n, ...)
{
	return n + 1;
}

volatile int seed = 3;

SEC("socket")
int variadic_inlined(struct __sk_buff *skb)
{
	int x = seed;

	format_checker("%d %d", x++, 7);
	return first(x, seed, 9);
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: variadic_inlined:
// CHECK-NOT: call
// CHECK: exit
