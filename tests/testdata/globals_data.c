// Tests: initialised globals in .data, read and written by the program,
// including a struct and an array global; the harness reads them back.
// RUN: socket
// PACKET: ipv4-tcp repeat=2
// EXPECT: retval=0
// EXPECT-VAR: counter=12
// EXPECT-VAR: last_len=40
// EXPECT-VAR: hist=hex:0100000002000000030000000a000000
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u64 counter = 10;
__u32 last_len = 1;
__u32 hist[4] = { 1, 2, 3, 4 };

SEC("socket")
int globals_data(struct __sk_buff *skb)
{
	counter++;
	last_len = skb->len;
	hist[3] += 3;
	if (counter < 11)
		return 1;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: [[P:r[0-9]]] = counter ll
// CHECK-NEXT: r[[V:[0-9]]] = *(u64 *)([[P]] + 0)
// CHECK-NEXT: r[[V]] += 1
// CHECK-NEXT: *(u64 *)([[P]] + 0) = r[[V]]
// CHECK: = last_len ll
// CHECK: = hist ll
