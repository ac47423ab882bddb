// Tests: below v3, legalize's search for the extension a widened branch can
// make instead ran on liveness sets computed before it had made registers
// of its own, and read them out of range for one (retina's packetparser at
// -mcpu=v1, clang's default there: "internal compiler error: index out of
// range"). The shape: a noinline function inlining a struct-returning one,
// an if / else-if chain of two calls to one always-inline function, and a
// 3-way if / else-if in it.
// CPU: v1
// RUN: tc
// EXPECT: retval=1
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct pkt { __u16 flags; };
struct rep { _Bool report; };
struct key { __u8 proto; };
struct entry { __u32 evict; __u8 dir; __u8 seen; };

struct { __uint(type, BPF_MAP_TYPE_HASH); __type(key, struct key); __type(value, struct entry);
	     __uint(max_entries, 16); } ct SEC(".maps");

static __always_inline __u8 get_dir(__u8 obs)
{
	if (obs == 0 || obs == 3)
	    return 2;
	else if (obs == 1 || obs == 2)
	    return 1;
	return 0;
}

static __always_inline _Bool create(struct pkt *p, struct key k, __u8 obs)
{
	struct entry v = {};
	v.dir = get_dir(obs);
	bpf_map_update_elem(&ct, &k, &v, BPF_ANY);
	return 1;
}

static __always_inline _Bool handle_tcp(struct pkt *p, struct key k, struct key rk, __u8 obs)
{
	__u8 hs = p->flags & 0x12;
	if (hs == 0x02)
	    return create(p, k, obs);
	else if (hs == 0x12)
	    return create(p, rk, obs);
	return 0;
}

static __always_inline struct rep ct_process(struct pkt *p, __u8 obs)
{
	struct rep r = {};
	struct key k = { .proto = p->flags };
	struct key rk = { .proto = p->flags >> 8 };
	if (k.proto & 6)
	    r.report = handle_tcp(p, k, rk, obs);
	return r;
}

static __attribute__((noinline)) int parse(struct __sk_buff *skb, __u8 obs)
{
	struct pkt p = { .flags = skb->len };
	struct rep r = ct_process(&p, obs);
	if (r.report)
	    return 1;
	return 0;
}

SEC("tc")
int legalize_new_regs_v1(struct __sk_buff *skb)
{
	return parse(skb, 0);
}
char LICENSE[] SEC("license") = "GPL";

// CHECK: parse: (section .text,
// CHECK: call 2
// CHECK: legalize_new_regs_v1: (section tc,
// CHECK: call parse
