// Tests: a CO-RE access through the context pointer carries its relocation
// on the load's offset (ld r, [ctx + off]), as clang emits it: the
// verifier accepts no arithmetic on a context pointer before it is
// dereferenced, so a relocated mov + add would be rejected.
// RUN: load-only
// ASM: "*(u64 *)(r1 + 8)"
// ASM: "CO-RE <byte_off> struct trace_event_raw_sys_enter___local::id (0:1)"
// ASM: -"r1 +="
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct trace_event_raw_sys_enter___local {
	__u64 pad;
	long id;
	unsigned long args[6];
} __attribute__((preserve_access_index));

__u64 last_id, last_arg;

SEC("tp/raw_syscalls/sys_enter")
int core_ctx(struct trace_event_raw_sys_enter___local *ctx)
{
	last_id = ctx->id;
	last_arg = ctx->args[1];
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// The relocated offset is the load's own, the relocation on the next line:
// CHECK: r{{[0-9]}} = *(u64 *)(r1 + 8)
// CHECK-NEXT: ; CO-RE <byte_off> struct trace_event_raw_sys_enter___local::id (0:1)
// CHECK-NOT: r1 +=
// CHECK: r{{[0-9]}} = *(u64 *)(r1 + 24)
// CHECK-NEXT: ; CO-RE <byte_off> struct trace_event_raw_sys_enter___local::args[1] (0:2:1)
