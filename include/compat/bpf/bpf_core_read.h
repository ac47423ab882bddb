/*
 * bpf/bpf_core_read.h as bpfcc provides it when libbpf's headers are not
 * installed. Written for bpfcc; compatible in use with libbpf's header for
 * what it defines.
 *
 * Reads go through __builtin_preserve_access_index, so their field offsets
 * are CO-RE relocations that the loader (libbpf, cilium/ebpf, bpfcc
 * --load) adjusts to the running kernel's BTF, as with clang. The queries
 * (bpf_core_field_exists, bpf_core_type_size, bpf_core_enum_value, ...)
 * are relocations too, answered by the loader.
 *
 * Defined: bpf_core_read, bpf_core_read_user, bpf_core_read_str,
 * bpf_core_read_user_str, BPF_CORE_READ, BPF_CORE_READ_INTO,
 * BPF_CORE_READ_STR_INTO, BPF_CORE_READ_USER, BPF_CORE_READ_USER_INTO,
 * BPF_CORE_READ_USER_STR_INTO, the BPF_PROBE_READ* equivalents,
 * BPF_CORE_READ_BITFIELD, BPF_CORE_READ_BITFIELD_PROBED,
 * bpf_core_field_exists, bpf_core_field_size, bpf_core_field_offset,
 * bpf_core_type_exists, bpf_core_type_matches, bpf_core_type_size,
 * bpf_core_enum_value_exists, bpf_core_enum_value, bpf_core_type_id_local
 * and bpf_core_type_id_kernel.
 */
#ifndef __BPF_CORE_READ_H__
#define __BPF_CORE_READ_H__

#include "bpf_helpers.h"

/* The kinds the __builtin_preserve_*_info builtins take. */
enum bpf_field_info_kind {
	BPF_FIELD_BYTE_OFFSET = 0,
	BPF_FIELD_BYTE_SIZE = 1,
	BPF_FIELD_EXISTS = 2,
	BPF_FIELD_SIGNED = 3,
	BPF_FIELD_LSHIFT_U64 = 4,
	BPF_FIELD_RSHIFT_U64 = 5,
};
enum bpf_type_id_kind {
	BPF_TYPE_ID_LOCAL = 0,
	BPF_TYPE_ID_TARGET = 1,
};
enum bpf_type_info_kind {
	BPF_TYPE_EXISTS = 0,
	BPF_TYPE_SIZE = 1,
	BPF_TYPE_MATCHES = 2,
};
enum bpf_enum_value_kind {
	BPF_ENUMVAL_EXISTS = 0,
	BPF_ENUMVAL_VALUE = 1,
};

/* bpf_core_read(dst, sz, src) copies sz bytes of kernel memory at src. */
#define bpf_core_read(dst, sz, src)					\
	bpf_probe_read_kernel(dst, sz, (const void *)__builtin_preserve_access_index(src))
#define bpf_core_read_user(dst, sz, src)				\
	bpf_probe_read_user(dst, sz, (const void *)__builtin_preserve_access_index(src))
#define bpf_core_read_str(dst, sz, src)					\
	bpf_probe_read_kernel_str(dst, sz, (const void *)__builtin_preserve_access_index(src))
#define bpf_core_read_user_str(dst, sz, src)				\
	bpf_probe_read_user_str(dst, sz, (const void *)__builtin_preserve_access_index(src))

/*
 * A field is named as s->field (one argument) or as type, field (two):
 * ___bpfcc_field_ref turns either into an expression the builtins take.
 */
#define ___bpfcc_field_ref1(field) (field)
#define ___bpfcc_field_ref2(type, field) (((typeof(type) *)0)->field)
#define ___bpfcc_field_ref(...)					\
	___bpf_apply(___bpfcc_field_ref, ___bpf_narg(__VA_ARGS__))(__VA_ARGS__)

#define bpf_core_field_exists(...)					\
	__builtin_preserve_field_info(___bpfcc_field_ref(__VA_ARGS__), BPF_FIELD_EXISTS)
#define bpf_core_field_size(...)					\
	__builtin_preserve_field_info(___bpfcc_field_ref(__VA_ARGS__), BPF_FIELD_BYTE_SIZE)
