// Tests: a volatile int counter in an open-coded iterator loop keeps its C
// size and alignment on the stack (the upper half of an 8-byte slot, as
// clang places it), so the verifier keeps no value for it and the loop's
// states converge. In an 8-byte slot of its own the verifier tracked it as
// a constant, every iteration's state differed, and loading failed at
// 1,000,000 processed instructions (selftests' verifier_bits_iter.c).
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_iter_num {
	__u64 __opaque[1];
} __attribute__((aligned(8)));

extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __weak __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __weak __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __weak __ksym;

SEC("socket")
int volatile_iter_counter(struct __sk_buff *skb)
{
	struct bpf_iter_num it;
	volatile int nr = 0;
	int *v;

	bpf_iter_num_new(&it, 0, 7);
	while ((v = bpf_iter_num_next(&it)))
		nr++;
	bpf_iter_num_destroy(&it);
	return nr == 7 ? 0 : 1;
}
// The counter is a 4-byte object below the 8-byte iterator: fp-12.
// ASM: "*(u32 *)(r10 - 12) = 0"

char LICENSE[] SEC("license") = "GPL";

// CHECK: volatile_iter_counter: (section socket, {{[0-9]+}} insns, stack 16)
// CHECK-NEXT: *(u32 *)(r10 - 12) = 0
// CHECK-NEXT: r1 = r10
// CHECK-NEXT: r1 += -8
// CHECK: call bpf_iter_num_new
// CHECK-NEXT: [[L:[0-9]+]]: r1 = r10
// CHECK-NEXT: r1 += -8
// CHECK-NEXT: ; bpf_iter_num_next
// CHECK-NEXT: call bpf_iter_num_next
// CHECK-NEXT: if r0 == 0 goto
// CHECK-NEXT: r[[N:[0-9]]] = *(u32 *)(r10 - 12)
// CHECK-NEXT: w[[N]] += 1
// CHECK-NEXT: *(u32 *)(r10 - 12) = r[[N]]
// CHECK-NEXT: goto -{{[0-9]+}} <[[L]]>
// CHECK: call bpf_iter_num_destroy
// CHECK-NEXT: r[[N:[0-9]]] = *(u32 *)(r10 - 12)
// CHECK-NEXT: if w[[N]] != 7 goto
