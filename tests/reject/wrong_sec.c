// Rejected: a program in a section whose name maps to no program type.
// ERROR: 7: xdpx/
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdpx/not_a_type")
int wrong_sec(struct xdp_md *ctx)
{
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
