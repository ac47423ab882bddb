// Tests: inline asm with two outputs (cilium's xdp_load_bytes: [ret] and
// [from], a packet pointer the asm bounds-checked). The second output
// leaves the asm through a stack slot the asm's last instruction stores it
// to, so the verifier keeps the pointer's range; the program reads the
// packet's bytes 12..15 through it ("inline asm with more than one output
// operand is not supported" before).
// RUN: xdp
// PACKET: raw hex=0000000000000000000000004433221100000000
// EXPECT: retval=1
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __always_inline int load_bytes(const struct xdp_md *ctx, __u64 off, void *to, const __u64 len)
{
	void *from;
	int ret;

	asm volatile("r1 = *(u32 *)(%[ctx] +0)\n\t"
		     "r2 = *(u32 *)(%[ctx] +4)\n\t"
		     "%[off] &= %[offmax]\n\t"
		     "r1 += %[off]\n\t"
		     "%[from] = r1\n\t"
		     "r1 += %[len]\n\t"
		     "if r1 > r2 goto +2\n\t"
		     "%[ret] = 0\n\t"
		     "goto +1\n\t"
		     "%[ret] = %[errno]\n\t"
		     : [ret] "=r"(ret), [from] "=r"(from)
		     : [ctx] "r"(ctx), [off] "r"(off), [len] "ri"(len),
		       [offmax] "i"(0xff), [errno] "i"(-22)
		     : "r1", "r2");
	if (!ret)
		__builtin_memcpy(to, from, len);
	return ret;
}

SEC("xdp")
int asm_two_outputs(struct xdp_md *ctx)
{
	__u32 w = 0;

	if (load_bytes(ctx, 12, &w, 4) < 0)
		return XDP_ABORTED;
	return w == 0x11223344 ? XDP_DROP : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";

// The second output's register is stored to the slot at the asm's end,
// and read back from it.
// CHECK: r{{[0-9]}} = -22
// CHECK-NEXT: *(u64 *)(r{{[0-9]}} + 0) = r{{[0-9]}}
// CHECK: r{{[0-9]}} = *(u64 *)(r10 - 16)
