// Tests: callbacks passed to helpers (ld_imm64 BPF_PSEUDO_FUNC of a .text
// function): bpf_loop sums its indices through a context pointer and
// stops early when the callback returns 1; bpf_for_each_map_elem visits
// every element of an array map; a function address taken with & works
// like the bare name.
// RUN: syscall
// PACKET: none
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} vals SEC(".maps");

struct bpf_map;

struct loop_ctx {
	__u64 sum;
	__u32 stop_at;
};

static long add_index(__u32 i, void *data)
{
	struct loop_ctx *c = data;

	if (i == c->stop_at)
		return 1;
	c->sum += i;
	return 0;
}

static long add_value(struct bpf_map *map, __u32 *key, __u64 *val, void *data)
{
	*(__u64 *)data += *key * 100 + *val;
	return 0;
}

SEC("syscall")
int callbacks(void *ctx)
{
	struct loop_ctx c = { .sum = 0, .stop_at = 100 };
	__u64 total = 0;
	long n;

	n = bpf_loop(10, add_index, &c, 0);
	if (n != 10 || c.sum != 45)
		return 1;
	c.sum = 0;
	c.stop_at = 4;
	n = bpf_loop(10, &add_index, &c, 0);
	if (n != 5 || c.sum != 6)
		return 2;
	for (__u32 k = 0; k < 4; k++) {
		__u64 v = k + 1;
		__u32 key = k;

		bpf_map_update_elem(&vals, &key, &v, BPF_ANY);
	}
	n = bpf_for_each_map_elem(&vals, add_value, &total, 0);
	if (n != 4 || total != 600 + 10)
		return 3;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: add_index: (section .text,
// CHECK: add_value: (section .text,
// CHECK: callbacks: (section syscall,
// CHECK: r2 = add_index ll
// CHECK: ; bpf_loop
// CHECK: call 181
// CHECK: r2 = add_index ll
// CHECK: call 181
// CHECK: r2 = add_value ll
// CHECK: call 164
