// Tests: an asm goto whose text is one conditional jump to its label (as
// bpf_experimental.h's bpf_cmp_unlikely and bpf_cmp_likely write it)
// becomes a branch of the IR: `ret = DEFAULT; asm goto; ret = !DEFAULT;
// l_true: ret` followed by `if (ret)` is one compare and jump, with no
// selector register set and tested after it; an immediate "ri" operand is
// the jump's immediate. Other asm goto text keeps the selector.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define cmp(LHS, OP, RHS, DEFAULT)                                          \
	({                                                                  \
		__label__ l_true;                                           \
		_Bool ret = DEFAULT;                                        \
		asm volatile goto("if %[lhs] " OP " %[rhs] goto %l[l_true]" \
				  :: [lhs] "r"((short)(LHS)), [rhs] "ri"(RHS) \
				  :: l_true);                               \
		ret = !(DEFAULT);                                           \
	l_true:                                                             \
		ret;                                                        \
	})

volatile __s64 in = -100;
volatile __u64 big = 7;

static __attribute__((noinline)) int below(__s64 c)
{
	volatile __s64 cookie = c;

	if (!cmp(cookie, "s<", 0, 1))
		return 1;
	return 0;
}

SEC("socket")
int asm_goto_compare(struct __sk_buff *skb)
{
	__u64 b = big;

	if (below(in))
		return 1;
	if (below(-in) == 0)
		return 2;
	if (cmp(b, ">", 5, 0) != 0)
		return 3;
	if (cmp(b, ">", 9, 0) == 0)
		return 4;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: below: (section .text,
// CHECK: r[[C:[0-9]]] s>>= 48
// CHECK-NEXT: if r[[C]] {{(s< 0|s>= 0)}} goto
// CHECK-NEXT: r0 = {{[01]}}
// CHECK-NEXT: exit
// CHECK: asm_goto_compare: (section socket,
// CHECK: r[[B:[0-9]]] s>>= 48
// CHECK-NEXT: if r[[B]] {{(> 5|<= 5)}} goto
// CHECK-NEXT: if r[[B]] {{(> 9|<= 9)}} goto
