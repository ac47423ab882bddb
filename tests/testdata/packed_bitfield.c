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

// CHECK: packed_bitfield: (section syscall,
// CHECK-NOT: *(u16 *)(r10 - {{[0-9]*[13579]}})
// CHECK-NOT: *({{u32|u64}} *)(r10 - {{([0-9]*[13579]|[0-9]*[02468][26]|[0-9]*[13579][048]|[26])}})
// CHECK: r[[L:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: r[[H:[0-9]]] = *(u16 *)(r10 - 4)
// CHECK-NEXT: r[[H]] <<= 32
// CHECK-NEXT: r[[L]] |= r[[H]]
// CHECK-NOT: *(u16 *)(r10 - {{[0-9]*[13579]}})
// CHECK-NOT: *({{u32|u64}} *)(r10 - {{([0-9]*[13579]|[0-9]*[02468][26]|[0-9]*[13579][048]|[26])}})
// CHECK: *(u64 *)(r10 - 40) = r{{[0-9]}}
// CHECK-NEXT: *(u32 *)(r10 - 32) = 1146447479
// CHECK-NEXT: *(u16 *)(r10 - 28) = 8755
// CHECK-NEXT: *(u8 *)(r10 - 26) = 17
// CHECK-NOT: *(u16 *)(r10 - {{[0-9]*[13579]}})
// CHECK-NOT: *({{u32|u64}} *)(r10 - {{([0-9]*[13579]|[0-9]*[02468][26]|[0-9]*[13579][048]|[26])}})
// CHECK: r[[G:[0-9]]] = gh ll
// CHECK-NEXT: r[[K:[0-9]]] = *(u8 *)(r[[G]] + 0)
// CHECK-NEXT: r[[K]] <<= 61
// CHECK-NEXT: r[[K]] s>>= 61
// CHECK-NEXT: if w[[K]] != -2 goto
// CHECK-NEXT: r[[G:[0-9]]] = gh ll
// CHECK-NEXT: r[[L:[0-9]]] = *(u32 *)(r[[G]] + 0)
// CHECK-NEXT: r[[H:[0-9]]] = *(u16 *)(r[[G]] + 4)
// CHECK-NEXT: r[[H]] <<= 32
// CHECK-NEXT: r[[L]] |= r[[H]]
// CHECK-NEXT: r[[L]] <<= 21
// CHECK-NEXT: r[[L]] s>>= 24
// CHECK-NEXT: r[[C:[0-9]]] = -123456789012 ll
// CHECK-NEXT: if r[[L]] != r[[C]] goto
// CHECK-NEXT: r[[R:[0-9]]] = *(u16 *)(r[[G]] + 5)
// CHECK: r[[R]] &= -4089
// CHECK-NEXT: r[[R]] |= 2048
// CHECK-NEXT: *(u16 *)(r[[G]] + 5) = r[[R]]
