// Tests: a referenced kptr in a map value (`struct task_struct __kptr *`):
// the pointer's target is a BTF TYPE_TAG "kptr" before the struct, as
// clang emits it, so the kernel knows the field, and bpf_kptr_xchg moves
// an acquired task in and out of the map.
// RUN: syscall
// PACKET: none
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct task_struct {
	int pid;
	int tgid;
} __attribute__((preserve_access_index));

struct value {
	int n;
	struct task_struct __kptr *task;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct value);
} tasks SEC(".maps");

extern struct task_struct *bpf_task_from_pid(__s32 pid) __ksym;
extern void bpf_task_release(struct task_struct *p) __ksym;

SEC("syscall")
int kptr_xchg(void *ctx)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	__u32 key = 0;
	struct value *v = bpf_map_lookup_elem(&tasks, &key);
	struct task_struct *t, *old;
	int ret = 0;

	if (!v)
		return 1;
	t = bpf_task_from_pid(tgid);
	if (!t)
		return 2;
	old = bpf_kptr_xchg(&v->task, t);
	if (old) {
		bpf_task_release(old);
		ret = 3;
	}
	t = bpf_kptr_xchg(&v->task, NULL);
	if (!t)
		return 4;
	if (t->tgid != tgid)
		ret = 5;
	bpf_task_release(t);
	return ret;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: call bpf_task_from_pid
// CHECK: ; bpf_kptr_xchg
// CHECK: call 194
// CHECK: call bpf_task_release
// CHECK: call 194
// CHECK: call bpf_task_release
