// Tests: a member of a packed struct stored and read back (stored and
// read in bytes, its address may be misaligned) is the value stored,
// zero-extended: tetragon's __do_bytes, `msg->common.size = offsetof(...)
// + bytes; perf_event_output(ctx, &map, F, msg, msg->common.size)`. The
// value reassembled from byte loads was unbounded: "R5 unbounded memory
// access".
// RUN: load-only
// CPU: v2
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct hdr {
	__u8 op;
	__u8 flags;
	__u8 pad[2];
	__u32 size;
	__u64 ktime;
};

struct msg_data {
	struct hdr common;
	__u64 id;
	char arg[4096];
} __attribute__((packed));

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct msg_data);
} heap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__type(key, int);
	__type(value, int);
} events SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getpid")
int packed_member_forward(void *ctx)
{
	int zero = 0;
	struct msg_data *msg = bpf_map_lookup_elem(&heap, &zero);
	unsigned long bytes = bpf_get_prandom_u32();

	if (!msg)
		return 0;
	if (bytes >= sizeof(msg->arg))
		bytes = sizeof(msg->arg);
	if (bpf_probe_read_kernel(&msg->arg[0], bytes, ctx) < 0)
		return 0;
	msg->common.size = __builtin_offsetof(struct msg_data, arg) + bytes;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, msg, msg->common.size);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: *(u8 *)(r[[M:[0-9]]] + 7) =
// CHECK-NOT: = *(u8 *)(r[[M]] + {{[4-7]}})
// CHECK: w5 = w{{[0-9]}}
// CHECK: call 25
