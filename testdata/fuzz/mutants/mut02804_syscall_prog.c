// mutation: delete line 6; duplicate line 11
// problem: internal error: internal compiler error: ELF writer: elfwriter: lay out data: invalid object: variable "runs" clashes with variable of the same name
// Tests: a SEC("syscall") program (run with BPF_PROG_TEST_RUN without a
// packet) computing a checksum over a .rodata table in a loop.
// RUN: syscall
// PACKET: none repeat=2
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

const __u8 table[16] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3 };
__u32 runs;
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
