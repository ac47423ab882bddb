/*
 * events.c: one ring buffer event per call, decoded by the runtime.
 *
 *	gcc -g -O2 -o /tmp/bpfcc-demo examples/demo/target.c
 *	sudo bpfcc --load process examples/events.c -x /tmp/bpfcc-demo -c '/tmp/bpfcc-demo 16'
 *
 * BPFCC_OUTPUT(call, struct call_event) defines the ring buffer call and
 * puts struct call_event in the object's BTF. The runtime decodes a ring
 * buffer's records with the struct named after the map (call, call_event or
 * call_t) or the type a "bpfcc:event:TYPE" decl tag names, and prints one
 * line per record with field names and values (the comm as a string), or
 * JSON lines with --json:
 *
 *	pid=4242 seq=0 size=1 comm=bpfcc-demo
 */
#include <bpfcc.h>

struct call_event {
	__u32 pid;
	__u32 seq;
	__u64 size;
	char comm[16];
};

BPFCC_OUTPUT(call, struct call_event);

__u32 seq;

SEC("uprobe")
int on_call(struct pt_regs *ctx)
{
	struct call_event e = {};

	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.seq = __sync_fetch_and_add(&seq, 1);
	e.size = PT_REGS_PARM1(ctx);
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	bpfcc_output(call, &e);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
