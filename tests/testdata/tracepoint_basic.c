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

SEC("tracepoint/syscalls/sys_enter_openat")
int tracepoint_basic(struct openat_args *ctx)
{
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

// CHECK: tracepoint_basic: (section tracepoint/syscalls/sys_enter_openat,
// CHECK-NEXT: r[[O:[0-9]]] = opens ll
// CHECK-NEXT: r[[V:[0-9]]] = 1
// CHECK-NEXT: lock *(u64 *)(r[[O]] + 0) += r[[V]]
// CHECK-NEXT: r[[F:[0-9]]] = *(u64 *)(r1 + 32)
// CHECK-NEXT: r[[L:[0-9]]] = last_flags ll
// CHECK-NEXT: *(u64 *)(r[[L]] + 0) = r[[F]]
// CHECK: tp_short: (section tp/syscalls/sys_exit_openat,
// CHECK: raw_tp_basic: (section raw_tp/sys_enter,
// CHECK-NEXT: r[[A:[0-9]]] = *(u64 *)(r1 + 8)
// CHECK-NEXT: if r[[A]] != 257 goto
// CHECK-NEXT: r[[E:[0-9]]] = raw_events ll
// CHECK-NEXT: r[[V:[0-9]]] = 1
// CHECK-NEXT: lock *(u64 *)(r[[E]] + 0) += r[[V]]
