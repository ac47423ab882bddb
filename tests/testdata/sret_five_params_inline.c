// Tests: a static always-inline function returning a struct by value with
// 5 parameters (its result pointer would be a sixth argument) is inlined,
// as one of more than 5 parameters is; clang compiles it (retina's
// _ct_should_report_packet). bpfcc refused it as a BPF call it never is.
// CPU: v1
// RUN: tc
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct rep { __u32 a, b; __u32 flags[9]; _Bool report; };

struct { __uint(type, BPF_MAP_TYPE_HASH); __type(key, __u32); __type(value, __u64);
	     __uint(max_entries, 16); } m SEC(".maps");

static __always_inline struct rep report_pkt(__u32 *key, __u64 *entry, __u8 flags,
	                                          __u8 dir, __u32 bytes)
{
	struct rep r;
	__builtin_memset(&r, 0, sizeof(r));
	if (!entry || !key)
	    return r;
	r.a = bytes + dir;
	r.b = flags;
	r.report = *entry > bytes;
	return r;
}

SEC("tc")
int sret_five_params_inline(struct __sk_buff *skb)
{
	__u32 k = skb->len;
	__u64 *e = bpf_map_lookup_elem(&m, &k);
	struct rep r = report_pkt(&k, e, skb->mark, 1, skb->len);
	return r.report ? r.a : 0;
}
char LICENSE[] SEC("license") = "GPL";

// CHECK: sret_five_params_inline: (section tc,
// CHECK-NOT: call report_pkt
