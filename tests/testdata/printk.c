// Tests: bpf_printk from bpf_helpers.h: the format string goes to .rodata
// and bpf_trace_printk returns the number of bytes written.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int printk(struct __sk_buff *skb)
{
	long n = bpf_printk("bpfcc printk test len=%u\n", skb->len);

	if (n <= 0)
		return 1;
	n = bpf_printk("no args\n");
	if (n <= 0)
		return 2;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r1 = printk.____fmt ll
// CHECK: ; bpf_trace_printk
// CHECK: call 6
// CHECK: r1 = printk.____fmt.1 ll
// CHECK: call 6
