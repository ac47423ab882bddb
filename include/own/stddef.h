/*
 * stddef.h for the BPF target, as a compiler provides it (bpfcc's own; C11
 * 7.19). Searched before the system directories, like clang's resource
 * directory, so it serves the __need_* requests of system headers too.
 *
 * As with clang's, a header that defines __need_size_t, __need_NULL, ...
 * before including it gets only what it asked for (glibc's <string.h> asks
 * for size_t and NULL), and each type is defined once however often it is
 * asked for, under the guard macro clang uses (_SIZE_T, _WCHAR_T, ...): a
 * program that defines wchar_t itself, as vmlinux.h does, and includes a
 * libc header still compiles.
 */
#if !defined(__need_ptrdiff_t) && !defined(__need_size_t) && \
	!defined(__need_wchar_t) && !defined(__need_NULL) && \
	!defined(__need_max_align_t) && !defined(__need_offsetof) && \
	!defined(__need_wint_t) && !defined(__need_rsize_t) && \
	!defined(__need_nullptr_t) && !defined(__need_unreachable)
/* The whole header. wint_t is not in C's <stddef.h>. */
#define __need_ptrdiff_t
#define __need_size_t
#define __need_wchar_t
#define __need_NULL
#define __need_max_align_t
#define __need_offsetof
#define __STDDEF_H
#endif

#ifdef __need_ptrdiff_t
#ifndef _PTRDIFF_T
#define _PTRDIFF_T
typedef __PTRDIFF_TYPE__ ptrdiff_t;
#endif
#undef __need_ptrdiff_t
#endif

#ifdef __need_size_t
#ifndef _SIZE_T
#define _SIZE_T
typedef __SIZE_TYPE__ size_t;
#endif
#undef __need_size_t
#endif

#ifdef __need_wchar_t
#ifndef _WCHAR_T
#define _WCHAR_T
typedef __WCHAR_TYPE__ wchar_t;
#endif
#undef __need_wchar_t
#endif

#ifdef __need_NULL
#undef NULL
#define NULL ((void *)0)
#undef __need_NULL
#endif

#ifdef __need_max_align_t
#ifndef __CLANG_MAX_ALIGN_T_DEFINED
#define __CLANG_MAX_ALIGN_T_DEFINED
typedef struct {
	long long __clang_max_align_nonce1 __attribute__((__aligned__(__alignof__(long long))));
	long double __clang_max_align_nonce2 __attribute__((__aligned__(__alignof__(long double))));
} max_align_t;
#endif
#undef __need_max_align_t
#endif

#ifdef __need_offsetof
#ifndef offsetof
#define offsetof(t, d) __builtin_offsetof(t, d)
#endif
#undef __need_offsetof
#endif

#ifdef __need_wint_t
#ifndef _WINT_T
#define _WINT_T
typedef __WINT_TYPE__ wint_t;
#endif
#undef __need_wint_t
#endif

/* C11 Annex K and C23 requests: not provided, as with clang in C17. */
#undef __need_rsize_t
#undef __need_nullptr_t
#undef __need_unreachable
