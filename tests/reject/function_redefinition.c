// Rejected: a function defined twice (clang: redefinition of 'f'); bpfcc
// kept the first and compiled silently.
// ERROR: 13: redefinition
// CLANG: error
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static int f(void)
{
	return 1;
}

static int f(void)
{
	return 2;
}

SEC("socket")
int function_redefinition(struct __sk_buff *skb)
{
	return f();
}

char LICENSE[] SEC("license") = "GPL";