#define bpf_core_field_offset(...)					\
	__builtin_preserve_field_info(___bpfcc_field_ref(__VA_ARGS__), BPF_FIELD_BYTE_OFFSET)
#define bpf_core_type_id_local(type)					\
	__builtin_btf_type_id(*(typeof(type) *)0, BPF_TYPE_ID_LOCAL)
#define bpf_core_type_id_kernel(type)					\
	__builtin_btf_type_id(*(typeof(type) *)0, BPF_TYPE_ID_TARGET)
#define bpf_core_type_exists(type)					\
	__builtin_preserve_type_info(*(typeof(type) *)0, BPF_TYPE_EXISTS)
#define bpf_core_type_matches(type)					\
	__builtin_preserve_type_info(*(typeof(type) *)0, BPF_TYPE_MATCHES)
#define bpf_core_type_size(type)					\
	__builtin_preserve_type_info(*(typeof(type) *)0, BPF_TYPE_SIZE)
#define bpf_core_enum_value_exists(enum_type, enum_value)		\
	__builtin_preserve_enum_value(*(typeof(enum_type) *)enum_value, BPF_ENUMVAL_EXISTS)
#define bpf_core_enum_value(enum_type, enum_value)			\
	__builtin_preserve_enum_value(*(typeof(enum_type) *)enum_value, BPF_ENUMVAL_VALUE)

/*
 * BPF_CORE_READ_BITFIELD_PROBED(s, field) reads bit-field s->field from
 * kernel memory. The loader supplies the offset and size of the smallest
 * load that covers the field on the running kernel and the two shifts that
 * extract it from that load's value (x86 and BPF are little endian).
 */
#define BPF_CORE_READ_BITFIELD_PROBED(s, field) ({			\
	unsigned long long ___bpfcc_v = 0;				\
	bpf_probe_read_kernel(&___bpfcc_v,				\
		__builtin_preserve_field_info((s)->field, BPF_FIELD_BYTE_SIZE), \
		(const char *)(s) + __builtin_preserve_field_info((s)->field, BPF_FIELD_BYTE_OFFSET)); \
	___bpfcc_bitfield_extract(s, field, ___bpfcc_v);		\
})

/* BPF_CORE_READ_BITFIELD(s, field) is the same for directly readable s. */
#define BPF_CORE_READ_BITFIELD(s, field) ({				\
	const void *___bpfcc_p = (const char *)(s) +			\
		__builtin_preserve_field_info((s)->field, BPF_FIELD_BYTE_OFFSET); \
	unsigned long long ___bpfcc_v;					\
	switch (__builtin_preserve_field_info((s)->field, BPF_FIELD_BYTE_SIZE)) { \
	case 1: ___bpfcc_v = *(const unsigned char *)___bpfcc_p; break; \
	case 2: ___bpfcc_v = *(const unsigned short *)___bpfcc_p; break; \
	case 4: ___bpfcc_v = *(const unsigned int *)___bpfcc_p; break; \
	case 8: ___bpfcc_v = *(const unsigned long long *)___bpfcc_p; break; \
	default: ___bpfcc_v = 0; break;					\
	}								\
	___bpfcc_bitfield_extract(s, field, ___bpfcc_v);		\
})

/* v holds the load's bytes in its low end: shift the field out of it. */
#define ___bpfcc_bitfield_extract(s, field, v) ({			\
	unsigned long long ___bpfcc_x =					\
		(v) << __builtin_preserve_field_info((s)->field, BPF_FIELD_LSHIFT_U64); \
	__builtin_preserve_field_info((s)->field, BPF_FIELD_SIGNED) ?	\
		(unsigned long long)((long long)___bpfcc_x >>		\
			__builtin_preserve_field_info((s)->field, BPF_FIELD_RSHIFT_U64)) : \
		___bpfcc_x >> __builtin_preserve_field_info((s)->field, BPF_FIELD_RSHIFT_U64); \
})

/*
 * ___bpfcc_core_readN(fn, lfn, dst, src, f1, ..., fN) reads
 * src->f1->...->fN into *dst: each intermediate pointer with fn into a
 * temporary of its own type, the last field with lfn. Each level declares a
 * differently named temporary, so the expansion grows linearly with N.
 */
