// Rejected: an integer passed to a pointer parameter without a cast
// (clang 16+: "incompatible integer to pointer conversion passing", an
// error): inspektor-gadget passed a char member as bpf_get_current_comm's
// buffer, and the program wrote through the char's value.
// CLANG: error
// ERROR: 21:23: incompatible integer to pointer conversion passing char to a parameter of type pointer to void
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct who {
	char comm;
	int pid;
};

SEC("tracepoint/syscalls/sys_enter_kill")
int int_to_pointer_argument(void *ctx)
{
	struct who out = {};

	out.pid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(out.comm, sizeof(out.comm));
	return out.pid;
}

char LICENSE[] SEC("license") = "GPL";
