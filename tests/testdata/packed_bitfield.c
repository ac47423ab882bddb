// Tests: bit-fields of packed structs whose storage units are 3, 5, 6 or
// 7 bytes wide are read and written with loads and stores of 1, 2 and 4
// bytes combined, without touching the neighbouring fields; misaligned
// members of a packed struct on the stack are accessed in aligned pieces
// (the verifier rejects misaligned stack accesses).
// RUN: syscall
// PACKET: none
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct hdr {
	int kind : 3;
	long long seq : 40;
	short rest : 9;
} __attribute__((packed));

struct odd {
	char tag;
	unsigned int mid : 20;
	unsigned long long wide : 44;
} __attribute__((packed));

struct wire {
	char a;
	int b;
	short c;
	long long d;
} __attribute__((packed));

struct hdr gh = { .kind = -2, .seq = -123456789012LL, .rest = 200 };

SEC("syscall")
int packed_bitfield(void *ctx)
{
	volatile struct hdr h = { .kind = 3, .seq = 0x7fffffffffLL, .rest = -5 };
	volatile struct odd o = { .tag = 'x', .mid = 0xabcde, .wide = 0xfedcba98765ULL };

	if (h.kind != 3 || h.seq != 0x7fffffffffLL || h.rest != -5)
		return 1;
	h.seq = -1;
	if (h.kind != 3 || h.seq != -1 || h.rest != -5)
		return 2;
	h.seq = 0x123456789aLL;
	h.kind = -4;
	if (h.kind != -4 || h.seq != 0x123456789aLL || h.rest != -5)
		return 3;
	if (o.tag != 'x' || o.mid != 0xabcde || o.wide != 0xfedcba98765ULL)
		return 4;
	o.mid = 1;
	o.wide += 1;
	if (o.tag != 'x' || o.mid != 1 || o.wide != 0xfedcba98766ULL)
		return 5;
	{
		volatile struct wire w = { .a = 1, .b = -70000, .c = -3, .d = 0x1122334455667788LL };

		if (w.a != 1 || w.b != -70000 || w.c != -3 || w.d != 0x1122334455667788LL)
			return 8;
		w.b = 0x01020304;
		w.d = -2;
		if (w.a != 1 || w.b != 0x01020304 || w.c != -3 || w.d != -2)
			return 9;
	}
	if (gh.kind != -2 || gh.seq != -123456789012LL || gh.rest != 200)
		return 6;
	gh.rest = -256;
	if (gh.seq != -123456789012LL || gh.rest != -256)
		return 7;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
