/*
 * bpf/bpf_tracing.h as bpfcc provides it when libbpf's headers are not
 * installed. Written for bpfcc; compatible in use with libbpf's header for
 * x86-64 (__TARGET_ARCH_x86, which bpfcc predefines on x86-64 hosts).
 *
 * PT_REGS_PARM1..6(ctx), PT_REGS_RC (return value), PT_REGS_RET (return
 * address slot: the stack pointer at function entry), PT_REGS_FP, PT_REGS_SP
 * and PT_REGS_IP read the registers a kprobe or uprobe saw, from its
 * struct pt_regs context. The field names depend on which struct pt_regs is
 * in scope: the kernel's (vmlinux.h or __KERNEL__: di, si, ax, ...) or the
 * user-space one of <asm/ptrace.h> (rdi, rsi, rax, ...).
 *
 * The _CORE variants read through bpf_probe_read_kernel, so they also work
 * on a struct pt_regs that is not the program's context (the one a syscall
 * wrapper receives, for example). bpfcc emits no CO-RE relocations yet: the
 * field offsets are those of the struct pt_regs the program was compiled
 * with, which for x86-64 are the same in every kernel.
 *
 * BPF_KPROBE, BPF_KRETPROBE, BPF_UPROBE, BPF_URETPROBE, BPF_KSYSCALL and
 * BPF_PROG define a handler with typed, named arguments:
 *
 *	SEC("kprobe/do_unlinkat")
 *	int BPF_KPROBE(do_unlinkat, int dfd, struct filename *name)
 *	{
 *		...
 *	}
 */
#ifndef __BPF_TRACING_H__
#define __BPF_TRACING_H__

#include "bpf_helpers.h"

#if defined(__TARGET_ARCH_x86) || (!defined(__TARGET_ARCH_s390) &&	\
	!defined(__TARGET_ARCH_arm) && !defined(__TARGET_ARCH_arm64) &&	\
	!defined(__TARGET_ARCH_mips) && !defined(__TARGET_ARCH_powerpc) && \
	!defined(__TARGET_ARCH_sparc) && !defined(__TARGET_ARCH_riscv) && \
	!defined(__TARGET_ARCH_arc) && !defined(__TARGET_ARCH_loongarch) && \
	defined(__x86_64__))
#define bpf_target_x86
#define bpf_target_defined
#endif

struct pt_regs;

#if defined(bpf_target_x86)

#if defined(__KERNEL__) || defined(__VMLINUX_H__)
/* The kernel's struct pt_regs. */
#define __PT_PARM1_REG di
#define __PT_PARM2_REG si
#define __PT_PARM3_REG dx
#define __PT_PARM4_REG cx
#define __PT_PARM5_REG r8
#define __PT_PARM6_REG r9
#define __PT_RET_REG sp
#define __PT_FP_REG bp
#define __PT_RC_REG ax
#define __PT_SP_REG sp
#define __PT_IP_REG ip
#else
/* The user-space struct pt_regs of <asm/ptrace.h>. */
#define __PT_PARM1_REG rdi
#define __PT_PARM2_REG rsi
#define __PT_PARM3_REG rdx
#define __PT_PARM4_REG rcx
#define __PT_PARM5_REG r8
#define __PT_PARM6_REG r9
#define __PT_RET_REG rsp
#define __PT_FP_REG rbp
#define __PT_RC_REG rax
#define __PT_SP_REG rsp
#define __PT_IP_REG rip
#endif

/* The syscall calling convention passes the fourth argument in r10. */
#define __PT_PARM4_SYSCALL_REG r10

/* Casts x to the struct pt_regs * the register names above belong to. */
#define __PT_REGS_CAST(x) ((struct pt_regs *)(x))

