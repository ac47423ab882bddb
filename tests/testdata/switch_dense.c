// Tests: a dense switch (consecutive cases, a jump-table candidate) over a
// value the compiler cannot know, in a loop over all cases.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

static __attribute__((noinline)) int dense(int v)
{
	switch (v) {
	case 0: return 11;
	case 1: return 22;
	case 2: return 33;
	case 3: return 44;
	case 4: return 55;
	case 5: return 66;
	case 6: return 77;
	case 7: return 88;
	default: return -1;
	}
}

SEC("socket")
int switch_dense(struct __sk_buff *skb)
{
	int sum = 0;

	for (int i = -1; i <= 8; i++)
		sum += dense(i);
	CHECK(1, sum == 11 + 22 + 33 + 44 + 55 + 66 + 77 + 88 - 2);
	CHECK(2, dense(3) == 44 && dense(100) == -1 && dense(-100) == -1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// dense is a tree of compares (no jump tables in BPF): every case's value
// is returned where its compare leads.
// CHECK: dense: (section .text,
// CHECK-NEXT: if w1 s>= 4 goto {{[+][0-9]+}} <[[HI:[0-9]+]]>
// CHECK-NEXT: if w1 == 0 goto {{[+][0-9]+}} <[[C0:[0-9]+]]>
// CHECK-NEXT: if w1 == 1 goto {{[+][0-9]+}} <[[C1:[0-9]+]]>
// CHECK-NEXT: if w1 == 2 goto {{[+][0-9]+}} <[[C2:[0-9]+]]>
// CHECK-NEXT: if w1 != 3 goto {{[+][0-9]+}} <[[DEF:[0-9]+]]>
// CHECK-NEXT: r0 = 44
// CHECK-NEXT: exit
// CHECK-NEXT: [[HI]]: if w1 == 4 goto {{[+][0-9]+}} <[[C4:[0-9]+]]>
// CHECK-NEXT: if w1 == 5 goto {{[+][0-9]+}} <[[C5:[0-9]+]]>
// CHECK-NEXT: if w1 == 6 goto {{[+][0-9]+}} <[[C6:[0-9]+]]>
// CHECK-NEXT: if w1 != 7 goto {{[+][0-9]+}} <[[DEF]]>
// CHECK-NEXT: r0 = 88
// CHECK-NEXT: exit
// CHECK-NEXT: [[C0]]: r0 = 11
// CHECK-NEXT: exit
// CHECK-NEXT: [[C1]]: r0 = 22
// CHECK-NEXT: exit
// CHECK-NEXT: [[C2]]: r0 = 33
// CHECK-NEXT: exit
// CHECK-NEXT: [[C4]]: r0 = 55
// CHECK-NEXT: exit
// CHECK-NEXT: [[C5]]: r0 = 66
// CHECK-NEXT: exit
// CHECK-NEXT: [[C6]]: r0 = 77
// CHECK-NEXT: exit
// CHECK-NEXT: [[DEF]]: r0 = -1
// CHECK-NEXT: exit
// CHECK: switch_dense: (section socket,
// CHECK-NEXT: r1 = -1
// CHECK-NEXT: call dense
// CHECK: r1 = 8
// CHECK-NEXT: call dense
// CHECK-NEXT: w[[S:[0-9]]] += w0
// CHECK-NEXT: if w[[S]] != 394 goto
