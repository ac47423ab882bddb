/*
 * bpf/bpf_helpers.h as bpfcc provides it when libbpf's headers are not
 * installed. Written for bpfcc; compatible in use with libbpf's header of the
 * same name: the same macro names, arguments and meaning.
 *
 * Include <linux/types.h> (or vmlinux.h) first: the helper prototypes use
 * __u32, __u64 and friends.
 */
#ifndef __BPF_HELPERS__
#define __BPF_HELPERS__

#include "bpf_helper_defs.h"

/*
 * BTF-defined map attributes, for a struct in SEC(".maps"):
 *
 *	struct {
 *		__uint(type, BPF_MAP_TYPE_HASH);
 *		__uint(max_entries, 1024);
 *		__type(key, __u32);
 *		__type(value, __u64);
 *	} counts SEC(".maps");
 *
 * An integer attribute is encoded in the array size of a pointer member, a
 * type attribute in the pointee type, as libbpf reads them from BTF.
 * __ulong carries values that do not fit an int (map_extra) in an enum.
 */
#define __uint(name, val) int (*name)[val]
#define __type(name, val) typeof(val) *name
#define __array(name, val) typeof(val) *name[]
#define __ulong(name, val) enum { ___bpf_concat(__unique_value, __COUNTER__) = val } name

/* SEC places a function or variable in the named ELF section. */
#define SEC(name) __attribute__((section(name), used))

/* Always inline, whatever linux/stddef.h said before. */
#undef __always_inline
#define __always_inline inline __attribute__((always_inline))

#ifndef __noinline
#define __noinline __attribute__((noinline))
#endif
#ifndef __weak
#define __weak __attribute__((weak))
#endif

/*
 * __hidden makes a global subprogram local to the object, so the verifier
 * checks it in its caller's context as it does a static one.
 */
#define __hidden __attribute__((visibility("hidden")))

#ifndef NULL
#define NULL ((void *)0)
#endif

#ifndef KERNEL_VERSION
#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
#endif

#ifndef offsetof
#define offsetof(type, member) __builtin_offsetof(type, member)
#endif

/* container_of returns the struct of type that holds *ptr as member. */
#ifndef container_of
#define container_of(ptr, type, member)					\
	({								\
		void *__mptr = (void *)(ptr);				\
		((type *)(__mptr - offsetof(type, member)));		\
	})
#endif

/* barrier keeps the compiler from moving memory accesses across it. */
#ifndef barrier
#define barrier() __asm__ __volatile__("" ::: "memory")
#endif

/* barrier_var makes the compiler forget what it knows about var's value. */
#ifndef barrier_var
#define barrier_var(var) __asm__ __volatile__("" : "+r"(var))
#endif

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

/* __bpf_unreachable fails the build if code calling it is not removed. */
#ifndef __bpf_unreachable
#define __bpf_unreachable() __builtin_trap()
#endif

/*
 * bpf_tail_call_static tail-calls slot of a BPF_MAP_TYPE_PROG_ARRAY map with
 * a slot known at compile time. libbpf's version pins the call sequence
 * with inline assembly so the x86-64 JIT can patch a direct jump; this one
 * is a plain bpf_tail_call, with the same effect and a possibly slower jump.
 */
static __always_inline void
bpf_tail_call_static(void *ctx, const void *map, const __u32 slot)
{
	bpf_tail_call(ctx, (void *)map, slot);
}

/* Pinning and tristate values libbpf understands in map definitions and
 * __kconfig variables. */
enum libbpf_pin_type {
	LIBBPF_PIN_NONE,
	LIBBPF_PIN_BY_NAME,	/* pin under /sys/fs/bpf by the map's name */
};

enum libbpf_tristate {
	TRI_NO = 0,
	TRI_YES = 1,
	TRI_MODULE = 2,
};

/*
 * Legacy map definition, for variables in SEC("maps"). bpfcc also emits
 * such maps as BTF-defined maps, so libbpf 1.x loads them.
 */
struct bpf_map_def {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
};

/*
 * Externs resolved by the loader: __kconfig from the kernel configuration
 * (CONFIG_*, LINUX_KERNEL_VERSION, ...), __ksym from kernel symbols.
 */
#define __kconfig __attribute__((section(".kconfig")))
#define __ksym __attribute__((section(".ksyms")))
#define __kptr_untrusted __attribute__((btf_type_tag("kptr_untrusted")))
#define __kptr __attribute__((btf_type_tag("kptr")))
#define __percpu_kptr __attribute__((btf_type_tag("percpu_kptr")))

/*
 * Argument-counting machinery shared by the variadic macros here and in
 * bpf_tracing.h: ___bpf_narg(args...) is the number of arguments (0..12),
 * ___bpf_apply(fn, n) pastes fn and n.
 *
 * The variadic macros of these headers take "..." and __VA_ARGS__, never
 * GNU named variadic parameters ("args..."), which the preprocessor of
 * modernc.org/cc/v4 (v4.34.1) mis-expands when pasted as ", ##args".
 */
