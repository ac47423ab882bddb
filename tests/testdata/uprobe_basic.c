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

// PT_REGS_PARM1 is rdi (pt_regs + 112), PARM2 rsi (+ 104), RC rax (+ 80).
// CHECK: uprobe_basic: (section uprobe,
// CHECK-NEXT: r[[BUF:[0-9]]] = *(u64 *)(r1 + 112)
// CHECK-NEXT: r[[N:[0-9]]] = *(u64 *)(r1 + 104)
// CHECK-NEXT: r[[G:[0-9]]] = last_arg ll
// CHECK-NEXT: *(u64 *)(r[[G]] + 0) = r[[N]]
// CHECK-NEXT: r1 = first_bytes ll
// CHECK-NEXT: ; bpf_probe_read_user
// CHECK-NEXT: r2 = 8
// CHECK-NEXT: call 112
// CHECK: uretprobe_basic: (section uretprobe,
// CHECK-NEXT: r[[R:[0-9]]] = *(u64 *)(r1 + 80)
// CHECK-NEXT: r[[G:[0-9]]] = last_ret ll
// CHECK-NEXT: *(u64 *)(r[[G]] + 0) = r[[R]]
