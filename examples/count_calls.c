/*
 * count_calls.c: count calls of a function per process.
 *
 *	gcc -g -O2 -o /tmp/bpfcc-demo examples/demo/target.c
 *	sudo bpfcc --load process examples/count_calls.c -x /tmp/bpfcc-demo -c '/tmp/bpfcc-demo 800'
 *
 * --load PROBE (here the function process of the -x binary) sets the attach
 * point of the bare SEC("uprobe") handler. At exit the runtime prints the
 * map as a table: one row per pid with its number of calls.
 */
#include <bpfcc.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);   /* pid (thread group id) */
	__type(value, __u64); /* calls */
} calls SEC(".maps");

SEC("uprobe")
int count(struct pt_regs *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	__u64 one = 1, *n;

	n = bpf_map_lookup_elem(&calls, &pid);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&calls, &pid, &one, BPF_NOEXIST);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
