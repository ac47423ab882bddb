// Tests: a static function of six parameters, too large for the
// inliner's size limits, is inlined all the same: no BPF call could pass
// it its arguments, and clang inlines a static function called once
// (opentelemetry-ebpf-profiler's collect_trace).
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=1
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

volatile __u64 in[6] = { 1, 2, 3, 4, 5, 6 };
__u64 out[64];

static int mix(__u64 a, __u64 b, __u64 c, __u64 d, __u64 e, __u64 f)
{
	__u64 s = a;

	s = s * 31 + (d + e) + f; out[0] = s;
	s = s * 31 + (b ^ c) + f; out[1] = s;
	s = s * 31 + (d + e) + f; out[2] = s;
	s = s * 31 + (b ^ c) + f; out[3] = s;
	s = s * 31 + (d + e) + f; out[4] = s;
	s = s * 31 + (b ^ c) + f; out[5] = s;
	s = s * 31 + (d + e) + f; out[6] = s;
	s = s * 31 + (b ^ c) + f; out[7] = s;
	s = s * 31 + (d + e) + f; out[8] = s;
	s = s * 31 + (b ^ c) + f; out[9] = s;
	s = s * 31 + (d + e) + f; out[10] = s;
	s = s * 31 + (b ^ c) + f; out[11] = s;
	s = s * 31 + (d + e) + f; out[12] = s;
	s = s * 31 + (b ^ c) + f; out[13] = s;
	s = s * 31 + (d + e) + f; out[14] = s;
	s = s * 31 + (b ^ c) + f; out[15] = s;
	s = s * 31 + (d + e) + f; out[16] = s;
	s = s * 31 + (b ^ c) + f; out[17] = s;
	s = s * 31 + (d + e) + f; out[18] = s;
	s = s * 31 + (b ^ c) + f; out[19] = s;
	s = s * 31 + (d + e) + f; out[20] = s;
	s = s * 31 + (b ^ c) + f; out[21] = s;
	s = s * 31 + (d + e) + f; out[22] = s;
	s = s * 31 + (b ^ c) + f; out[23] = s;
	s = s * 31 + (d + e) + f; out[24] = s;
	s = s * 31 + (b ^ c) + f; out[25] = s;
	s = s * 31 + (d + e) + f; out[26] = s;
	s = s * 31 + (b ^ c) + f; out[27] = s;
	s = s * 31 + (d + e) + f; out[28] = s;
	s = s * 31 + (b ^ c) + f; out[29] = s;
	s = s * 31 + (d + e) + f; out[30] = s;
	s = s * 31 + (b ^ c) + f; out[31] = s;
	s = s * 31 + (d + e) + f; out[32] = s;
	s = s * 31 + (b ^ c) + f; out[33] = s;
	s = s * 31 + (d + e) + f; out[34] = s;
	s = s * 31 + (b ^ c) + f; out[35] = s;
	s = s * 31 + (d + e) + f; out[36] = s;
	s = s * 31 + (b ^ c) + f; out[37] = s;
	s = s * 31 + (d + e) + f; out[38] = s;
	s = s * 31 + (b ^ c) + f; out[39] = s;
	s = s * 31 + (d + e) + f; out[40] = s;
	s = s * 31 + (b ^ c) + f; out[41] = s;
	s = s * 31 + (d + e) + f; out[42] = s;
	s = s * 31 + (b ^ c) + f; out[43] = s;
	s = s * 31 + (d + e) + f; out[44] = s;
	s = s * 31 + (b ^ c) + f; out[45] = s;
	s = s * 31 + (d + e) + f; out[46] = s;
	s = s * 31 + (b ^ c) + f; out[47] = s;
	s = s * 31 + (d + e) + f; out[48] = s;
	s = s * 31 + (b ^ c) + f; out[49] = s;
	s = s * 31 + (d + e) + f; out[50] = s;
	s = s * 31 + (b ^ c) + f; out[51] = s;
	s = s * 31 + (d + e) + f; out[52] = s;
	s = s * 31 + (b ^ c) + f; out[53] = s;
	s = s * 31 + (d + e) + f; out[54] = s;
	s = s * 31 + (b ^ c) + f; out[55] = s;
	s = s * 31 + (d + e) + f; out[56] = s;
	s = s * 31 + (b ^ c) + f; out[57] = s;
	s = s * 31 + (d + e) + f; out[58] = s;
	s = s * 31 + (b ^ c) + f; out[59] = s;
	s = s * 31 + (d + e) + f; out[60] = s;
	s = s * 31 + (b ^ c) + f; out[61] = s;
	s = s * 31 + (d + e) + f; out[62] = s;
	s = s * 31 + (b ^ c) + f; out[63] = s;
	return s != 0;
}

SEC("socket")
int six_params_static(struct __sk_buff *skb)
{
	return mix(in[0], in[1], in[2], in[3], in[4], in[5]);
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: six_params_static:
// CHECK-NOT: call
// CHECK: exit
