// Tests: below v3 (no 32-bit jumps), a u32 truncation compared with a
// bound and then given to a helper as a size is extended in its own
// register, as clang does (r <<= 32; r >>= 32), so the comparison bounds
// the register the helper gets: the bound was on an extended copy and the
// size unbounded ("R2 unbounded memory access": tracee's
// trace_security_socket_bind at its -mcpu=v2; an int difference checked
// then passed to bpf_xdp_load_bytes at v1, bpf-developer-tutorial's
// xdppass).
// RUN: load-only
// CPU: v2
// CLANG-CPU: v2
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("raw_tracepoint/x")
int helper_size_bound_v2(struct bpf_raw_tracepoint_args *ctx)
{
	unsigned int len = (unsigned int)ctx->args[2];
	char buf[64] = {};

	if (len <= sizeof(buf))
		bpf_probe_read(buf, len, (void *)ctx->args[1]);
	return buf[0];
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: helper_size_bound_v2: (section raw_tracepoint/x,
