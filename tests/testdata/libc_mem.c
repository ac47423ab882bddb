// Tests: plain memcpy, memmove, memset and memcmp calls with constant sizes,
// declared but not defined in the file, are clang's builtins: bpfcc expands
// them like the __builtin_ versions instead of calling an external function.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

void *memcpy(void *dst, const void *src, unsigned long n);
void *memmove(void *dst, const void *src, unsigned long n);
void *memset(void *dst, int c, unsigned long n);
int memcmp(const void *a, const void *b, unsigned long n);

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct pair { __u32 a, b; __u16 c; };

SEC("socket")
int libc_mem(struct __sk_buff *skb)
{
	struct pair x, y;
	__u8 buf[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	memset(&x, 0, sizeof(x));
	CHECK(1, x.a == 0 && x.b == 0 && x.c == 0);
	x.a = 7;
	x.c = 9;
	memcpy(&y, &x, sizeof(y));
	CHECK(2, y.a == 7 && y.b == 0 && y.c == 9);
	CHECK(3, memcmp(&x, &y, sizeof(x)) == 0);
	y.b = 1;
	CHECK(4, memcmp(&x, &y, sizeof(x)) < 0);
	memmove(&buf[1], &buf[0], 4);
	CHECK(5, buf[0] == 1 && buf[1] == 1 && buf[2] == 2 && buf[4] == 4 && buf[5] == 6);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: libc_mem: (section socket, 2 insns, stack 0)
// CHECK-NOT: call
// CHECK: r0 = 0
// CHECK-NEXT: exit
