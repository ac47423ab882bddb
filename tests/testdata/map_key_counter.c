// Tests: a 4-byte counter passed by address as an array map's key, stored
// and loaded by the program, sits in its 8-byte word's upper half, as
// clang's layout puts a lone 4-byte object: there the verifier keeps no
// value for it. In the aligned half it was a constant the verifier marks
// precise for the array lookup, so the scan's states differed in every
// count and never pruned: over 1M instructions (bpf-developer-tutorial's
// 27-replace find_possible_addrs), where clang's object loads.
// RUN: socket
// PACKET: ipv4-udp dport=53 payload=64
// EXPECT: retval=1
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 512);
	__type(key, unsigned int);
	__type(value, unsigned long);
} found SEC(".maps");

SEC("socket")
int map_key_counter(struct __sk_buff *skb)
{
	unsigned char buf[64] = {};
	unsigned long where = 0;
	unsigned int counter = 0;

	for (unsigned int i = 0; i < 16; i++) {
		bpf_skb_load_bytes(skb, 0, buf, sizeof(buf));
		for (unsigned int j = 0; j < 64; j++) {
			if (buf[j] == 0x45) {
				where = i * 64 + j;
				bpf_map_update_elem(&found, &counter, &where, BPF_ANY);
				counter++;
			}
		}
	}
	return counter > 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: map_key_counter: (section socket,
// CHECK: *(u32 *)(r10 - 76) = 0
