// Tests: a small global function is inlined at its calls as clang inlines
// it, measured as clang measures it: a packed struct's wider field, read
// and written here byte by byte, counts as one access (elastic's Varlen.h:
// a two-line setter counted 50 instructions and stayed a call, and the
// verifier, checking it as a global function, refused a pointer into a
// map value at a variable offset: "Caller passes invalid args").
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct hdr {
	__u32 n;
	__u64 size;
	char data[];
} __attribute__((packed));

struct fld {
	__u32 type;
	__u32 size;
	char data[];
} __attribute__((packed));

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, char[256]);
} buf SEC(".maps");

void fld_set_size(struct hdr *h, struct fld *f, __u64 size)
{
	h->size += size + sizeof(*f);
	f->size = size;
}

SEC("socket")
int global_packed_setter(struct __sk_buff *skb)
{
	int k = 0;
	struct hdr *h = bpf_map_lookup_elem(&buf, &k);
	struct fld *f;

	if (!h)
		return 1;
	h->n = 0;
	h->size = skb->len & 7;
	f = (struct fld *)&h->data[h->size & 63];
	fld_set_size(h, f, 8);
	if (h->size != (skb->len & 7) + 16 || f->size != 8)
		return 2;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: global_packed_setter:
// CHECK-NOT: call fld_set_size
// CHECK: exit
