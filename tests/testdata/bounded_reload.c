// Tests: a value loaded from memory, compared, then used as an index is
// not loaded again (libbpf-tools execsnoop's args_size pattern): a second
// load would lose the bound the comparison gave the verifier, which then
// rejects the write as unbounded. The program runs and checks the bytes.
// RUN: syscall
// PACKET: none
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct ev {
	unsigned int size;
	char buf[512];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ev);
} evs SEC(".maps");

const char word[8] = "bpfcc!";
const unsigned int hundred = 100;

SEC("syscall")
int bounded_reload(void *ctx)
{
	__u32 k = 0;
	struct ev *e = bpf_map_lookup_elem(&evs, &k);
	long n;

	if (!e)
		return 1;
	// Written by a helper, so that the load is one (a constant stored
	// would be forwarded to it).
	bpf_probe_read_kernel(&e->size, sizeof(e->size), &hundred);
	if (e->size > 512 - 64)
		return 2;
	n = bpf_probe_read_kernel_str(&e->buf[e->size], 64, word);
	if (n != 7 || e->buf[100] != 'b' || e->buf[105] != '!')
		return 3;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: call 1
// CHECK: r[[N:[0-9]]] = *(u32 *)(r[[E:[0-9]]] + 0)
// CHECK-NEXT: if w[[N]] > 448 goto
// CHECK-NOT: = *(u32 *)(r[[E]] + 0)
// CHECK: r[[A:[0-9]]] = r[[E]]
// CHECK: r[[A]] += r[[N]]
// CHECK: call 115
