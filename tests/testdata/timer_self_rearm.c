// Tests: a timer callback that passes its own address to
// bpf_timer_set_callback (re-arming itself) is not recursion: only calls
// make call cycles, a callback reference does not.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct elem {
	struct bpf_timer t;
	__u64 fired;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct elem);
} timers SEC(".maps");

static int rearm(void *map, __u32 *key, struct elem *e)
{
	e->fired++;
	if (e->fired < 3)
		bpf_timer_set_callback(&e->t, rearm);
	return 0;
}

SEC("socket")
int timer_self_rearm(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct elem *e = bpf_map_lookup_elem(&timers, &key);

	if (!e)
		return 1;
	bpf_timer_init(&e->t, &timers, 1 /* CLOCK_MONOTONIC */);
	if (bpf_timer_set_callback(&e->t, rearm) != 0)
		return 2;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: rearm: (section .text,
// CHECK: r2 = rearm ll
// CHECK-NEXT: ; bpf_timer_set_callback
// CHECK-NEXT: r1 = r3
// CHECK-NEXT: call 170
// CHECK: timer_self_rearm: (section socket,
// CHECK: call 169
// CHECK-NEXT: r2 = rearm ll
// CHECK-NEXT: ; bpf_timer_set_callback
// CHECK-NEXT: r1 = r{{[0-9]}}
// CHECK-NEXT: call 170
