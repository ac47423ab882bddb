// Tests: the same CO-RE relocation computed again in each unrolled copy
// of a loop (task->comm[i] for i = 0..5) is one value, as clang computes
// it once: the relocation is the same constant once the loader applied
// it (libbpfgo's iter selftest: 53 instructions against clang's 34).
// RUN: load-only
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct task_struct___cse {
	char comm[16];
} __attribute__((preserve_access_index));

struct bpf_iter_meta___cse {
	void *seq;
} __attribute__((preserve_access_index));

struct bpf_iter__task___cse {
	struct bpf_iter_meta___cse *meta;
	struct task_struct___cse *task;
} __attribute__((preserve_access_index));

SEC("iter/task")
int core_offset_cse(struct bpf_iter__task___cse *ctx)
{
	struct task_struct___cse *task = ctx->task;

	if (!task)
		return 0;
	for (int i = 0; i < 6; i++)
		if (task->comm[i] != "sleep"[i])
			return 0;
	return 1;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: ; CO-RE <byte_off> struct task_struct___cse::comm
// CHECK-NOT: ; CO-RE <byte_off> struct task_struct___cse::comm
// CHECK: exit