#define ___bpfcc_core_read1(fn, lfn, dst, s, a)				\
	lfn((void *)(dst), sizeof(*(dst)), &(s)->a)
#define ___bpfcc_core_read2(fn, lfn, dst, s, a, ...) ({		\
	typeof((s)->a) ___bpfcc_p2;					\
	fn((void *)&___bpfcc_p2, sizeof(___bpfcc_p2), &(s)->a);		\
	___bpfcc_core_read1(fn, lfn, dst, ___bpfcc_p2, __VA_ARGS__); })
#define ___bpfcc_core_read3(fn, lfn, dst, s, a, ...) ({		\
	typeof((s)->a) ___bpfcc_p3;					\
	fn((void *)&___bpfcc_p3, sizeof(___bpfcc_p3), &(s)->a);		\
	___bpfcc_core_read2(fn, lfn, dst, ___bpfcc_p3, __VA_ARGS__); })
#define ___bpfcc_core_read4(fn, lfn, dst, s, a, ...) ({		\
	typeof((s)->a) ___bpfcc_p4;					\
	fn((void *)&___bpfcc_p4, sizeof(___bpfcc_p4), &(s)->a);		\
	___bpfcc_core_read3(fn, lfn, dst, ___bpfcc_p4, __VA_ARGS__); })
#define ___bpfcc_core_read5(fn, lfn, dst, s, a, ...) ({		\
	typeof((s)->a) ___bpfcc_p5;					\
	fn((void *)&___bpfcc_p5, sizeof(___bpfcc_p5), &(s)->a);		\
	___bpfcc_core_read4(fn, lfn, dst, ___bpfcc_p5, __VA_ARGS__); })
#define ___bpfcc_core_read6(fn, lfn, dst, s, a, ...) ({		\
	typeof((s)->a) ___bpfcc_p6;					\
	fn((void *)&___bpfcc_p6, sizeof(___bpfcc_p6), &(s)->a);		\
	___bpfcc_core_read5(fn, lfn, dst, ___bpfcc_p6, __VA_ARGS__); })
#define ___bpfcc_core_read7(fn, lfn, dst, s, a, ...) ({		\
	typeof((s)->a) ___bpfcc_p7;					\
	fn((void *)&___bpfcc_p7, sizeof(___bpfcc_p7), &(s)->a);		\
	___bpfcc_core_read6(fn, lfn, dst, ___bpfcc_p7, __VA_ARGS__); })
#define ___bpfcc_core_read8(fn, lfn, dst, s, a, ...) ({		\
	typeof((s)->a) ___bpfcc_p8;					\
	fn((void *)&___bpfcc_p8, sizeof(___bpfcc_p8), &(s)->a);		\
	___bpfcc_core_read7(fn, lfn, dst, ___bpfcc_p8, __VA_ARGS__); })
#define ___bpfcc_core_read9(fn, lfn, dst, s, a, ...) ({		\
	typeof((s)->a) ___bpfcc_p9;					\
	fn((void *)&___bpfcc_p9, sizeof(___bpfcc_p9), &(s)->a);		\
	___bpfcc_core_read8(fn, lfn, dst, ___bpfcc_p9, __VA_ARGS__); })
#define ___bpfcc_core_read10(fn, lfn, dst, s, a, ...) ({		\
	typeof((s)->a) ___bpfcc_p10;					\
	fn((void *)&___bpfcc_p10, sizeof(___bpfcc_p10), &(s)->a);	\
	___bpfcc_core_read9(fn, lfn, dst, ___bpfcc_p10, __VA_ARGS__); })
