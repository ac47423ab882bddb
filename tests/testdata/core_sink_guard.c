// Tests: a CO-RE relocation computed before the test that guards its use
// is computed where it is used, as clang sinks it: the size of a type the
// kernel lacks is poisoned by the loader, and the verifier rejects a
// poisoned instruction on a path it walks, not in the branch the
// enum-value test makes dead (inspektor-gadget's buffer.h: "invalid func
// unknown#195896080").
// RUN: load-only
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct event___local_only {
	__u32 foo;
	char fname[60];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_openat")
int core_sink_guard(void *ctx)
{
	struct event___local_only ev = { .foo = 42 };
	unsigned int size = bpf_core_type_size(struct event___local_only);

	if (bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_ringbuf_submit))
		return 0;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &ev, size);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: CO-RE <enumval_exists>
// CHECK: CO-RE <type_size> struct event___local_only
// CHECK: call 25
