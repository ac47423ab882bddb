/*
 * hist.c: a log2 histogram of a function's first argument.
 *
 *	gcc -g -O2 -o /tmp/bpfcc-demo examples/demo/target.c
 *	sudo bpfcc --load process examples/hist.c -x /tmp/bpfcc-demo -c '/tmp/bpfcc-demo 800'
 *
 * BPFCC_HIST(size, 65) defines the array map size_hist; the runtime prints
 * maps named *_hist as log2 histograms with bars, like bpftrace's hist().
 * For the demo's 800 calls the buckets [1], [2, 4), ... [128, 256) hold 100
 * each.
 */
#include <bpfcc.h>

BPFCC_HIST(size, 65);

SEC("uprobe")
int size_of_call(struct pt_regs *ctx)
{
	__u64 size = PT_REGS_PARM1(ctx);

	BPFCC_HIST_ADD(size, size);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
