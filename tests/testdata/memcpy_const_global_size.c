// Tests: memcpy whose size is a const global initialised with sizeof
// (HID's XPPen__DecoMini4 driver: `static const size_t
// fixed_pad_rdesc_size = sizeof(fixed_pad_rdesc)`): the global's load
// from .rodata folds, as clang folds it, and the size is a constant.
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=1
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static const unsigned char pattern[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
static const unsigned long pattern_size = sizeof(pattern);
const int fill_size = 6;

SEC("socket")
int memcpy_const_global_size(struct __sk_buff *skb)
{
	unsigned char buf[16] = {};

	__builtin_memcpy(buf, pattern, pattern_size);
	__builtin_memset(buf + 10, 0xee, fill_size);
	return buf[0] == 1 && buf[8] == 9 && buf[9] == 0 && buf[10] == 0xee && buf[15] == 0xee;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: memcpy_const_global_size:
// CHECK-NOT: call
// CHECK: exit
