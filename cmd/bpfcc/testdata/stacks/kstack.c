/* TestLoadKernelStack: kernel stacks of getpid by bpf_get_stackid. */
#include <bpfcc.h>
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 1024);
	__uint(key_size, 4);
	__uint(value_size, 127 * 8);
} stacks SEC(".maps");
struct key { __u32 pid; __s64 kern_stack_id; };
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, struct key);
	__type(value, __u64);
} counts SEC(".maps");
SEC("tp/syscalls/sys_enter_getpid")
int h(void *ctx)
{
	struct key k = {};
	__u64 one = 1, *c;
	k.pid = bpf_get_current_pid_tgid() >> 32;
	k.kern_stack_id = bpf_get_stackid(ctx, &stacks, 0);
	c = bpf_map_lookup_elem(&counts, &k);
	if (c) __sync_fetch_and_add(c, 1);
	else bpf_map_update_elem(&counts, &k, &one, BPF_ANY);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
