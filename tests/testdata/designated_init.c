// Tests: designated initialisers for structs, nested members and arrays;
// members and elements not named are zero.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct inner { __u8 a; __u32 b; };
struct outer {
	int x;
	struct inner in;
	__u16 arr[4];
	long tail;
};

SEC("socket")
int designated_init(struct __sk_buff *skb)
{
	volatile int seven = 7;
	struct outer o = { .in.b = 5, .tail = -1, .arr[2] = 9, .x = seven };
	int a[6] = { [4] = 40, [1] = 10, 11 };
	struct inner list[3] = { [1] = { .a = 1 }, [2].b = 2 };

	CHECK(1, o.x == 7 && o.in.a == 0 && o.in.b == 5);
	CHECK(2, o.arr[0] == 0 && o.arr[2] == 9 && o.arr[3] == 0 && o.tail == -1);
	CHECK(3, a[0] == 0 && a[1] == 10 && a[2] == 11 && a[3] == 0 && a[4] == 40 && a[5] == 0);
	CHECK(4, list[0].a == 0 && list[0].b == 0 && list[1].a == 1 && list[2].b == 2);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: *(u32 *)(r10 - 4) = r{{[0-9]}}
// CHECK: r[[V:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: if w[[V]] == 7 goto
// CHECK-NOT: r0 = {{[2-9]}}
// CHECK: r0 = 0
