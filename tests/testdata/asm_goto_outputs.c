// Tests: asm goto with an output (beyla's check_pkt_access: the packet
// pointer the asm bounds-checked comes out in a register the verifier
// knows the range of). The output leaves through a stack slot stored on
// the asm's fallthrough path; at the label it is not read. A 20-byte
// packet: offset 4 is in it (its byte 0x02 is read through the output),
// offset 1000 is not (the label): 2 + 10 = 12 ("asm goto with output
// operands is not supported" before).
// RUN: tc
// PACKET: raw hex=0000000002000000000000000000000000000000
// EXPECT: retval=12
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __always_inline unsigned char *check_pkt_access(unsigned char *buf, unsigned int offset, const unsigned char *end)
{
	unsigned char *ret;

	asm goto("r4 = %[buf]\n"
		 "r4 += %[offset]\n"
		 "if r4 > %[end] goto %l[error]\n"
		 "%[ret] = %[buf]"
		 : [ret] "=r"(ret)
		 : [buf] "r"(buf), [end] "r"(end), [offset] "i"(offset)
		 : "r4"
		 : error);
	return ret;
error:
	return 0;
}

SEC("tc")
int asm_goto_outputs(struct __sk_buff *skb)
{
	unsigned char *data = (unsigned char *)(long)skb->data;
	unsigned char *end = (unsigned char *)(long)skb->data_end;
	unsigned char *p = check_pkt_access(data, 5, end);
	int r = 0;

	if (p)
		r += p[4];
	if (!check_pkt_access(data, 1000, end))
		r += 10;
	return r;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: if r{{[0-9]}} > r{{[0-9]}} goto
// CHECK-NEXT: r{{[0-9]}} = r{{[0-9]}}
// CHECK-NEXT: *(u64 *)(r{{[0-9]}} + 0) = r{{[0-9]}}
