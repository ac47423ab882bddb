/*
 * bpf/bpf_endian.h as bpfcc provides it when libbpf's headers are not
 * installed. Written for bpfcc; compatible in use with libbpf's header.
 *
 * Byte order conversion between the CPU and network (big-endian) order:
 * bpf_htons, bpf_ntohs, bpf_htonl, bpf_ntohl, bpf_cpu_to_be64 and
 * bpf_be64_to_cpu. With a constant argument they fold to a constant (usable
 * in case labels and static initialisers); otherwise they are one byte-swap
 * instruction on a little-endian target and nothing on a big-endian one.
 * The __bpf_constant_* forms are always constant expressions.
 */
#ifndef __BPF_ENDIAN__
#define __BPF_ENDIAN__

/* Constant byte swaps, built from shifts and masks. */
#define ___bpf_swab16(x) ((__u16)(					\
	(((__u16)(x) & (__u16)0x00ffU) << 8) |				\
	(((__u16)(x) & (__u16)0xff00U) >> 8)))

#define ___bpf_swab32(x) ((__u32)(					\
	(((__u32)(x) & (__u32)0x000000ffUL) << 24) |			\
	(((__u32)(x) & (__u32)0x0000ff00UL) << 8) |			\
	(((__u32)(x) & (__u32)0x00ff0000UL) >> 8) |			\
	(((__u32)(x) & (__u32)0xff000000UL) >> 24)))

#define ___bpf_swab64(x) ((__u64)(					\
	(((__u64)(x) & (__u64)0x00000000000000ffULL) << 56) |		\
	(((__u64)(x) & (__u64)0x000000000000ff00ULL) << 40) |		\
	(((__u64)(x) & (__u64)0x0000000000ff0000ULL) << 24) |		\
	(((__u64)(x) & (__u64)0x00000000ff000000ULL) << 8) |		\
	(((__u64)(x) & (__u64)0x000000ff00000000ULL) >> 8) |		\
	(((__u64)(x) & (__u64)0x0000ff0000000000ULL) >> 24) |		\
	(((__u64)(x) & (__u64)0x00ff000000000000ULL) >> 40) |		\
	(((__u64)(x) & (__u64)0xff00000000000000ULL) >> 56)))

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
# define __bpf_ntohs(x)			__builtin_bswap16(x)
# define __bpf_htons(x)			__builtin_bswap16(x)
# define __bpf_constant_ntohs(x)	___bpf_swab16(x)
# define __bpf_constant_htons(x)	___bpf_swab16(x)
# define __bpf_ntohl(x)			__builtin_bswap32(x)
# define __bpf_htonl(x)			__builtin_bswap32(x)
# define __bpf_constant_ntohl(x)	___bpf_swab32(x)
# define __bpf_constant_htonl(x)	___bpf_swab32(x)
# define __bpf_be64_to_cpu(x)		__builtin_bswap64(x)
# define __bpf_cpu_to_be64(x)		__builtin_bswap64(x)
# define __bpf_constant_be64_to_cpu(x)	___bpf_swab64(x)
# define __bpf_constant_cpu_to_be64(x)	___bpf_swab64(x)
#elif __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
# define __bpf_ntohs(x)			((__u16)(x))
# define __bpf_htons(x)			((__u16)(x))
# define __bpf_constant_ntohs(x)	((__u16)(x))
# define __bpf_constant_htons(x)	((__u16)(x))
# define __bpf_ntohl(x)			((__u32)(x))
# define __bpf_htonl(x)			((__u32)(x))
# define __bpf_constant_ntohl(x)	((__u32)(x))
# define __bpf_constant_htonl(x)	((__u32)(x))
# define __bpf_be64_to_cpu(x)		((__u64)(x))
# define __bpf_cpu_to_be64(x)		((__u64)(x))
# define __bpf_constant_be64_to_cpu(x)	((__u64)(x))
# define __bpf_constant_cpu_to_be64(x)	((__u64)(x))
#else
# error "bpf_endian.h: __BYTE_ORDER__ is neither __ORDER_LITTLE_ENDIAN__ nor __ORDER_BIG_ENDIAN__"
#endif

#define bpf_htons(x)							\
	(__builtin_constant_p(x) ? __bpf_constant_htons(x) : __bpf_htons(x))
#define bpf_ntohs(x)							\
	(__builtin_constant_p(x) ? __bpf_constant_ntohs(x) : __bpf_ntohs(x))
#define bpf_htonl(x)							\
	(__builtin_constant_p(x) ? __bpf_constant_htonl(x) : __bpf_htonl(x))
#define bpf_ntohl(x)							\
	(__builtin_constant_p(x) ? __bpf_constant_ntohl(x) : __bpf_ntohl(x))
#define bpf_cpu_to_be64(x)						\
	(__builtin_constant_p(x) ? __bpf_constant_cpu_to_be64(x) : __bpf_cpu_to_be64(x))
#define bpf_be64_to_cpu(x)						\
	(__builtin_constant_p(x) ? __bpf_constant_be64_to_cpu(x) : __bpf_be64_to_cpu(x))

#endif /* __BPF_ENDIAN__ */
