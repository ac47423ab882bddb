// Tests: the arm of an if without else that only sets a constant (a clamp,
// `if (len > 65) len = 64;`) is laid out after the path that skips it, as
// clang's select lowering orders them: the verifier walks the skipping
// path's range first, and the clamped constant's state is pruned against
// it at the join. With the constant first, its state could not cover the
// range's and the loop nest after the clamp was verified twice
// (bpf-developer-tutorial's 27-replace: 2.2x clang's verified
// instructions). TestVerifierWalksLikelyArmFirst holds bpfcc to 1.5x
// clang. (clang's -mcpu=v3 object is refused: "R2 unbounded memory
// access"; the clang comparison uses its default v1.)
// RUN: load-only
// CLANG-CPU: v1
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 500);
	__type(key, unsigned int);
	__type(value, unsigned long);
} addrs SEC(".maps");

const volatile char text_find[50];

struct exit_ctx {
	unsigned long long pad;
	long id;
	long ret;
};

SEC("tp/syscalls/sys_exit_read")
int clamp_order(struct exit_ctx *ctx)
{
	unsigned long buff_addr = bpf_get_current_pid_tgid();
	unsigned long name_addr = 0;
	char local_buff[64] = {};
	unsigned int counter = 0;
	long read_size;

	if (ctx->ret <= 0)
		return 0;
	read_size = ctx->ret;
	if (read_size > 65)
		read_size = 64;
	for (unsigned int i = 0; i < 8; i++) {
		bpf_probe_read(&local_buff, read_size, (void *)buff_addr);
		for (unsigned int j = 0; j < 64; j++) {
			if (local_buff[j] == text_find[0]) {
				name_addr = buff_addr + j;
				bpf_map_update_elem(&addrs, &counter, &name_addr, BPF_ANY);
				counter++;
			}
		}
		buff_addr += 64;
	}
	return counter;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: clamp_order: (section tp/syscalls/sys_exit_read,
