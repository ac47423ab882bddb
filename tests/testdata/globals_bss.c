// Tests: zero-initialised globals in .bss and function-scope static
// variables, which keep their values across runs.
// RUN: socket
// PACKET: ipv4-tcp repeat=3
// EXPECT: retval=3
// EXPECT-VAR: total=120
// EXPECT-VAR: zeroed=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u64 total;
__u32 zeroed;

static __attribute__((noinline)) int next_id(void)
{
	static int id;
	return ++id;
}

SEC("socket")
int globals_bss(struct __sk_buff *skb)
{
	total += skb->len;
	if (zeroed != 0)
		return 100;
	return next_id();
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: next_id: (section .text,
// CHECK: = next_id.id ll
// CHECK: globals_bss: (section socket,
// CHECK: = total ll
// CHECK: = zeroed ll
// CHECK: call next_id
