/* TestLoadUserStack: a user stack by bpf_get_stackid (a member read by
 * its name) and by bpf_get_stack (a member read by its decl tag). */
#include <bpfcc.h>

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 64);
	__uint(key_size, 4);
	__uint(value_size, 127 * 8);
} stacks SEC(".maps");

struct key {
	__u32 pid;
	__s64 user_stack_id;
	__u64 frames[32] BPFCC_USTACK;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, struct key);
	__type(value, __u64);
} calls SEC(".maps");

SEC("uprobe")
int h(struct pt_regs *ctx)
{
	struct key k = {};
	__u64 one = 1;

	k.pid = bpf_get_current_pid_tgid() >> 32;
	k.user_stack_id = bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK);
	bpf_get_stack(ctx, k.frames, sizeof(k.frames), BPF_F_USER_STACK);
	bpf_map_update_elem(&calls, &k, &one, BPF_ANY);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
