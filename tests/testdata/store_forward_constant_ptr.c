// Tests: a constant stored through a pointer into a map value and read
// back is the constant (tetragon's d_path_local: `*buflen = MAX_BUF_LEN;
// char *res = buf + *buflen;` with buflen pointing into the event). The
// reload was a 32-bit scalar the verifier knew nothing of: "value
// -2147483648 makes map_value pointer be out of bounds".
// RUN: load-only
// CPU: v2
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct ev {
	char data[64];
	unsigned int len;
	unsigned int error;
};

struct bufv {
	char buf[4096 + 256];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct ev);
} evmap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct bufv);
} bufmap SEC(".maps");

static __always_inline char *path_end(int *buflen)
{
	int zero = 0;
	char *buffer = bpf_map_lookup_elem(&bufmap, &zero);

	if (!buffer)
		return 0;
	*buflen = 4096;
	char *res = buffer + *buflen;
	res -= 8;
	*(long *)res = 0;
	return res;
}

SEC("tracepoint/syscalls/sys_enter_getpid")
int store_forward_constant_ptr(void *ctx)
{
	int zero = 0;
	struct ev *e = bpf_map_lookup_elem(&evmap, &zero);

	if (!e)
		return 0;
	return path_end((int *)&e->len) != 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: *(u32 *)(r[[E:[0-9]]] + 64) = 4096
// CHECK-NOT: = *(u32 *)(r[[E]] + 64)
// CHECK: += 4096
