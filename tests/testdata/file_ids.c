// Tests: clang's __FILE_NAME__; __builtin_strcmp of an always-inline
// helper's parameter with literals, folded once inlining binds it to a
// literal, so that __builtin_constant_p sees the result as a constant
// (tetragon's error metrics key on the file name so); a helper's value is
// its number ((__u64)bpf_map_lookup_elem is 1); a local helper pointer
// calls that helper (it called helper 0); __auto_type takes the
// initializer's type.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __always_inline int file_id(const char *const f)
{
	if (!__builtin_strcmp(f, "other.c"))
		return 1;
	if (!__builtin_strcmp("file_ids.c", f))
		return 2;
	return 0;
}

SEC("socket")
int file_ids(struct __sk_buff *skb)
{
	int id = file_id(__FILE_NAME__);

	if (!__builtin_constant_p(id))
		return 1;
	if (id != 2)
		return 2;
	if ((__u64)bpf_map_lookup_elem != 1)
		return 3;
	__u64 (*now)(void) = (void *)5; /* bpf_ktime_get_ns */
	__auto_type t = now();
	if (sizeof(t) != 8 || t == 0)
		return 4;
	__auto_type small = (char)-1;
	if (sizeof(small) != 1 || small >= 0)
		return 5;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: call 5
// CHECK-NOT: call
// CHECK: exit
