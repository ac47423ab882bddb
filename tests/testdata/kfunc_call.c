// Tests: calls of kernel functions declared `extern ... __ksym` (kfuncs):
// a call of an undefined symbol, R_BPF_64_32 against it and a BTF FUNC of
// extern linkage in DATASEC ".ksyms", as clang emits them; the loader
// finds the function in the kernel's BTF. bpf_task_from_pid returns this
// process's task, whose pid a CO-RE relocated load reads.
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

extern struct task_struct *bpf_task_from_pid(__s32 pid) __ksym;
extern void bpf_task_release(struct task_struct *p) __ksym;

SEC("syscall")
int kfunc_call(void *ctx)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	struct task_struct *t = bpf_task_from_pid(tgid);
	int ret = 0;

	if (!t)
		return 1;
	if (t->tgid != tgid)
		ret = 2;
	bpf_task_release(t);
	t = bpf_task_from_pid(-1);
	if (t) {
		bpf_task_release(t);
		return 3;
	}
	return ret;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: call 14
// CHECK: ; bpf_task_from_pid
// CHECK-NEXT: call bpf_task_from_pid
// CHECK: ; CO-RE <byte_off> struct task_struct::tgid (0:1)
// CHECK: call bpf_task_release
// CHECK: call bpf_task_from_pid
// CHECK: call bpf_task_release
