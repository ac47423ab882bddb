// Tests: a map value's member that inline asm masks in place ("+r") and
// that is then a helper's size is the asm's output register, extended to
// the member's size, not a reload (tetragon's read_exe: `asm volatile("%[len]
// &= 0xff" : [len] "+r"(exe->len)); probe_read(exe->buf, exe->len, ...)`:
// "R2 unbounded memory access" before).
// RUN: load-only
// CPU: v2
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct heap_exe {
	char buf[256];
	__u32 len;
	__u32 error;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct heap_exe);
} heap SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getpid")
int asm_output_member_size(void *ctx)
{
	int zero = 0;
	struct heap_exe *exe = bpf_map_lookup_elem(&heap, &zero);

	if (!exe)
		return 0;
	if (exe->len > 255)
		exe->len = 255;
	asm volatile("%[len] &= 0xff;\n" : [len] "+r"(exe->len));
	bpf_probe_read_kernel(exe->buf, exe->len, ctx);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[L:[0-9]]] &= 255
// CHECK-NEXT: *(u32 *)(r{{[0-9]}} + 256) = r[[L]]
// CHECK-NEXT: w2 = w[[L]]
// CHECK: call 113
