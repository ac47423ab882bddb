/*
 * dwarf_arg.c: a handler whose argument is the traced function's parameter,
 * found through the binary's DWARF rather than by register convention.
 *
 *	gcc -g -O2 -o /tmp/bpfcc-demo examples/demo/target.c
 *	sudo bpfcc --load examples/dwarf_arg.c -x /tmp/bpfcc-demo -c '/tmp/bpfcc-demo 800'
 *
 * SEC("config") says: attach handler h at process (in the -x binary) and
 * bind its parameter size to the variable size there. bpfcc reads where
 * size lives at that address and rewrites h to take only ctx. The table
 * printed at exit counts calls per size: 100 for each of 1, 2, ..., 128.
 */
#include <bpfcc.h>

SEC("config") char config[] = "h: process size";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, long);    /* size */
	__type(value, __u64); /* calls */
} by_size SEC(".maps");

int h(struct pt_regs *ctx, long size)
{
	__u64 one = 1, *n;

	n = bpf_map_lookup_elem(&by_size, &size);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&by_size, &size, &one, BPF_NOEXIST);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
