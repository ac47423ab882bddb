// Tests: a byte-aligned struct returned by value from an inlined function
// is copied in words, not bytes: once promote removes the object in
// between, every byte was loaded before any was stored, 64 registers live
// at once and spilled (tracee's get_unix_sock_addr returns a 110-byte
// sockaddr_un: frames of 648-696 bytes where clang's are 256-272).
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=69
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct blob {
	char b[64];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct blob);
} blobs SEC(".maps");

static __always_inline struct blob head(struct __sk_buff *skb)
{
	struct blob s = {};

	bpf_skb_load_bytes(skb, 0, &s, 20);
	return s;
}

SEC("socket")
int struct_return_copy(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct blob s = head(skb);

	bpf_map_update_elem(&blobs, &k, &s, BPF_ANY);
	return s.b[0]; /* IPv4, header of 5 words: 0x45 */
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: struct_return_copy: (section socket, {{[0-9][0-9]}} insns,
// CHECK: r[[W:[0-9]]] = *(u64 *)(r10 - {{[0-9]+}})
// CHECK-NEXT: *(u64 *)(r10 - {{[0-9]+}}) = r[[W]]
