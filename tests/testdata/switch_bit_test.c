// Tests: the cases of one body within 64 of each other are tested at
// once, `(1 << (x - min)) & mask`, as clang does (selftests/net's
// nat6to4: a chain of equality tests sends x into the shared body as a
// different constant on each edge, and the verifier walks it once for
// each). Negative, 64-bit and widely spread values, cases of other
// bodies and defaults keep their meaning.
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=1
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __attribute__((noinline)) int proto_class(int p)
{
	switch (p) {
	case 6: case 17: case 47: case 50:
		return 1;
	case -3: case -1: case 0: case 60:
		return 2;
	case 1: case 2:
		return 3;
	case 100: case 164: case 228:
		return 4;
	default:
		return 0;
	}
}

static __attribute__((noinline)) int wide_class(long v)
{
	switch (v) {
	case 0x100000000L: case 0x100000003L: case 0x10000003fL:
		return 5;
	case 0: case 63: case 62:
		return 6;
	}
	return 7;
}

volatile int probe[] = { 6, 17, 47, 50, 7, -3, -1, 0, 60, -2, 1, 2, 100, 164, 228, 101, 61 };
volatile long wide[] = { 0x100000000L, 0x100000003L, 0x10000003fL, 0x100000001L, 0, 63, 62, 64, -1 };

SEC("socket")
int switch_bit_test(struct __sk_buff *skb)
{
	int want[] = { 1, 1, 1, 1, 0, 2, 2, 2, 2, 0, 3, 3, 4, 4, 4, 0, 0 };
	int wantw[] = { 5, 5, 5, 7, 6, 6, 6, 7, 7 };

	for (int i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (proto_class(probe[i]) != want[i])
			return 100 + i;
	for (int i = 0; i < sizeof(wantw) / sizeof(wantw[0]); i++)
		if (wide_class(wide[i]) != wantw[i])
			return 200 + i;
	return 1;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: proto_class:
// CHECK: if r{{[0-9]}} & 
// CHECK: exit
