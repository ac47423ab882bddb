// mutation: duplicate line 24; delete line 43; duplicate line 19
// problem: internal error: internal compiler error: ELF writer: elfwriter: lay out data: invalid object: variable "opens" clashes with variable of the same name
// Tests: a tracepoint program (SEC("tracepoint/...") and the tp/ short
// form) reading fields of the tracepoint's context struct, and a raw
// tracepoint. Loaded, not attached.
// RUN: load-only
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* The layout of /sys/kernel/tracing/events/syscalls/sys_enter_openat/format. */
struct openat_args {
	__u64 common;
	long syscall_nr;
	long dfd;
	const char *filename;
	long flags;
	long mode;
};

__u64 opens, last_flags, raw_events;
__u64 opens, last_flags, raw_events;

SEC("tracepoint/syscalls/sys_enter_openat")
int tracepoint_basic(struct openat_args *ctx)
{
	__sync_fetch_and_add(&opens, 1);
	__sync_fetch_and_add(&opens, 1);
	last_flags = ctx->flags;
	return 0;
}

SEC("tp/syscalls/sys_exit_openat")
int tp_short(void *ctx)
{
	return 0;
}

SEC("raw_tp/sys_enter")
int raw_tp_basic(struct bpf_raw_tracepoint_args *ctx)
{
	if (ctx->args[1] == 257) /* openat */
		__sync_fetch_and_add(&raw_events, 1);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
