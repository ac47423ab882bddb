// Tests: a kprobe written with BPF_KPROBE and PT_REGS_PARM1 from
// bpf_tracing.h (needs __TARGET_ARCH_x86), counting calls per pid in a hash
// map. Loaded, not attached.
// RUN: load-only
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u64);
} calls SEC(".maps");

SEC("kprobe/do_sys_openat2")
int BPF_KPROBE(kprobe_basic, int dfd, const char *filename)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	__u64 one = 1, *v;

	if (dfd == -100) /* AT_FDCWD */
		return 0;
	v = bpf_map_lookup_elem(&calls, &pid);
	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&calls, &pid, &one, BPF_ANY);
	return 0;
}

SEC("kprobe/vfs_read")
int kprobe_parm(struct pt_regs *ctx)
{
	unsigned long file = PT_REGS_PARM1(ctx);
	unsigned long count = PT_REGS_PARM3(ctx);

	return file != 0 && count > 4096;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: kprobe_basic: (section kprobe/do_sys_openat2,
// CHECK: call 14
// CHECK: r1 = map[calls] ll
// CHECK: call 1
// CHECK: lock *(u64 *)(r0 + 0) += r{{[0-9]}}
// CHECK: call 2
// CHECK: kprobe_parm: (section kprobe/vfs_read,
// CHECK: if r1 {{(> 4096|<= 4096)}} goto
