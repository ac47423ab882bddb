// Tests: structs passed to and filled in by bpf-to-bpf calls through
// pointers into the caller's stack, and a callee returning a status.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct stats { __u64 min, max, sum; __u32 count; };

static __attribute__((noinline)) void add(struct stats *s, __u64 v)
{
	if (s->count == 0 || v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	s->sum += v;
	s->count++;
}

static __attribute__((noinline)) int mean(const struct stats *s, __u64 *out)
{
	if (!s->count)
		return -1;
	*out = s->sum / s->count;
	return 0;
}

SEC("socket")
int struct_ptr_args(struct __sk_buff *skb)
{
	struct stats s = {};
	__u64 m = 0;

	CHECK(1, mean(&s, &m) == -1);
	for (__u64 v = 3; v < 30; v += 6)
		add(&s, v);
	CHECK(2, s.count == 5 && s.min == 3 && s.max == 27 && s.sum == 75);
	CHECK(3, mean(&s, &m) == 0 && m == 15);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
