/* stdnoreturn.h (bpfcc's own; C11 7.23). */
#ifndef __BPFCC_STDNORETURN_H
#define __BPFCC_STDNORETURN_H
#define noreturn _Noreturn
#endif
