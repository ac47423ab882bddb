// Tests: __builtin_bswapN of a constant is a constant expression, as clang
// folds it: in case labels (bpf_endian.h's __bpf_htons) and global
// initialisers; of a variable it is the byte swap instruction, of the
// builtin's type. __builtin_choose_expr evaluates only the chosen operand,
// a statement expression included, and has its type.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

__u16 g16 = __builtin_bswap16(0x1234);
__u32 g32 = __bpf_htonl(0x11223344);
__u64 g64 = __builtin_bswap64(0x0102030405060708ULL);
int evaluated;

_Static_assert(sizeof(__builtin_bswap16(g16)) == 2 && sizeof(__builtin_bswap32(1)) == 4, "types");
_Static_assert(sizeof(__builtin_choose_expr(1, (char)0, 0L)) == 1, "choose_expr type");

static __attribute__((noinline)) int proto(__u16 p)
{
	switch (p) {
	case __bpf_htons(0x0800):
		return 4;
	case bpf_htons(0x86dd):
		return 6;
	}
	return 0;
}

SEC("socket")
int bswap_const_choose(struct __sk_buff *skb)
{
	volatile __u32 v = 0xa1b2c3d4;
	long r;

	CHECK(1, g16 == 0x3412 && g32 == 0x44332211 && g64 == 0x0807060504030201ULL);
	CHECK(2, proto(0x0008) == 4 && proto(0xdd86) == 6 && proto(0x0800) == 0);
	CHECK(3, __builtin_bswap32(v) == 0xd4c3b2a1 && __builtin_bswap16((__u16)v) == 0xd4c3);
	r = __builtin_choose_expr(sizeof(v) == 4, ({ evaluated += 1; (long)v; }), ({ evaluated += 10; 0L; }));
	CHECK(4, r == 0xa1b2c3d4 && evaluated == 1);
	__builtin_choose_expr(sizeof(v) == 8, (void)(evaluated += 100), (void)(evaluated += 2));
	CHECK(5, evaluated == 3);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: proto: (section .text,
// CHECK: bswap_const_choose: (section socket,
// CHECK-NOT: be64
// CHECK: r{{[0-9]}} = be32 r{{[0-9]}}
// CHECK: r{{[0-9]}} = be16 r{{[0-9]}}
