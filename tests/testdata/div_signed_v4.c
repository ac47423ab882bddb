// Tests: at -mcpu=v4 signed division and modulo use the sdiv/smod
// instructions; results truncate toward zero.
// CPU: v4
// RUN: socket
// EXPECT: retval=0
// ASM: "s/="
// ASM: "s%="
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int div_signed_v4(struct __sk_buff *skb)
{
	volatile int a = -9, b = 4;
	volatile long la = -9, lb = -4;

	CHECK(1, a / b == -2 && a % b == -1);
	CHECK(2, la / lb == 2 && la % lb == -1);
	CHECK(3, -a / b == 2 && -a % b == 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// 32-bit then 64-bit division and modulo, each one instruction:
// CHECK: w{{[0-9]}} s/= w{{[0-9]}}
// CHECK: w{{[0-9]}} s%= w{{[0-9]}}
// CHECK: r{{[0-9]}} s/= r{{[0-9]}}
// CHECK: r{{[0-9]}} s%= r{{[0-9]}}
