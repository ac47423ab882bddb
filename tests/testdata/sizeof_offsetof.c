// Tests: sizeof of types, expressions and arrays; offsetof (via
// libbpf's offsetof macro, ((T *)0)->m, and __builtin_offsetof) including padding and nested members; alignment.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct s {
	char c;      /* 0 */
	int i;       /* 4 */
	short h;     /* 8 */
	long l;      /* 16 */
	struct { char x; short y; } in; /* 24: x 24, y 26 */
	char tail[3];                   /* 28 */
};

SEC("socket")
int sizeof_offsetof(struct __sk_buff *skb)
{
	struct s v;
	int arr[7];

	CHECK(1, offsetof(struct s, c) == 0 && offsetof(struct s, i) == 4);
	CHECK(2, offsetof(struct s, h) == 8 && offsetof(struct s, l) == 16);
	CHECK(3, offsetof(struct s, in.y) == 26 && offsetof(struct s, tail) == 28);
	CHECK(4, sizeof(struct s) == 32 && _Alignof(struct s) == 8);
	CHECK(5, sizeof(v.in) == 4 && sizeof arr == 28 && sizeof arr[0] == 4);
	CHECK(6, sizeof(v.tail) / sizeof(v.tail[0]) == 3);
	CHECK(7, (char *)&v.l - (char *)&v == 16);
	CHECK(8, __builtin_offsetof(struct s, in.x) == 24 && __builtin_offsetof(struct s, tail[2]) == 30);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: sizeof_offsetof: (section socket, 2 insns, stack 0)
// CHECK-NOT: r0 = {{[1-9]}}
// CHECK: r0 = 0
// CHECK-NEXT: exit
