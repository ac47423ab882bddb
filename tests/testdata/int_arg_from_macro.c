// Tests: an integer a macro passes to a pointer parameter in the same
// expansion as the call compiles, as under libbpf 1.5's BPF_PROG, which
// passes ctx[i] to the handler's pointer parameters with clang's
// -Wint-conversion silenced by a pragma in the expansion (125 selftest
// files were refused when every such argument was diagnosed; an integer
// written by hand as the argument is an error: reject
// int_to_pointer_argument). The handler reads the first word of the
// context it is given.
// RUN: load-only
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CALL_WITH_WORD(h, ctx)                                          \
	({                                                              \
		_Pragma("GCC diagnostic push")                          \
		_Pragma("GCC diagnostic ignored \"-Wint-conversion\"")  \
		int ___r = h(((unsigned long long *)ctx)[1]);           \
		_Pragma("GCC diagnostic pop")                           \
		___r;                                                   \
	})

static __always_inline int first_word(const unsigned long long *p)
{
	return p ? 7 : 0;
}

struct args {
	unsigned long long words[2];
};

SEC("syscall")
int int_arg_from_macro(struct args *ctx)
{
	return CALL_WITH_WORD(first_word, ctx);
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r0 = 7
