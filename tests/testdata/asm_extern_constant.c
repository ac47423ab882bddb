// Tests: inline asm that loads a symbol the file does not define
// (`%0 = name ll`) leaves an undefined symbol and an R_BPF_64_64
// relocation, as clang's assembler does; a loader patches the constant
// (datadog-agent's LOAD_CONSTANT: "not a function, map or global"
// before, every one of its programs). A name that is also an always_inline
// static function's, which clang never emits, is such a symbol too: bpfcc
// loaded that function's code address and emitted it out of line (a
// program the kernel refused). cilium/ebpf leaves the constant 0.
// RUN: socket
// EXPECT: retval=0
// CLANG-BPFTOOL: skip libbpf refuses an undefined symbol without BTF
// BPFTOOL: skip libbpf refuses an undefined symbol without BTF (datadog's loader patches it)
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define LOAD_CONSTANT(param, var) asm("%0 = " param " ll" : "=r"(var))

static __always_inline int stats_enabled(void)
{
	unsigned long long val = 0;

	LOAD_CONSTANT("stats_enabled", val);
	return val == 1;
}

SEC("socket")
int asm_extern_constant(struct __sk_buff *skb)
{
	unsigned long long rb = 1;

	LOAD_CONSTANT("ringbuffer_enabled", rb);
	return rb + stats_enabled();
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: asm_extern_constant: (section socket,
// CHECK-NOT: call
