// Tests: clang's legacy socket-buffer loads, functions declared with the
// llvm.bpf.load.byte/half/word intrinsics as asm labels (bpf_legacy.h),
// become BPF_LD_ABS with a constant offset and BPF_LD_IND with a computed
// one, reading the packet in network order.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

unsigned long long load_byte(void *skb, unsigned long long off) asm("llvm.bpf.load.byte");
unsigned long long load_half(void *skb, unsigned long long off) asm("llvm.bpf.load.half");
unsigned long long load_word(void *skb, unsigned long long off) asm("llvm.bpf.load.word");

SEC("socket")
int ld_abs_ind(struct __sk_buff *skb)
{
	volatile __u32 two = 2;
	__u32 w = load_word(skb, 0);
	__u32 h0 = load_half(skb, 0), h1 = load_half(skb, 2);
	__u32 b = load_byte(skb, 3);

	if (w != (h0 << 16 | h1))
		return 1;
	if (b != (h1 & 0xff))
		return 2;
	if (load_half(skb, two) != h1)
		return 3;
	if (load_byte(skb, two + 1) != b || load_word(skb, two - 2) != w)
		return 4;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: ; load_word
// CHECK-NEXT: r0 = *(u32 *)skb[0]
// CHECK: ; load_half
// CHECK-NEXT: r0 = *(u16 *)skb[0]
// CHECK: r0 = *(u16 *)skb[2]
// CHECK: ; load_byte
// CHECK-NEXT: r0 = *(u8 *)skb[3]
// CHECK: r0 = *(u16 *)skb[r{{[0-9]}} + 0]
// CHECK: r0 = *(u8 *)skb[r{{[0-9]}} + 0]
// CHECK: r0 = *(u32 *)skb[r{{[0-9]}} + 0]
// CHECK-NOT: call
