// Tests: pointers to strings held in a const array, or in a static
// variable nothing writes, are the strings' addresses, as clang folds
// them: names[1][0] read the pointer's bytes as 0 (wrong code: the
// loader fills them in), and beyla's static char *hex = "0123..." was
// read from .data, a scalar to the verifier ("invalid mem access").
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static const char *const names[] = { "ab", "cd" };
static char *hex = "0123456789abcdef";

SEC("socket")
int static_string_pointers(struct __sk_buff *skb)
{
	__u32 n = skb->len;

	if (names[1][0] != 'c' || names[0][1] != 'b')
		return 1;
	if (hex[n & 15] != "0123456789abcdef"[n & 15])
		return 2;
	if (hex[10] != 'a')
		return 3;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: static_string_pointers:
// CHECK-NOT: hex ll
// CHECK: exit
