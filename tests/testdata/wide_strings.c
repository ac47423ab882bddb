// Tests: wide string literals (L"", wchar_t is int) initialising global and
// local int arrays and array members, code points beyond the BMP included.
// RUN: socket
// PACKET: ipv4-tcp
// EXPECT: retval=145713
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
const int gs[] = L"hé€😀";
struct { int tag; int name[4]; } gr = { 1, L"ab" };
SEC("socket")
int wide_strings(struct __sk_buff *skb)
{
	int ls[] = L"x€";
	struct { int name[3]; } lr = { L"z" };
	return gs[1] + gs[2] + gs[3] + gs[4] + gr.name[1] + ls[1] + lr.name[0] + sizeof(gs);
}
char LICENSE[] SEC("license") = "GPL";

// CHECK: [[P:r[0-9]]] = gr ll
// CHECK: = *(u32 *)([[P]] + 8)
// CHECK: += 137109
// CHECK: += 8364
// CHECK: += 122