#define ___bpfcc_core_read(fn, lfn, dst, src, a, ...)			\
	___bpf_apply(___bpfcc_core_read, ___bpf_narg(a, ##__VA_ARGS__))	\
		(fn, lfn, dst, src, a, ##__VA_ARGS__)

/* ___bpfcc_arrow(s, f1, ..., fN) is s->f1->...->fN, for typeof only. */
#define ___bpfcc_arrow1(s, a) (s)->a
#define ___bpfcc_arrow2(s, a, b) ___bpfcc_arrow1(s, a)->b
#define ___bpfcc_arrow3(s, a, b, c) ___bpfcc_arrow2(s, a, b)->c
#define ___bpfcc_arrow4(s, a, b, c, d) ___bpfcc_arrow3(s, a, b, c)->d
#define ___bpfcc_arrow5(s, a, b, c, d, e) ___bpfcc_arrow4(s, a, b, c, d)->e
#define ___bpfcc_arrow6(s, a, b, c, d, e, f) ___bpfcc_arrow5(s, a, b, c, d, e)->f
#define ___bpfcc_arrow7(s, a, b, c, d, e, f, g) ___bpfcc_arrow6(s, a, b, c, d, e, f)->g
#define ___bpfcc_arrow8(s, a, b, c, d, e, f, g, h) ___bpfcc_arrow7(s, a, b, c, d, e, f, g)->h
#define ___bpfcc_arrow9(s, a, b, c, d, e, f, g, h, i) ___bpfcc_arrow8(s, a, b, c, d, e, f, g, h)->i
#define ___bpfcc_arrow10(s, a, b, c, d, e, f, g, h, i, j) ___bpfcc_arrow9(s, a, b, c, d, e, f, g, h, i)->j
#define ___bpfcc_arrow(s, a, ...)					\
	___bpf_apply(___bpfcc_arrow, ___bpf_narg(a, ##__VA_ARGS__))(s, a, ##__VA_ARGS__)

/*
 * BPF_CORE_READ_INTO(dst, src, a, b, ...) stores src->a->b... into *dst,
 * reading every step from kernel memory; up to 10 fields. It evaluates to
 * the last read's result: 0 or a negative error.
 */
#define BPF_CORE_READ_INTO(dst, src, a, ...)				\
	___bpfcc_core_read(bpf_core_read, bpf_core_read,		\
			   dst, (src), a, ##__VA_ARGS__)
#define BPF_CORE_READ_USER_INTO(dst, src, a, ...)			\
	___bpfcc_core_read(bpf_core_read_user, bpf_core_read_user,	\
			   dst, (src), a, ##__VA_ARGS__)
/* The _STR_ forms read the last field as a NUL-terminated string. */
#define BPF_CORE_READ_STR_INTO(dst, src, a, ...)			\
	___bpfcc_core_read(bpf_core_read, bpf_core_read_str,		\
			   dst, (src), a, ##__VA_ARGS__)
#define BPF_CORE_READ_USER_STR_INTO(dst, src, a, ...)			\
	___bpfcc_core_read(bpf_core_read_user, bpf_core_read_user_str,	\
			   dst, (src), a, ##__VA_ARGS__)

/*
 * BPF_CORE_READ(src, a, b, ...) is the value of src->a->b..., read from
 * kernel memory step by step (0 where a read fails).
 */
#define BPF_CORE_READ(src, a, ...) ({					\
	typeof(___bpfcc_arrow((src), a, ##__VA_ARGS__)) ___bpfcc_val;	\
	BPF_CORE_READ_INTO(&___bpfcc_val, (src), a, ##__VA_ARGS__);	\
	___bpfcc_val;							\
})
#define BPF_CORE_READ_USER(src, a, ...) ({				\
	typeof(___bpfcc_arrow((src), a, ##__VA_ARGS__)) ___bpfcc_val;	\
	BPF_CORE_READ_USER_INTO(&___bpfcc_val, (src), a, ##__VA_ARGS__); \
	___bpfcc_val;							\
})

/*
 * The BPF_PROBE_READ family reads the same fields; it differs from
 * libbpf's only in also relocating them.
 */
#define BPF_PROBE_READ_INTO BPF_CORE_READ_INTO
#define BPF_PROBE_READ_USER_INTO BPF_CORE_READ_USER_INTO
#define BPF_PROBE_READ_STR_INTO BPF_CORE_READ_STR_INTO
#define BPF_PROBE_READ_USER_STR_INTO BPF_CORE_READ_USER_STR_INTO
#define BPF_PROBE_READ BPF_CORE_READ
#define BPF_PROBE_READ_USER BPF_CORE_READ_USER

#endif /* __BPF_CORE_READ_H__ */
