/*
 * stdarg.h for the BPF target (bpfcc's own; C11 7.16). BPF functions
 * cannot be variadic, so only the types and macros that headers mention
 * are useful; a variadic function definition is still an error.
 */
#ifndef __BPFCC_STDARG_H
#define __BPFCC_STDARG_H
typedef __builtin_va_list va_list;
typedef __builtin_va_list __gnuc_va_list;
#define va_start(ap, param) __builtin_va_start(ap, param)
#define va_end(ap) __builtin_va_end(ap)
#define va_arg(ap, type) __builtin_va_arg(ap, type)
#define va_copy(dst, src) __builtin_va_copy(dst, src)
#endif
#undef __need___va_list
