// Rejected: a value returned from a void function (clang 16+: "void
// function should not return a value", an error). Returning a void call's
// result stays allowed, as in clang (bump_twice).
// CLANG: error
// ERROR: 18:2: void function 'count' should not return a value
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

long counter;

static void bump(void) { counter++; }
static void bump_twice(void) { bump(); return bump(); }

static __attribute__((noinline)) void count(int n)
{
	bump_twice();
	counter += n;
	return counter;
}

SEC("socket")
int return_value_from_void(struct __sk_buff *skb)
{
	count(skb->len);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