#define PT_REGS_PARM1(x) (__PT_REGS_CAST(x)->__PT_PARM1_REG)
#define PT_REGS_PARM2(x) (__PT_REGS_CAST(x)->__PT_PARM2_REG)
#define PT_REGS_PARM3(x) (__PT_REGS_CAST(x)->__PT_PARM3_REG)
#define PT_REGS_PARM4(x) (__PT_REGS_CAST(x)->__PT_PARM4_REG)
#define PT_REGS_PARM5(x) (__PT_REGS_CAST(x)->__PT_PARM5_REG)
#define PT_REGS_PARM6(x) (__PT_REGS_CAST(x)->__PT_PARM6_REG)
#define PT_REGS_RET(x) (__PT_REGS_CAST(x)->__PT_RET_REG)
#define PT_REGS_FP(x) (__PT_REGS_CAST(x)->__PT_FP_REG)
#define PT_REGS_RC(x) (__PT_REGS_CAST(x)->__PT_RC_REG)
#define PT_REGS_SP(x) (__PT_REGS_CAST(x)->__PT_SP_REG)
#define PT_REGS_IP(x) (__PT_REGS_CAST(x)->__PT_IP_REG)

/*
 * ___bpf_pt_read(x, reg) reads one register slot of *x with
 * bpf_probe_read_kernel, giving 0 if the read fails.
 */
#define ___bpf_pt_read(x, reg)						\
	({								\
		unsigned long ___v = 0;					\
		bpf_probe_read_kernel(&___v, sizeof(___v),		\
				      &__PT_REGS_CAST(x)->reg);		\
		___v;							\
	})

#define PT_REGS_PARM1_CORE(x) ___bpf_pt_read(x, __PT_PARM1_REG)
#define PT_REGS_PARM2_CORE(x) ___bpf_pt_read(x, __PT_PARM2_REG)
#define PT_REGS_PARM3_CORE(x) ___bpf_pt_read(x, __PT_PARM3_REG)
#define PT_REGS_PARM4_CORE(x) ___bpf_pt_read(x, __PT_PARM4_REG)
#define PT_REGS_PARM5_CORE(x) ___bpf_pt_read(x, __PT_PARM5_REG)
#define PT_REGS_PARM6_CORE(x) ___bpf_pt_read(x, __PT_PARM6_REG)
#define PT_REGS_RET_CORE(x) ___bpf_pt_read(x, __PT_RET_REG)
#define PT_REGS_FP_CORE(x) ___bpf_pt_read(x, __PT_FP_REG)
#define PT_REGS_RC_CORE(x) ___bpf_pt_read(x, __PT_RC_REG)
#define PT_REGS_SP_CORE(x) ___bpf_pt_read(x, __PT_SP_REG)
#define PT_REGS_IP_CORE(x) ___bpf_pt_read(x, __PT_IP_REG)

/* Syscall arguments, from the struct pt_regs the syscall entry saved. */
#define PT_REGS_PARM1_SYSCALL(x) PT_REGS_PARM1(x)
#define PT_REGS_PARM2_SYSCALL(x) PT_REGS_PARM2(x)
#define PT_REGS_PARM3_SYSCALL(x) PT_REGS_PARM3(x)
#define PT_REGS_PARM4_SYSCALL(x) (__PT_REGS_CAST(x)->__PT_PARM4_SYSCALL_REG)
#define PT_REGS_PARM5_SYSCALL(x) PT_REGS_PARM5(x)
#define PT_REGS_PARM6_SYSCALL(x) PT_REGS_PARM6(x)
#define PT_REGS_PARM1_CORE_SYSCALL(x) PT_REGS_PARM1_CORE(x)
#define PT_REGS_PARM2_CORE_SYSCALL(x) PT_REGS_PARM2_CORE(x)
#define PT_REGS_PARM3_CORE_SYSCALL(x) PT_REGS_PARM3_CORE(x)
#define PT_REGS_PARM4_CORE_SYSCALL(x) ___bpf_pt_read(x, __PT_PARM4_SYSCALL_REG)
#define PT_REGS_PARM5_CORE_SYSCALL(x) PT_REGS_PARM5_CORE(x)
#define PT_REGS_PARM6_CORE_SYSCALL(x) PT_REGS_PARM6_CORE(x)

