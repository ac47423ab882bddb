// Tests: a call of memset or memcpy is clang's builtin even where the file
// defines the function (-fbuiltin is clang's default): l3af's ipfix
// exporter defines a memset that stops at the first zero byte, and the
// program, calling it on an uninitialised struct, was refused ("invalid
// read from stack"). The definitions here do nothing: called, the struct
// would keep its 7s and 9s; the builtins zero it and copy 5 into b.
// RUN: socket
// EXPECT: retval=5
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

void *memset(void *s, int c, unsigned long n)
{
	return s;
}

void *memcpy(void *d, const void *s, unsigned long n)
{
	return d;
}

struct rec {
	long a, b, c;
};

SEC("socket")
int libc_builtin_defined(struct __sk_buff *skb)
{
	volatile struct rec r = {7, 9, 7};
	long five = 5;

	memset((void *)&r, 0, sizeof(r));
	memcpy((void *)&r.b, &five, sizeof(five));
	return r.a + r.b + r.c;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: libc_builtin_defined: (section socket,
// CHECK: *(u64 *)(r10 - {{[0-9]+}}) = 0
// CHECK: *(u64 *)(r10 - {{[0-9]+}}) = 5
