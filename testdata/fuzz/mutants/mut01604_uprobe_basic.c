// mutation: duplicate line 13
// problem: internal error: internal compiler error: ELF writer: elfwriter: lay out data: invalid object: variable "first_bytes" clashes with variable of the same name
// Tests: uprobe and uretprobe programs (SEC("uprobe") / SEC("uretprobe"))
// reading arguments and the return value with BPF_UPROBE-style
// PT_REGS_PARMn / PT_REGS_RC, and bpf_probe_read_user. Loaded, not attached.
// RUN: load-only
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

__u64 last_arg;
long last_ret;
char first_bytes[8];
char first_bytes[8];

SEC("uprobe")
int BPF_KPROBE(uprobe_basic, const char *buf, unsigned long n)
{
	last_arg = n;
	bpf_probe_read_user(first_bytes, sizeof(first_bytes), buf);
	return 0;
}

SEC("uretprobe")
int uretprobe_basic(struct pt_regs *ctx)
{
	last_ret = PT_REGS_RC(ctx);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