/*
 * The struct pt_regs holding a syscall's arguments, from a kprobe on its
 * __x64_sys_* wrapper (x86-64 kernels have had wrappers since 4.17).
 */
#define PT_REGS_SYSCALL_REGS(ctx) ((struct pt_regs *)PT_REGS_PARM1(ctx))

/* The return address: at entry it is at the stack pointer, at return
 * (kretprobe) just above the frame pointer. */
#define BPF_KPROBE_READ_RET_IP(ip, ctx)					\
	({ bpf_probe_read_kernel(&(ip), sizeof(ip), (void *)PT_REGS_RET(ctx)); })
#define BPF_KRETPROBE_READ_RET_IP(ip, ctx)				\
	({ bpf_probe_read_kernel(&(ip), sizeof(ip),			\
				 (void *)(PT_REGS_FP(ctx) + sizeof(ip))); })

#else /* !bpf_target_x86 */

/*
 * Other architectures are not supported by this header: every use is a
 * compile-time error naming the cause. (libbpf's header, where installed,
 * supports them.)
 */
#define ___bpf_no_target() __bpfcc_error_bpf_tracing_h_supports_only___TARGET_ARCH_x86
#define PT_REGS_PARM1(x) ___bpf_no_target()
#define PT_REGS_PARM2(x) ___bpf_no_target()
#define PT_REGS_PARM3(x) ___bpf_no_target()
#define PT_REGS_PARM4(x) ___bpf_no_target()
#define PT_REGS_PARM5(x) ___bpf_no_target()
#define PT_REGS_PARM6(x) ___bpf_no_target()
#define PT_REGS_RET(x) ___bpf_no_target()
#define PT_REGS_FP(x) ___bpf_no_target()
#define PT_REGS_RC(x) ___bpf_no_target()
#define PT_REGS_SP(x) ___bpf_no_target()
#define PT_REGS_IP(x) ___bpf_no_target()
#define PT_REGS_PARM1_CORE(x) ___bpf_no_target()
#define PT_REGS_PARM2_CORE(x) ___bpf_no_target()
#define PT_REGS_PARM3_CORE(x) ___bpf_no_target()
#define PT_REGS_PARM4_CORE(x) ___bpf_no_target()
#define PT_REGS_PARM5_CORE(x) ___bpf_no_target()
#define PT_REGS_PARM6_CORE(x) ___bpf_no_target()
#define PT_REGS_RET_CORE(x) ___bpf_no_target()
#define PT_REGS_FP_CORE(x) ___bpf_no_target()
#define PT_REGS_RC_CORE(x) ___bpf_no_target()
#define PT_REGS_SP_CORE(x) ___bpf_no_target()
#define PT_REGS_IP_CORE(x) ___bpf_no_target()
#define PT_REGS_PARM1_SYSCALL(x) ___bpf_no_target()
#define PT_REGS_PARM2_SYSCALL(x) ___bpf_no_target()
#define PT_REGS_PARM3_SYSCALL(x) ___bpf_no_target()
#define PT_REGS_PARM4_SYSCALL(x) ___bpf_no_target()
#define PT_REGS_PARM5_SYSCALL(x) ___bpf_no_target()
#define PT_REGS_PARM1_CORE_SYSCALL(x) ___bpf_no_target()
#define PT_REGS_PARM2_CORE_SYSCALL(x) ___bpf_no_target()
#define PT_REGS_PARM3_CORE_SYSCALL(x) ___bpf_no_target()
#define PT_REGS_PARM4_CORE_SYSCALL(x) ___bpf_no_target()
#define PT_REGS_PARM5_CORE_SYSCALL(x) ___bpf_no_target()
#define PT_REGS_SYSCALL_REGS(ctx) ___bpf_no_target()
#define BPF_KPROBE_READ_RET_IP(ip, ctx) ___bpf_no_target()
#define BPF_KRETPROBE_READ_RET_IP(ip, ctx) ___bpf_no_target()

