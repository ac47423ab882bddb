// Rejected: a dereference of a pointer into address_space(1), a BPF arena
// (scx's and the selftests' arena lists). clang compiles it with
// addr_space_cast; bpfcc does not support arenas and said nothing,
// compiling a plain load from the wrong memory. Declaring such a pointer
// stays allowed: headers declare them outside __BPF_FEATURE_ADDR_SPACE_CAST
// guards.
// ERROR: 23:16: dereferencing a pointer into address_space(1) (a BPF arena)
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define __arena __attribute__((address_space(1)))

struct node {
	struct node __arena *next;
	long v;
};

struct node __arena *head;

SEC("syscall")
int arena_deref(void *ctx)
{
	return head ? head->v : 0;
}

char LICENSE[] SEC("license") = "GPL";
