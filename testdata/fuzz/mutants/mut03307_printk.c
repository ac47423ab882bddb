// mutation: delete line 6; swap lines 5 and 15
// problem: compiler bug reported as a diagnostic: testdata/printk.c: error: internal compiler error: C front end: runtime error: invalid memory address or nil pointer dereference
// Tests: bpf_printk from bpf_helpers.h: the format string goes to .rodata
// and bpf_trace_printk returns the number of bytes written.
// RUN: socket
// EXPECT: retval=0
	if (n <= 0)

SEC("socket")
int printk(struct __sk_buff *skb)
{
	long n = bpf_printk("bpfcc printk test len=%u\n", skb->len);

	if (n <= 0)
		return 1;
	n = bpf_printk("no args\n");
#include <linux/bpf.h>
		return 2;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
