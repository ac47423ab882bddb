// Tests: in a string compare loop (`d = s1[i] - s2[i]; if (d || !s1[i])
// break;`) the test of s1[i] reuses the byte the difference loaded: the two
// reads compute their address separately, and once cse has made the
// addresses one register the second load is forwarded (loads3).
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char a[16] = "hello";
char b[16] = "help";

static __always_inline int cmp(const char *s1, const char *s2, unsigned int n)
{
	int d = 0;

	for (unsigned int i = 0; i < n; i++) {
		d = (unsigned char)s1[i] - (unsigned char)s2[i];
		if (d || !s1[i])
			break;
	}
	return d;
}

SEC("socket")
int strcmp_loop_loads(struct __sk_buff *skb)
{
	/* 'l' - 'p' */
	return cmp(a, b, skb->len & 15) == 'l' - 'p' || skb->len < 4 ? 0 : 1;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: strcmp_loop_loads: (section socket,
// CHECK: = *(u8 *)(r{{[0-9]}} + 0)
// CHECK: = *(u8 *)(r{{[0-9]}} + 0)
// CHECK-NOT: = *(u8 *)
// CHECK: exit
