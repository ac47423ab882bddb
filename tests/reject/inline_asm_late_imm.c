// Rejected: an "i" asm operand that is not a constant even after the
// function holding the asm is inlined.
// ERROR: 9: asm operand "k" must be a constant
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __always_inline __u64 add_const(__u64 v, const int k)
{
	asm volatile("%[v] += %[k]" : [v] "+r"(v) : [k] "i"(k));
	return v;
}

SEC("socket")
int inline_asm_late_imm(struct __sk_buff *skb)
{
	return add_const(1, skb->len);
}

char LICENSE[] SEC("license") = "GPL";
