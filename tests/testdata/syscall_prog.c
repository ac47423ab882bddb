// Tests: a SEC("syscall") program (run with BPF_PROG_TEST_RUN without a
// packet) computing a checksum over a .rodata table in a loop.
// RUN: syscall
// PACKET: none repeat=2
// EXPECT: retval=0
// EXPECT-VAR: runs=2
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

const __u8 table[16] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3 };
__u32 runs;

SEC("syscall")
int syscall_prog(void *ctx)
{
	__u32 a = 1, b = 0;

	for (int i = 0; i < 16; i++) { /* Adler-32 */
		a = (a + table[i]) % 65521;
		b = (b + a) % 65521;
	}
	runs++;
	if ((b << 16 | a) != 0x024e0051)
		return 1;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: syscall_prog: (section syscall,
// CHECK-NOT: goto
// CHECK: [[P:r[0-9]]] = runs ll
// CHECK: [[V:r[0-9]]] = *(u32 *)([[P]] + 0)
// CHECK: *(u32 *)([[P]] + 0) = [[V]]
// CHECK: r0 = 0
// CHECK-NEXT: exit
