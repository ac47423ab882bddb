// Tests: a kretprobe with BPF_KRETPROBE reading the return value, and the
// elapsed time since a matching kprobe through bpf_ktime_get_ns, keyed by
// bpf_get_current_pid_tgid. Loaded, not attached.
// RUN: load-only
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, __u64);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} totals SEC(".maps");

SEC("kprobe/vfs_write")
int BPF_KPROBE(enter_write)
{
	__u64 id = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns();

	bpf_map_update_elem(&start, &id, &now, BPF_ANY);
	return 0;
}

SEC("kretprobe/vfs_write")
int BPF_KRETPROBE(exit_write, long ret)
{
	__u64 id = bpf_get_current_pid_tgid(), *t0, *tot;
	__u32 k = ret < 0;

	t0 = bpf_map_lookup_elem(&start, &id);
	if (!t0)
		return 0;
	tot = bpf_map_lookup_elem(&totals, &k);
	if (tot)
		__sync_fetch_and_add(tot, bpf_ktime_get_ns() - *t0);
	bpf_map_delete_elem(&start, &id);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: enter_write: (section kprobe/vfs_write,
// CHECK: call 14
// CHECK: call 5
// CHECK: r1 = map[start] ll
// CHECK: call 2
// CHECK: exit_write: (section kretprobe/vfs_write,
// CHECK: call 5
// CHECK: lock *(u64 *)(r{{[0-9]}} + 0) += r0
// CHECK: ; bpf_map_delete_elem
// CHECK: call 3
