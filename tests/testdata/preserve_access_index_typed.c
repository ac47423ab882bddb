// Tests: __builtin_preserve_access_index(x) has x's type, as clang's
// type-generic builtin: its value initialises a pointer, is dereferenced
// with ->, and names a type through typeof (tetragon's read_exe: "incompatible
// integer to pointer conversion" before, the call typed int). The types
// are the kernel's, so that the loader resolves the relocations.
// RUN: socket
// EXPECT: retval=14
#include <linux/bpf.h>
#include <linux/in.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct sockaddr_in);
} addrs SEC(".maps");

SEC("socket")
int preserve_access_index_typed(void *ctx)
{
	int k = 0;
	struct sockaddr_in *s = bpf_map_lookup_elem(&addrs, &k);

	if (!s)
		return 0;
	s->sin_addr.s_addr = 7;
	struct in_addr *a = __builtin_preserve_access_index(&s->sin_addr);
	typeof(__builtin_preserve_access_index(&s->sin_addr)) b = a;
	return __builtin_preserve_access_index(&s->sin_addr)->s_addr + b->s_addr;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: CO-RE <byte_off> struct sockaddr_in::sin_addr
