// Tests: a packet pointer p + 14 + v, bounds-checked as q + 1 and then
// read, is one sum for the check and the read, as clang computes it: the
// check went through (v + p) + 15 and the read through another v + p at
// offset 14, which the verifier had not bounded ("invalid access to
// packet, off=14"; loxilb's GTP walk, after the copy q = nhl of the sum).
// RUN: load-only
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

SEC("tc")
int const_var_addr_check(struct __sk_buff *skb)
{
	unsigned char *p = (void *)(long)skb->data;
	void *dend = (void *)(long)skb->data_end;
	unsigned char *q;

	if (p + 1 > (unsigned char *)dend)
		return TC_ACT_SHOT;
	q = p + 14 + (*p & 0x3c);
	if (q + 1 > (unsigned char *)dend)
		return TC_ACT_SHOT;
	return *q;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: const_var_addr_check: (section tc,
