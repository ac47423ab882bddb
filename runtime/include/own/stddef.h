/*
 * stddef.h for the BPF target, as a compiler provides it (bpfcc's own; C11
 * 7.19). Searched before the system directories, like clang's resource
 * directory, so it serves the __need_* requests of system headers too.
 */
#ifndef __BPFCC_STDDEF_H
#define __BPFCC_STDDEF_H

typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef __WCHAR_TYPE__ wchar_t;
typedef struct {
	long long __max_align_ll __attribute__((__aligned__(__alignof__(long long))));
	long double __max_align_ld __attribute__((__aligned__(__alignof__(long double))));
} max_align_t;

#ifndef NULL
#define NULL ((void *)0)
#endif
#define offsetof(type, member) __builtin_offsetof(type, member)

#endif /* __BPFCC_STDDEF_H */

#undef __need_size_t
#undef __need_ptrdiff_t
#undef __need_wchar_t
#undef __need_NULL
#undef __need_wint_t
