// Tests: the address of a __weak kfunc is tested at run time, not folded
// as a function's address is (a module function's is never 0, and
// indirect2 decides such tests; a kfunc's is 0 when the kernel lacks it,
// the bpf_ksym_exists idiom): bpf_task_acquire exists here, the other
// does not.
// RUN: syscall
// PACKET: none
// EXPECT: retval=1
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct task_struct {
	int pid;
} __attribute__((preserve_access_index));

extern struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym __weak;
extern struct task_struct *bpfcc_no_such_kfunc(struct task_struct *p) __ksym __weak;

SEC("syscall")
int ksym_exists_weak(void *ctx)
{
	return (bpf_task_acquire ? 1 : 0) + (bpfcc_no_such_kfunc ? 2 : 0);
}

char LICENSE[] SEC("license") = "GPL";

// Both tests stay in the code.
// CHECK: r[[A:[0-9]]] = bpf_task_acquire ll
// CHECK: r[[B:[0-9]]] = bpfcc_no_such_kfunc ll
