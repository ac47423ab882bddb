// Tests: an asm statement with no output that writes an input operand's
// register leaves the register variable it was given holding what the
// code left there, as clang keeps the variable in that register (GNU C
// leaves it undefined): tracee clamps a size so, "if %[size] < %[max] goto
// +1; %[size] = %[max];" on an "r" input, before passing it to a helper.
// The clamp went to a copy and the helper got the unclamped size.
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=16
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int asm_input_written(struct __sk_buff *skb)
{
	char buf[16];
	__u32 n = (skb->len & 0xff) + 1;

	asm volatile("if %[n] < 16 goto +1;\n"
		     "%[n] = 16;\n"
		     :
		     : [n] "r"(n));
	if (bpf_skb_load_bytes(skb, 0, buf, n) < 0)
		return 1;
	return n;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: asm_input_written: (section socket,
// CHECK: if r[[N:[0-9]]] < 16 goto +1
// CHECK-NEXT: r[[N]] = 16
