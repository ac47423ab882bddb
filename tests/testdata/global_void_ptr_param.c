// Tests: a global function taking a pointer to void is inlined at its
// calls whatever its size: the verifier cannot check such an argument of
// a global function ("arg#0 reference type('UNKNOWN ') size cannot be
// determined": tracee's murmur32(const void *key, u32 len), called with a
// stack buffer). The function stays in the object for other callers.
// RUN: load-only
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define STEP(k) h = (h ^ p[(k) & 15]) * 0x01000193 + len; h ^= h >> 13;
#define STEP4(k) STEP(k) STEP(k + 1) STEP(k + 2) STEP(k + 3)

__u32 mix(const void *key, __u32 len)
{
	const unsigned char *p = key;
	__u32 h = 0x811c9dc5;

	STEP4(0) STEP4(4) STEP(8) STEP(9)
	return h;
}

SEC("socket")
int global_void_ptr_param(struct __sk_buff *skb)
{
	unsigned char buf[16] = {};

	bpf_skb_load_bytes(skb, 0, buf, sizeof(buf));
	return mix(buf, skb->len & 15) & 0xff;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: global_void_ptr_param: (section socket,
// CHECK-NOT: call mix
