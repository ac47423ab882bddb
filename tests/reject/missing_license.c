// Rejected: no SEC("license") while a GPL-only helper (bpf_trace_printk,
// through bpf_printk) is called; the kernel would refuse to load it.
// ERROR: 10: license
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int missing_license(struct __sk_buff *skb)
{
	bpf_printk("len %u\n", skb->len);
	return 0;
}
