// Tests: GCC's legacy socket-buffer builtins __builtin_bpf_load_byte,
// _half and _word (bpf_legacy.h without __clang__) take only the offset
// and read the packet of the function's context, with BPF_LD_ABS/IND.
// RUN: load-only
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#ifndef __clang__
#define load_byte(skb, off) __builtin_bpf_load_byte(off)
#define load_word(skb, off) __builtin_bpf_load_word(off)
#else
unsigned long long load_byte(void *skb, unsigned long long off) asm("llvm.bpf.load.byte");
unsigned long long load_word(void *skb, unsigned long long off) asm("llvm.bpf.load.word");
#endif

SEC("socket")
int ld_abs_gcc(struct __sk_buff *skb)
{
	volatile __u32 one = 1;

	return load_byte(skb, 3) + load_word(skb, one);
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: ; load_byte
// CHECK-NEXT: r0 = *(u8 *)skb[3]
// CHECK: ; load_word
// CHECK: r0 = *(u32 *)skb[r{{[0-9]}} + 0]
// CHECK-NOT: call
