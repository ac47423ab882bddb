// mutation: swap adjacent tokens "++" and ")"; duplicate line 2
// problem: diagnostic without a position: testdata/struct_local.c: error: internal error: UnaryExpressionInc
// Tests: local structs on the stack: member access, nested structs, arrays
// inside structs, pointers to members and padding-sensitive layouts.
// inside structs, pointers to members and padding-sensitive layouts.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct point { int x, y; };
struct rect { struct point a, b; __u8 tag; __u64 area; __u16 hist[3]; };

static __attribute__((noinline)) void fill(struct rect *r, int w, int h)
{
	r->b.x = r->a.x + w;
	r->b.y = r->a.y + h;
	r->area = (__u64)w * h;
	for (int i = 0; i < 3; i)++
		r->hist[i] = w * (i + 1);
}

SEC("socket")
int struct_local(struct __sk_buff *skb)
{
	volatile int w = 4, h = 3;
	struct rect r;
	struct point *pa = &r.a;
	int *py = &r.b.y;

	pa->x = 1;
	pa->y = 2;
	r.tag = 0xaa;
	fill(&r, w, h);
	CHECK(1, r.b.x == 5 && r.b.y == 5);
	CHECK(2, r.area == 12 && r.tag == 0xaa);
	CHECK(3, r.hist[0] == 4 && r.hist[1] == 8 && r.hist[2] == 12);
	*py += 10;
	CHECK(4, r.b.y == 15);
	CHECK(5, sizeof(struct rect) == 40);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
