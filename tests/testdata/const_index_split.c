// Tests: buf[n - 1], n known only to be in [0, 64], stores through
// buf + n with -1 in the store's offset, as clang splits the constant off
// the index: buf + (n - 1) has an unsigned range up to 2^64-1 to the
// verifier, which refused the store as an "unbounded memory access"
// (elastic/ebpf's ebpf_env__fill, buf[size - 1] = '\0').
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=7
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct rec {
	__u64 hdr;
	char data[64];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct rec);
} recs SEC(".maps");

SEC("socket")
int const_index_split(struct __sk_buff *skb)
{
	int k = 0;
	struct rec *r = bpf_map_lookup_elem(&recs, &k);
	char *buf;
	unsigned long n;

	if (!r)
		return 0;
	buf = r->data;
	n = skb->len;
	n = n > 64 ? 64 : n;
	buf[n - 1] = 7;
	return buf[n - 1];
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: const_index_split: (section socket,
// CHECK: r[[B:[0-9]]] += r{{[0-9]}}
// CHECK-NEXT: *(u8 *)(r[[B]] - 1) = 7
