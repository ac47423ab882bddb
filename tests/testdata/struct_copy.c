// Tests: struct assignment copies every byte, copies are independent, copy
// through pointers, and struct members that are arrays.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct rec {
	__u32 id;
	__u8 name[13];
	__u64 stamp;
};

static __attribute__((noinline)) void dup(struct rec *dst, const struct rec *src)
{
	*dst = *src;
	dst->id++;
}

SEC("socket")
int struct_copy(struct __sk_buff *skb)
{
	volatile __u32 id = 41;
	struct rec a = { .id = id, .name = "bpfcc-struct", .stamp = 0x1122334455667788ULL };
	struct rec b, c;

	b = a;
	b.name[0] = 'B';
	CHECK(1, b.id == 41 && b.stamp == a.stamp && b.name[11] == 't');
	CHECK(2, a.name[0] == 'b' && b.name[0] == 'B');
	dup(&c, &b);
	CHECK(3, c.id == 42 && b.id == 41 && c.name[0] == 'B' && c.name[12] == 0);
	CHECK(4, c.stamp == 0x1122334455667788ULL);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
