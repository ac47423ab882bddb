// Tests: bpf_get_current_pid_tgid and bpf_ktime_get_ns in a tracing-style
// helper sequence run from SEC("syscall"): the tgid half is the test
// process, the time moves forward; the values themselves differ between
// runs, so the differential test ignores them.
// RUN: syscall
// PACKET: none
// EXPECT: retval=0
// NONDET: last_tgid last_ns
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u32 last_tgid;
__u64 last_ns;

SEC("syscall")
int pid_tgid_ktime(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u64 t0 = bpf_ktime_get_ns(), t1;

	if (id == 0)
		return 1;
	last_tgid = id >> 32;
	if (last_tgid == 0 || (__u32)id == 0)
		return 2;
	t1 = bpf_ktime_get_ns();
	if (t1 < t0)
		return 3;
	last_ns = t1;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: pid_tgid_ktime: (section syscall,
// CHECK: ; bpf_get_current_pid_tgid
// CHECK-NEXT: call 14
// CHECK: ; bpf_ktime_get_ns
// CHECK-NEXT: call 5
// CHECK: = last_tgid ll
// CHECK: call 5
// CHECK: [[P:r[0-9]]] = last_ns ll
// CHECK-NEXT: *(u64 *)([[P]] + 0) = r0
