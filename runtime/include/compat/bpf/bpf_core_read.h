/*
 * bpf/bpf_core_read.h as bpfcc provides it when libbpf's headers are not
 * installed. Written for bpfcc; compatible in use with libbpf's header for
 * what it defines.
 *
 * bpfcc emits no CO-RE relocations yet. The reads here are plain
 * bpf_probe_read_kernel (or _user) calls at the offsets of the types the
 * program was compiled with: correct when those types match the running
 * kernel (a vmlinux.h made from it, or UAPI structs), wrong otherwise, as a
 * non-CO-RE BPF_PROBE_READ would be.
 *
 * Defined: bpf_core_read, bpf_core_read_user, bpf_core_read_str,
 * bpf_core_read_user_str, BPF_CORE_READ, BPF_CORE_READ_INTO,
 * BPF_CORE_READ_STR_INTO, BPF_CORE_READ_USER, BPF_CORE_READ_USER_INTO,
 * BPF_CORE_READ_USER_STR_INTO, the BPF_PROBE_READ* equivalents, and
 * bpf_core_field_size, bpf_core_field_offset and bpf_core_type_size, which
 * give the compile-time sizes and offsets the reads use.
 *
 * Not defined, because without relocations no answer would be right on
 * every kernel: bpf_core_field_exists, bpf_core_type_exists,
 * bpf_core_type_matches, bpf_core_enum_value_exists, bpf_core_enum_value,
 * bpf_core_type_id_local, bpf_core_type_id_kernel and the
 * BPF_CORE_READ_BITFIELD macros. Each expands to an undeclared identifier
 * naming the reason, so a program using one fails to compile rather than
 * run with a guess.
 */
#ifndef __BPF_CORE_READ_H__
#define __BPF_CORE_READ_H__

#include "bpf_helpers.h"

/* bpf_core_read(dst, sz, src) copies sz bytes of kernel memory at src. */
#define bpf_core_read(dst, sz, src)					\
	bpf_probe_read_kernel(dst, sz, (const void *)(src))
#define bpf_core_read_user(dst, sz, src)				\
	bpf_probe_read_user(dst, sz, (const void *)(src))
#define bpf_core_read_str(dst, sz, src)					\
	bpf_probe_read_kernel_str(dst, sz, (const void *)(src))
#define bpf_core_read_user_str(dst, sz, src)				\
	bpf_probe_read_user_str(dst, sz, (const void *)(src))

/*
 * bpf_core_field_size(s->field) or bpf_core_field_size(type, field);
 * bpf_core_field_offset(type, field) (the one-argument form needs the
 * compiler's field-info builtin and is a compile-time error here);
 * bpf_core_type_size(type).
 */
#define ___bpfcc_field_ref1(field) (field)
#define ___bpfcc_field_ref2(type, field) (((typeof(type) *)0)->field)
#define ___bpfcc_field_ref(...)					\
	___bpf_apply(___bpfcc_field_ref, ___bpf_narg(__VA_ARGS__))(__VA_ARGS__)
#define bpf_core_field_size(...)					\
	((__u32)sizeof(___bpfcc_field_ref(__VA_ARGS__)))
#define ___bpfcc_field_offset1(field)					\
	__bpfcc_error_bpf_core_field_offset_needs_type_and_field_arguments
#define ___bpfcc_field_offset2(type, field)				\
	((__u32)__builtin_offsetof(typeof(type), field))
#define bpf_core_field_offset(...)					\
	___bpf_apply(___bpfcc_field_offset, ___bpf_narg(__VA_ARGS__))(__VA_ARGS__)
#define bpf_core_type_size(type) ((__u32)sizeof(type))

/* The CO-RE queries this header cannot answer: each use names the reason. */
#define bpf_core_field_exists(...) __bpfcc_error_bpf_core_field_exists_needs_CO_RE_relocations
#define bpf_core_type_exists(...) __bpfcc_error_bpf_core_type_exists_needs_CO_RE_relocations
#define bpf_core_type_matches(...) __bpfcc_error_bpf_core_type_matches_needs_CO_RE_relocations
#define bpf_core_enum_value_exists(...) __bpfcc_error_bpf_core_enum_value_exists_needs_CO_RE_relocations
#define bpf_core_enum_value(...) __bpfcc_error_bpf_core_enum_value_needs_CO_RE_relocations
#define bpf_core_type_id_local(...) __bpfcc_error_bpf_core_type_id_local_needs_CO_RE_relocations
#define bpf_core_type_id_kernel(...) __bpfcc_error_bpf_core_type_id_kernel_needs_CO_RE_relocations
#define BPF_CORE_READ_BITFIELD(...) __bpfcc_error_BPF_CORE_READ_BITFIELD_needs_CO_RE_relocations
#define BPF_CORE_READ_BITFIELD_PROBED(...) __bpfcc_error_BPF_CORE_READ_BITFIELD_PROBED_is_not_supported

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

/* Without relocations the BPF_PROBE_READ family is the same thing. */
#define BPF_PROBE_READ_INTO BPF_CORE_READ_INTO
#define BPF_PROBE_READ_USER_INTO BPF_CORE_READ_USER_INTO
#define BPF_PROBE_READ_STR_INTO BPF_CORE_READ_STR_INTO
#define BPF_PROBE_READ_USER_STR_INTO BPF_CORE_READ_USER_STR_INTO
#define BPF_PROBE_READ BPF_CORE_READ
#define BPF_PROBE_READ_USER BPF_CORE_READ_USER

#endif /* __BPF_CORE_READ_H__ */
