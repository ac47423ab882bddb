/*
 * <bpfcc/read.h>: reads of a traced process's memory, one expression per
 * chain of pointers, without CO-RE (a user program's types are not in the
 * kernel's BTF: the offsets are the ones the declarations say, which
 * <bpfcc/target.h> takes from the traced binary's DWARF).
 *
 *	BPFCC_READ(L, l_G, mainthread, status)
 *
 * is L->l_G->mainthread->status with each -> a bpf_probe_read_user (a
 * failed read gives 0, and so does every read after it). Up to 9 members;
 * the last may be a struct, read whole. BPFCC_READ_STR(buf, L, name) reads
 * the NUL-terminated string the char * L->name points to into the array
 * buf; it returns bpf_probe_read_user_str's result.
 *
 *	BPFCC_READ_BITFIELD(BPFCC_READ(L, l_G), gcstopem)
 *
 * reads the bit-field member of the struct a traced pointer points to (a
 * bit-field has no address of its own, so BPFCC_READ refuses one): the
 * bytes that hold it, shifted as libbpf's BPF_CORE_READ_BITFIELD_PROBED
 * does, with the layout the declarations give.
 */
#ifndef __BPFCC_READ_H__
#define __BPFCC_READ_H__

#include <bpf/bpf_helpers.h>

/* (p)->m, read from the traced process: the address is computed, never
 * dereferenced by the program. */
#define ___bpfcc_ru(p, m) ({						\
	__typeof__((p)->m) ___bpfcc_v;					\
	bpf_probe_read_user(&___bpfcc_v, sizeof(___bpfcc_v),		\
		(const char *)(p) + __builtin_bpfcc_member_offset((p)->m));	\
	___bpfcc_v;							\
})

/* Each level reads one pointer into a variable of its own, so the
 * expansion grows linearly with the chain. */
#define ___bpfcc_r1(s, a) ___bpfcc_ru(s, a)
#define ___bpfcc_r2(s, a, ...) ({ __typeof__((s)->a) ___bpfcc_p2 = ___bpfcc_ru(s, a); ___bpfcc_r1(___bpfcc_p2, __VA_ARGS__); })
#define ___bpfcc_r3(s, a, ...) ({ __typeof__((s)->a) ___bpfcc_p3 = ___bpfcc_ru(s, a); ___bpfcc_r2(___bpfcc_p3, __VA_ARGS__); })
#define ___bpfcc_r4(s, a, ...) ({ __typeof__((s)->a) ___bpfcc_p4 = ___bpfcc_ru(s, a); ___bpfcc_r3(___bpfcc_p4, __VA_ARGS__); })
#define ___bpfcc_r5(s, a, ...) ({ __typeof__((s)->a) ___bpfcc_p5 = ___bpfcc_ru(s, a); ___bpfcc_r4(___bpfcc_p5, __VA_ARGS__); })
#define ___bpfcc_r6(s, a, ...) ({ __typeof__((s)->a) ___bpfcc_p6 = ___bpfcc_ru(s, a); ___bpfcc_r5(___bpfcc_p6, __VA_ARGS__); })
#define ___bpfcc_r7(s, a, ...) ({ __typeof__((s)->a) ___bpfcc_p7 = ___bpfcc_ru(s, a); ___bpfcc_r6(___bpfcc_p7, __VA_ARGS__); })
#define ___bpfcc_r8(s, a, ...) ({ __typeof__((s)->a) ___bpfcc_p8 = ___bpfcc_ru(s, a); ___bpfcc_r7(___bpfcc_p8, __VA_ARGS__); })
#define ___bpfcc_r9(s, a, ...) ({ __typeof__((s)->a) ___bpfcc_p9 = ___bpfcc_ru(s, a); ___bpfcc_r8(___bpfcc_p9, __VA_ARGS__); })
#define ___bpfcc_nth(_1, _2, _3, _4, _5, _6, _7, _8, _9, N, ...) N
#define ___bpfcc_cat(a, b) ___bpfcc_cat2(a, b)
#define ___bpfcc_cat2(a, b) a##b

#define BPFCC_READ(src, ...)						\
	___bpfcc_cat(___bpfcc_r, ___bpfcc_nth(__VA_ARGS__, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0))(src, __VA_ARGS__)

#define BPFCC_READ_STR(buf, src, ...)					\
	bpf_probe_read_user_str((buf), sizeof(buf), BPFCC_READ(src, __VA_ARGS__))

/* Field info kinds, as libbpf's enum bpf_field_info_kind numbers them. */
#define BPFCC_READ_BITFIELD(src, field) ({				\
	__typeof__(src) ___bpfcc_s = (src);				\
	unsigned long long ___bpfcc_bf = 0;				\
	bpf_probe_read_user(&___bpfcc_bf,				\
		__builtin_bpfcc_field_info(___bpfcc_s->field, 1 /* byte size */), \
		(const char *)___bpfcc_s +					\
		__builtin_bpfcc_field_info(___bpfcc_s->field, 0 /* byte offset */)); \
	___bpfcc_bf <<= __builtin_bpfcc_field_info(___bpfcc_s->field, 4 /* lshift */); \
	__builtin_bpfcc_field_info(___bpfcc_s->field, 3 /* signed */) ?	\
		(unsigned long long)((long long)___bpfcc_bf >>		\
			__builtin_bpfcc_field_info(___bpfcc_s->field, 5 /* rshift */)) : \
		___bpfcc_bf >> __builtin_bpfcc_field_info(___bpfcc_s->field, 5); \
})

#endif /* __BPFCC_READ_H__ */
