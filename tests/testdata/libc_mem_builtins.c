// Tests: calls of memcpy, memset, memmove and memcmp that the program
// declares (as <string.h> does) but does not define are the builtins, as
// with clang's -fbuiltin: expanded inline for constant sizes.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

void *memcpy(void *dst, const void *src, unsigned long n);
void *memmove(void *dst, const void *src, unsigned long n);
void *memset(void *s, int c, unsigned long n);
int memcmp(const void *a, const void *b, unsigned long n);

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct rec {
	__u32 id;
	__u8 tag[12];
};

SEC("socket")
int libc_mem_builtins(struct __sk_buff *skb)
{
	struct rec a, b;
	__u8 buf[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	memset(&a, 0x5a, sizeof(a));
	CHECK(1, a.id == 0x5a5a5a5a && a.tag[11] == 0x5a);
	memcpy(&b, &a, sizeof(b));
	CHECK(2, memcmp(&a, &b, sizeof(a)) == 0);
	b.tag[3] = 0x5b;
	CHECK(3, memcmp(&a, &b, sizeof(a)) < 0);
	memmove(buf + 2, buf, 4);
	CHECK(4, buf[2] == 1 && buf[5] == 4 && buf[6] == 7);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: libc_mem_builtins: (section socket, 2 insns, stack 0)
// CHECK-NOT: call
// CHECK: r0 = 0
// CHECK-NEXT: exit