#endif /* bpf_target_x86 */

/*
 * BPF_PROG(name, args...) defines a handler for programs whose context is
 * an array of u64 arguments (fentry, fexit, tp_btf, raw_tp, ...).
 */
#define ___bpf_ctx_cast0()            ctx
#define ___bpf_ctx_cast1(x)           ___bpf_ctx_cast0(), (void *)ctx[0]
#define ___bpf_ctx_cast2(x, ...)  ___bpf_ctx_cast1(__VA_ARGS__), (void *)ctx[1]
#define ___bpf_ctx_cast3(x, ...)  ___bpf_ctx_cast2(__VA_ARGS__), (void *)ctx[2]
#define ___bpf_ctx_cast4(x, ...)  ___bpf_ctx_cast3(__VA_ARGS__), (void *)ctx[3]
#define ___bpf_ctx_cast5(x, ...)  ___bpf_ctx_cast4(__VA_ARGS__), (void *)ctx[4]
#define ___bpf_ctx_cast6(x, ...)  ___bpf_ctx_cast5(__VA_ARGS__), (void *)ctx[5]
#define ___bpf_ctx_cast7(x, ...)  ___bpf_ctx_cast6(__VA_ARGS__), (void *)ctx[6]
#define ___bpf_ctx_cast8(x, ...)  ___bpf_ctx_cast7(__VA_ARGS__), (void *)ctx[7]
#define ___bpf_ctx_cast9(x, ...)  ___bpf_ctx_cast8(__VA_ARGS__), (void *)ctx[8]
#define ___bpf_ctx_cast10(x, ...) ___bpf_ctx_cast9(__VA_ARGS__), (void *)ctx[9]
#define ___bpf_ctx_cast11(x, ...) ___bpf_ctx_cast10(__VA_ARGS__), (void *)ctx[10]
#define ___bpf_ctx_cast12(x, ...) ___bpf_ctx_cast11(__VA_ARGS__), (void *)ctx[11]
#define ___bpf_ctx_cast(...) \
	___bpf_apply(___bpf_ctx_cast, ___bpf_narg(__VA_ARGS__))(__VA_ARGS__)

#define BPF_PROG(name, ...)						\
name(unsigned long long *ctx);						\
static __always_inline typeof(name(0))					\
____##name(unsigned long long *ctx, ##__VA_ARGS__);				\
typeof(name(0)) name(unsigned long long *ctx)				\
{									\
	return ____##name(___bpf_ctx_cast(__VA_ARGS__));			\
}									\
static __always_inline typeof(name(0))					\
____##name(unsigned long long *ctx, ##__VA_ARGS__)

/*
 * BPF_KPROBE(name, args...) defines a kprobe handler name(struct pt_regs
 * *ctx) whose body sees the probed function's first arguments (up to 5, as
 * libbpf) under the given names and types; ctx stays available.
 */
#define ___bpf_kprobe_args0()           ctx
#define ___bpf_kprobe_args1(x)          ___bpf_kprobe_args0(), (void *)PT_REGS_PARM1(ctx)
#define ___bpf_kprobe_args2(x, ...) ___bpf_kprobe_args1(__VA_ARGS__), (void *)PT_REGS_PARM2(ctx)
#define ___bpf_kprobe_args3(x, ...) ___bpf_kprobe_args2(__VA_ARGS__), (void *)PT_REGS_PARM3(ctx)
#define ___bpf_kprobe_args4(x, ...) ___bpf_kprobe_args3(__VA_ARGS__), (void *)PT_REGS_PARM4(ctx)
#define ___bpf_kprobe_args5(x, ...) ___bpf_kprobe_args4(__VA_ARGS__), (void *)PT_REGS_PARM5(ctx)
#define ___bpf_kprobe_args6(x, ...) ___bpf_kprobe_args5(__VA_ARGS__), (void *)PT_REGS_PARM6(ctx)
#define ___bpf_kprobe_args(...) \
	___bpf_apply(___bpf_kprobe_args, ___bpf_narg(__VA_ARGS__))(__VA_ARGS__)

