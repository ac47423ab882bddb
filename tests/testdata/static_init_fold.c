// Tests: initializers of globals that clang folds although C does not call
// them constant expressions: reads of const globals, __builtin_bswap16 of a
// constant, and compound literals as elements of a static array.
// RUN: socket
// EXPECT: retval=0
// EXPECT-VAR: scaled=410
// EXPECT-VAR: ratio=15
// EXPECT-VAR: port_n=hex:1f90
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct pair { __u8 a; __u16 b; __s32 c; };

static const int beta = 717;
static const int scale = 41;
const volatile __u32 scaled = scale * 10;
const volatile __u32 ratio = 8 * (1024 + beta) / 3 / (1024 - beta);
__u16 port_n = __builtin_bswap16(8080);
static const __s64 neg = -scale > 0 ? 1 : -(scale << 2);
static struct pair pairs[] = {
	((struct pair){ .a = 1, .b = 2, .c = -3 }),
	((struct pair){ .c = 40, .a = 4 }),
	{ 7, 8, 9 },
};

SEC("socket")
int static_init_fold(struct __sk_buff *skb)
{
	volatile int i = 1;

	CHECK(1, scaled == 410 && ratio == 15);
	CHECK(2, port_n == 0x901f);
	CHECK(3, neg == -164);
	CHECK(4, pairs[0].a == 1 && pairs[0].b == 2 && pairs[0].c == -3);
	CHECK(5, pairs[i & 1].a == 4 && pairs[i & 1].b == 0 && pairs[i & 1].c == 40);
	CHECK(6, pairs[2].c == 9 && sizeof(pairs) == 24);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[A:[0-9]]] = scaled ll
// CHECK-NEXT: r[[A]] = *(u32 *)(r[[A]] + 0)
// CHECK-NEXT: if w[[A]] != 410 goto
// CHECK-NEXT: r[[A:[0-9]]] = ratio ll
// CHECK-NEXT: r[[A]] = *(u32 *)(r[[A]] + 0)
// CHECK-NEXT: if w[[A]] != 15 goto
// CHECK-NEXT: r[[A:[0-9]]] = port_n ll
// CHECK-NEXT: r[[A]] = *(u16 *)(r[[A]] + 0)
// CHECK-NEXT: if w[[A]] != 36895 goto
// CHECK-NEXT: r[[P:[0-9]]] = pairs ll
// CHECK-NEXT: r[[A:[0-9]]] = *(u8 *)(r[[P]] + 0)
// CHECK-NEXT: if w[[A]] != 1 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u16 *)(r[[P]] + 2)
// CHECK-NEXT: if w[[A]] != 2 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r[[P]] + 4)
// CHECK-NEXT: if w[[A]] != -3 goto
// CHECK: r[[I:[0-9]]] <<= 3
// CHECK: r[[A:[0-9]]] = *(u32 *)(r{{[0-9]}} + 4)
// CHECK-NEXT: if w[[A]] != 40 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r[[P]] + 20)
// CHECK-NEXT: if w[[A]] != 9 goto
// CHECK-NOT: r0 = 3
