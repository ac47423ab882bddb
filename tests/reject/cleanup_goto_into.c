// Rejected: a goto into the scope of a variable with a cleanup attribute
// (its cleanup would run without its declaration having been reached).
// ERROR: 17:3: goto jumps into the scope of a variable with a cleanup attribute
// CLANG: error
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __attribute__((noinline)) void release(int *p)
{
	*p = 0;
}

SEC("socket")
int cleanup_goto_into(struct __sk_buff *skb)
{
	if (skb->len > 10)
		goto inside;
	{
		int held __attribute__((cleanup(release))) = 1;
inside:
		return skb->len;
	}
}

char LICENSE[] SEC("license") = "GPL";
