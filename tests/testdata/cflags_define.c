// Tests: -D and -U on the command line (CFLAGS below are given to bpfcc and
// clang alike): LIMIT comes from -D, DEBUG_BUILD is -U'd away, and the
// predefined __bpf__ and __BPF__ macros are set.
// CFLAGS: -DLIMIT=7 -DNAME_LEN=3 -UDEBUG_BUILD
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#ifndef LIMIT
#error "LIMIT must come from -D"
#endif
#ifdef DEBUG_BUILD
#error "DEBUG_BUILD must not be defined"
#endif
#if !defined(__bpf__) || !defined(__BPF__)
#error "__bpf__ and __BPF__ are predefined for the BPF target"
#endif
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "little-endian target expected"
#endif

SEC("socket")
int cflags_define(struct __sk_buff *skb)
{
	char name[NAME_LEN] = { 0 };
	int sum = 0;

	for (int i = 0; i < LIMIT; i++)
		sum += i;
	if (sum != 21)
		return 1;
	if (sizeof(name) != 3)
		return 2;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: cflags_define: (section socket, 2 insns, stack 0)
// CHECK-NOT: r0 = {{[1-9]}}
// CHECK: r0 = 0
// CHECK-NEXT: exit
