// Tests: a packed enum is the smallest integer type holding its values
// (unsigned if none is negative), with the attribute after its closing
// brace or after "enum", as GCC and clang lay it out; its enumerators stay
// ints. beyla's HTTP/2 frame_header_t is 9 bytes only so ("enum
// specifier" parse error, and a 12-byte struct, before).
// sizeof: small_t 1, enum neg 1, struct hdr 5, A 4; both tests true:
// 1000 + 100 + 50 + 4 + 1 + 1.
// RUN: socket
// EXPECT: retval=1156
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

typedef enum { A = 1, B = 200 } __attribute__((packed)) small_t;
enum __attribute__((packed)) neg { N = -3, P = 100 };

struct hdr {
	__u32 len : 24;
	small_t type;
	__u8 flags;
} __attribute__((packed));

_Static_assert(sizeof(struct hdr) == 5, "packed enum in a packed struct");

SEC("socket")
int enum_packed(struct __sk_buff *skb)
{
	small_t t = B;
	enum neg n = N;

	return sizeof(small_t) * 1000 + sizeof(enum neg) * 100 + sizeof(struct hdr) * 10 + sizeof(A) + (t == B) + (n < 0);
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r0 = 1156
