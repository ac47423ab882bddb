// Tests: extern __kconfig variables, which the loader fills in: an
// undefined symbol, DATASEC ".kconfig" in BTF and ld_imm64 relocations
// against it: LINUX_KERNEL_VERSION is this kernel's (6.x), CONFIG_HZ and
// CONFIG_BPF_SYSCALL come from its configuration. (__weak externs are
// compiled too, but cilium/ebpf cannot load them: compile_test.go.)
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern unsigned int LINUX_KERNEL_VERSION __kconfig;
extern int CONFIG_HZ __kconfig;
extern _Bool CONFIG_BPF_SYSCALL __kconfig;

SEC("socket")
int kconfig_extern(struct __sk_buff *skb)
{
	if (LINUX_KERNEL_VERSION < KERNEL_VERSION(6, 0, 0))
		return 1;
	if (CONFIG_HZ < 100 || CONFIG_HZ > 1000)
		return 2;
	if (!CONFIG_BPF_SYSCALL)
		return 3;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: [[P:r[0-9]]] = LINUX_KERNEL_VERSION ll
// CHECK-NEXT: = *(u32 *)([[P]] + 0)
// CHECK: [[P:r[0-9]]] = CONFIG_HZ ll
// CHECK-NEXT: = *(u32 *)([[P]] + 0)
// CHECK: [[P:r[0-9]]] = CONFIG_BPF_SYSCALL ll
// CHECK-NEXT: = *(u8 *)([[P]] + 0)