#ifndef ___bpf_concat
#define ___bpf_concat(a, b) a ## b
#endif
#ifndef ___bpf_apply
#define ___bpf_apply(fn, n) ___bpf_concat(fn, n)
#endif
#ifndef ___bpf_nth
#define ___bpf_nth(_, _1, _2, _3, _4, _5, _6, _7, _8, _9, _a, _b, _c, N, ...) N
#endif
#ifndef ___bpf_narg
#define ___bpf_narg(...) \
	___bpf_nth(_, ##__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#endif

/* ___bpf_fill(arr, args...) stores args into arr[0], arr[1], ... */
#define ___bpf_fill0(arr, p, x) do {} while (0)
#define ___bpf_fill1(arr, p, x) arr[p] = x
#define ___bpf_fill2(arr, p, x, ...) arr[p] = x; ___bpf_fill1(arr, p + 1, __VA_ARGS__)
#define ___bpf_fill3(arr, p, x, ...) arr[p] = x; ___bpf_fill2(arr, p + 1, __VA_ARGS__)
#define ___bpf_fill4(arr, p, x, ...) arr[p] = x; ___bpf_fill3(arr, p + 1, __VA_ARGS__)
#define ___bpf_fill5(arr, p, x, ...) arr[p] = x; ___bpf_fill4(arr, p + 1, __VA_ARGS__)
#define ___bpf_fill6(arr, p, x, ...) arr[p] = x; ___bpf_fill5(arr, p + 1, __VA_ARGS__)
#define ___bpf_fill7(arr, p, x, ...) arr[p] = x; ___bpf_fill6(arr, p + 1, __VA_ARGS__)
#define ___bpf_fill8(arr, p, x, ...) arr[p] = x; ___bpf_fill7(arr, p + 1, __VA_ARGS__)
#define ___bpf_fill9(arr, p, x, ...) arr[p] = x; ___bpf_fill8(arr, p + 1, __VA_ARGS__)
#define ___bpf_fill10(arr, p, x, ...) arr[p] = x; ___bpf_fill9(arr, p + 1, __VA_ARGS__)
#define ___bpf_fill11(arr, p, x, ...) arr[p] = x; ___bpf_fill10(arr, p + 1, __VA_ARGS__)
#define ___bpf_fill12(arr, p, x, ...) arr[p] = x; ___bpf_fill11(arr, p + 1, __VA_ARGS__)
#define ___bpf_fill(arr, ...) \
	___bpf_apply(___bpf_fill, ___bpf_narg(__VA_ARGS__))(arr, 0, __VA_ARGS__)

/*
 * The helpers that take a format and an array of u64 arguments, called with
 * the arguments spelled out: the format goes to .rodata, the arguments to an
 * array on the stack.
 */
#define BPF_SEQ_PRINTF(seq, fmt, ...)				\
	({								\
		static const char ___fmt[] = fmt;			\
		unsigned long long ___param[___bpf_narg(__VA_ARGS__)];		\
		___bpf_fill(___param, __VA_ARGS__);				\
		bpf_seq_printf(seq, ___fmt, sizeof(___fmt),		\
			       ___param, sizeof(___param));		\
	})

#define BPF_SNPRINTF(out, out_size, fmt, ...)			\
	({								\
		static const char ___fmt[] = fmt;			\
		unsigned long long ___param[___bpf_narg(__VA_ARGS__)];		\
		___bpf_fill(___param, __VA_ARGS__);				\
		bpf_snprintf(out, out_size, ___fmt,			\
			     ___param, sizeof(___param));		\
	})

/*
 * bpf_printk(fmt, args...) writes to the trace pipe
 * (/sys/kernel/tracing/trace_pipe). With up to 3 arguments it calls
 * bpf_trace_printk, beyond that bpf_trace_vprintk (kernel 5.16+), which
 * takes up to 12. The format is a static const array, so it lives in
 * .rodata; define BPF_NO_GLOBAL_DATA for kernels without global data and
 * the format is built on the stack instead.
 */
#ifdef BPF_NO_GLOBAL_DATA
#define BPF_PRINTK_FMT_MOD
#else
#define BPF_PRINTK_FMT_MOD static const
#endif

#define __bpf_printk(fmt, ...)						\
	({								\
		BPF_PRINTK_FMT_MOD char ____fmt[] = fmt;		\
		bpf_trace_printk(____fmt, sizeof(____fmt),		\
				 ##__VA_ARGS__);			\
	})

#define __bpf_vprintk(fmt, ...)					\
	({								\
		static const char ___fmt[] = fmt;			\
		unsigned long long ___param[___bpf_narg(__VA_ARGS__)];		\
		___bpf_fill(___param, __VA_ARGS__);				\
		bpf_trace_vprintk(___fmt, sizeof(___fmt),		\
				  ___param, sizeof(___param));		\
	})

/* ___bpf_pick_printk(args...) is __bpf_printk for 0..3 args, else __bpf_vprintk. */
#define ___bpf_pick_printk(...)						\
	___bpf_nth(_, ##__VA_ARGS__, __bpf_vprintk, __bpf_vprintk,	\
		   __bpf_vprintk, __bpf_vprintk, __bpf_vprintk,		\
		   __bpf_vprintk, __bpf_vprintk, __bpf_vprintk,		\
		   __bpf_vprintk, __bpf_printk, __bpf_printk,		\
		   __bpf_printk, __bpf_printk)

#define bpf_printk(fmt, ...) ___bpf_pick_printk(__VA_ARGS__)(fmt, ##__VA_ARGS__)

#endif /* __BPF_HELPERS__ */
