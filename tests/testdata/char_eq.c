// Tests: chars only compared for (in)equality are loaded zero-extended,
// with no shifts to sign-extend them (`a[i] != b[i]`, `!a[i]`), and a
// char of a stack buffer a helper filled is loaded once for both tests.
// RUN: socket
// EXPECT: retval=0
// ASM: -"s>>= 56"
// ASM: "if w1 == 255 goto"
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char name[8] = "cubic";
char other[8] = "cubiX";

static int eq(const char *a, const char *b)
{
	for (int i = 0; i < 8; i++) {
		if (a[i] != b[i])
			return 0;
		if (!a[i])
			break;
	}
	return 1;
}

SEC("socket")
int char_eq(struct __sk_buff *skb)
{
	char buf[8];

	if (bpf_probe_read_kernel(buf, sizeof(buf), name))
		return 1;
	if (!eq(buf, name))
		return 2;
	if (eq(buf, other))
		return 3;
	buf[1] = -1;
	if (buf[1] != -1)
		return 4;
	return 0;
}

char _license[] SEC("license") = "GPL";

// CHECK-NOT: s>>=
// CHECK: call 113
// CHECK: r[[A:[0-9]]] = *(u8 *)(r10 - 8)
// CHECK-NEXT: r[[B:[0-9]]] = name ll
// CHECK-NEXT: r[[C:[0-9]]] = *(u8 *)(r[[B]] + 0)
// CHECK-NEXT: if w[[A]] != w[[C]] goto
// CHECK-NEXT: if w[[A]] == 0 goto
// CHECK-NEXT: r[[A]] = *(u8 *)(r10 - 7)
// CHECK-NEXT: r[[C]] = *(u8 *)(r[[B]] + 1)
// CHECK-NEXT: if w[[A]] != w[[C]] goto
// CHECK: r[[A:[0-9]]] = *(u8 *)(r10 - 8)
// CHECK-NEXT: r[[B:[0-9]]] = other ll
// CHECK-NEXT: r[[C:[0-9]]] = *(u8 *)(r[[B]] + 0)
// CHECK-NEXT: if w[[A]] != w[[C]] goto
// CHECK-NEXT: if w[[A]] == 0 goto
// CHECK: *(u8 *)(r10 - 7) = r{{[0-9]}}
// CHECK-NEXT: r[[C:[0-9]]] = *(u8 *)(r10 - 7)
// CHECK-NEXT: if w[[C]] == 255 goto
