// Tests: local arrays: initialisation, indexing with variables (bounded),
// two-dimensional arrays, and arrays of structs.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct kv { __u16 k; __u32 v; };

SEC("socket")
int array_local(struct __sk_buff *skb)
{
	volatile unsigned int idx = 3;
	int a[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	int grid[3][4];
	struct kv kvs[4];
	int sum = 0;
	unsigned int i = idx & 7;

	CHECK(1, a[i] == 4 && a[7 - i] == 5);
	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 4; c++)
			grid[r][c] = r * 10 + c;
	CHECK(2, grid[2][3] == 23 && grid[1][0] == 10);
	CHECK(3, grid[i & 1][i] == 13);
	for (int k = 0; k < 4; k++) {
		kvs[k].k = k;
		kvs[k].v = k * k;
	}
	for (int k = 0; k < 4; k++)
		sum += kvs[k].v;
	CHECK(4, sum == 14 && kvs[i].v == 9);
	CHECK(5, sizeof(a) == 32 && sizeof(grid) == 48 && sizeof(kvs) == 32);
	a[i] = 40;
	CHECK(6, a[3] == 40);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: array_local: (section socket, {{[0-9]+}} insns, stack 88)
// CHECK: w[[I:[0-9]]] &= 7
// CHECK: r[[I2:[0-9]]] <<= 2
// CHECK: r{{[0-9]}} += r[[I2]]
// CHECK: if w{{[0-9]}} != 4 goto
