// Tests: a never-written static pointer to a string literal folds to the
// string's address though the file has inline asm naming no variable
// (beyla's decode_hex with bpf_clamp_umax in the same unit: the pointer
// was loaded from .data, a scalar to the verifier: "R1 invalid mem access
// 'scalar'"). The map value is zeroes: tbl[0] is 5, the clamped 0 is 0.
// RUN: socket
// EXPECT: retval=5
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static unsigned char *tbl = (unsigned char *)"\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, unsigned char[16]);
	__uint(max_entries, 1);
} buf_mem SEC(".maps");

SEC("socket")
int static_ptr_fold_asm(struct __sk_buff *skb)
{
	int zero = 0;
	unsigned char *b = bpf_map_lookup_elem(&buf_mem, &zero);

	if (!b)
		return 0;
	unsigned long x = b[1];
	asm volatile("if %0 <= 3 goto +1\n%0 = 3\n" : "+r"(x));
	return tbl[b[0] & 0x0f] + x;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK-NOT: = tbl ll
// CHECK: = .str{{.*}} ll
