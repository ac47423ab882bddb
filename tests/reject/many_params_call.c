// A static function with more than 5 parameters is fine only when every
// call is inlined: called through its address it stays a BPF call.
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static int six(int a, int b, int c, int d, int e, int f)
{
	return a + b + c + d + e + f;
}
// ERROR: 6:12: function "six" has 6 parameters and is not inlined everywhere

SEC("socket")
int f(struct __sk_buff *skb)
{
	long p = (long)&six;

	return six(skb->len, 1, 2, 3, 4, 5) + (int)p;
}

char LICENSE[] SEC("license") = "GPL";
