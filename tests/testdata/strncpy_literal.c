// Tests: __builtin_strncpy and __builtin_strcpy of a string literal (also
// __FILE__) into a map value are stores of the literal's bytes, zero-padded
// to strncpy's size and cut at it, as clang expands them (parca-agent's
// error messages, also of __FUNCTION__; "builtin __builtin_strncpy is not
// supported" before).
// The value is filled with 0xff first, so a missing pad byte shows.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct msg {
	char path[40];
	char cls[6];
	char cut[4];
	char fn[20];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct msg);
} out SEC(".maps");

SEC("socket")
int strncpy_literal(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct msg *m = bpf_map_lookup_elem(&out, &k);
	volatile char *p;
	int bad = 0;

	if (!m)
		return -1;
	__builtin_memset(m, 0xff, sizeof(*m));
	__builtin_strncpy(m->path, __FILE__, sizeof(m->path));
	__builtin_strcpy(m->cls, "chunk");
	__builtin_strncpy(m->cut, "toolong", sizeof(m->cut));
	__builtin_strncpy(m->fn, __FUNCTION__, sizeof(m->fn));
	p = m->path;
	for (int i = 0; i < sizeof(__FILE__); i++)
		bad |= p[i] != __FILE__[i];
	for (int i = sizeof(__FILE__); i < sizeof(m->path); i++)
		bad |= p[i] != 0;
	p = m->cls;
	bad |= (p[0] != 'c') + (p[4] != 'k') + (p[5] != 0);
	p = m->cut;
	bad |= (p[0] != 't') + (p[3] != 'l');
	p = m->fn;
	bad |= (p[0] != 's') + (p[14] != 'l') + (p[15] != 0) + (p[19] != 0);
	return bad;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: strncpy_literal: (section socket,
// CHECK-NOT: call
// CHECK: call 1
// CHECK-NOT: call
