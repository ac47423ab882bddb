// Rejected: a program taking a struct by value; a program's only argument
// is its context pointer. (Functions called from programs may take structs
// by value: bpfcc passes a pointer to a copy.)
// ERROR: 11: passed by value
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct big { __u64 a, b, c; };

SEC("socket") int struct_arg_value(struct big b)
{
	return b.a;
}

char LICENSE[] SEC("license") = "GPL";
