// Tests: an operation on a select that folds on one arm is computed in the
// arms: `curlen = min(remaining, MAX); ... remaining -= curlen; if
// (remaining == 0) break;` gets remaining' = 0 where curlen is remaining,
// remaining - MAX where it is MAX. The verifier does not know that
// remaining - curlen is 0 when both are one value: the loop went on from
// that arm with a wrapped range, and each trip doubled the paths
// (inspektor-gadget's gotls uprobe_write: over 1M verified instructions,
// clang's object 8,127; this program now about 2,200).
// RUN: load-only
// CPU: v1
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

#define PKTLEN 2048

struct event {
	__u64 len;
	char buf[PKTLEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096 * 4096);
} events SEC(".maps");

SEC("uprobe")
int chunked_copy_loop(struct pt_regs *ctx)
{
	__u64 buf_ptr = ctx->rbx;
	__u32 len = ctx->rcx;
	__u32 remaining = len, curlen, offs = 0;
	struct event *event;

	if (len == 0)
		return 0;
	for (int i = 0; i < 64; i++) {
		curlen = remaining;
		if (curlen > PKTLEN)
			curlen = PKTLEN;
		event = bpf_ringbuf_reserve(&events, sizeof(*event), 0);
		if (!event)
			break;
		event->len = curlen;
		bpf_probe_read_user(&event->buf[0], curlen, (unsigned char *)buf_ptr + offs);
		bpf_ringbuf_submit(event, 0);
		remaining -= curlen;
		offs += curlen;
		if (remaining == 0)
			break;
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// The arm where curlen is MAX computes remaining - 2048 itself (the other
// sets 0), and the test after the calls reads that register.
// CHECK: if r[[R:[0-9]]] > 2048 goto
// CHECK: call 132
// CHECK: r[[T:[0-9]]] = r[[Q:[0-9]]]
// CHECK-NEXT: if r[[T]] == 0 goto
// CHECK: r[[Q]] = r[[R]]
// CHECK-NEXT: w[[Q]] -= 2048
