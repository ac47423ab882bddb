// Rejected: a struct initialised from a pointer (or any non-struct value)
// is an invalid initializer in C, as gcc and clang say; bpfcc used to copy
// the bytes the pointer points to, or the scalar's, silently.
// CLANG: error
// ERROR: 17:18: invalid initializer: struct pair cannot be initialised with a value of type pointer to struct pair
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct pair {
	int a, b;
};

SEC("tp/syscalls/sys_enter_read")
int struct_from_pointer(void *ctx)
{
	struct pair *p = ctx;
	struct pair v = p;

	return v.a + v.b;
}

char LICENSE[] SEC("license") = "GPL";