#define BPF_KPROBE(name, ...)					\
name(struct pt_regs *ctx);						\
static __always_inline typeof(name(0))					\
____##name(struct pt_regs *ctx, ##__VA_ARGS__);				\
typeof(name(0)) name(struct pt_regs *ctx)				\
{									\
	return ____##name(___bpf_kprobe_args(__VA_ARGS__));			\
}									\
static __always_inline typeof(name(0))					\
____##name(struct pt_regs *ctx, ##__VA_ARGS__)

/*
 * BPF_KRETPROBE(name, ret) defines a kretprobe handler whose body sees the
 * return value as ret (optional). The arguments are gone by then.
 */
#define ___bpf_kretprobe_args0()  ctx
#define ___bpf_kretprobe_args1(x) ___bpf_kretprobe_args0(), (void *)PT_REGS_RC(ctx)
#define ___bpf_kretprobe_args(...) \
	___bpf_apply(___bpf_kretprobe_args, ___bpf_narg(__VA_ARGS__))(__VA_ARGS__)

#define BPF_KRETPROBE(name, ...)					\
name(struct pt_regs *ctx);						\
static __always_inline typeof(name(0))					\
____##name(struct pt_regs *ctx, ##__VA_ARGS__);				\
typeof(name(0)) name(struct pt_regs *ctx)				\
{									\
	return ____##name(___bpf_kretprobe_args(__VA_ARGS__));			\
}									\
static __always_inline typeof(name(0))					\
____##name(struct pt_regs *ctx, ##__VA_ARGS__)

/* User-space probes see the same struct pt_regs. */
#define BPF_UPROBE(name, ...) BPF_KPROBE(name, ##__VA_ARGS__)
#define BPF_URETPROBE(name, ...) BPF_KRETPROBE(name, ##__VA_ARGS__)

/*
 * BPF_KSYSCALL(name, args...) defines a kprobe handler for a syscall's
 * __x64_sys_* wrapper whose body sees the syscall's arguments: they are read
 * from the struct pt_regs the wrapper receives.
 */
#define ___bpf_syswrap_args0()           ctx
#define ___bpf_syswrap_args1(x)          ___bpf_syswrap_args0(), (void *)PT_REGS_PARM1_CORE_SYSCALL(regs)
#define ___bpf_syswrap_args2(x, ...) ___bpf_syswrap_args1(__VA_ARGS__), (void *)PT_REGS_PARM2_CORE_SYSCALL(regs)
#define ___bpf_syswrap_args3(x, ...) ___bpf_syswrap_args2(__VA_ARGS__), (void *)PT_REGS_PARM3_CORE_SYSCALL(regs)
#define ___bpf_syswrap_args4(x, ...) ___bpf_syswrap_args3(__VA_ARGS__), (void *)PT_REGS_PARM4_CORE_SYSCALL(regs)
#define ___bpf_syswrap_args5(x, ...) ___bpf_syswrap_args4(__VA_ARGS__), (void *)PT_REGS_PARM5_CORE_SYSCALL(regs)
#define ___bpf_syswrap_args(...) \
	___bpf_apply(___bpf_syswrap_args, ___bpf_narg(__VA_ARGS__))(__VA_ARGS__)

#define BPF_KSYSCALL(name, ...)					\
name(struct pt_regs *ctx);						\
static __always_inline typeof(name(0))					\
____##name(struct pt_regs *ctx, ##__VA_ARGS__);				\
typeof(name(0)) name(struct pt_regs *ctx)				\
{									\
	struct pt_regs *regs = PT_REGS_SYSCALL_REGS(ctx);		\
	return ____##name(___bpf_syswrap_args(__VA_ARGS__));			\
}									\
static __always_inline typeof(name(0))					\
____##name(struct pt_regs *ctx, ##__VA_ARGS__)

#define BPF_KPROBE_SYSCALL BPF_KSYSCALL

#endif /* __BPF_TRACING_H__ */
