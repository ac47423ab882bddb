package include

import (
	"fmt"
	"strings"
)

// Predefined is the text of the macros bpfcc predefines for every
// compilation: what `clang-19 -target bpf -dM -E` defines, so that libbpf's
// headers, the kernel's selftest headers and programs that test the
// compiler take clang's paths and compile as they do with clang 19.
//
// bpfcc presents itself as clang 19.1.7 (__clang__, __clang_major__, ...,
// and the GNU C 4.2.1 compatibility macros clang defines), because the
// headers it compiles are written for clang: libbpf's GCC paths declare
// extern variables to carry types through CO-RE builtins, and
// bpf_tail_call_static exists only for clang (or GCC > 12). Left out are
// the macros announcing what bpfcc does not implement: floating point
// (__FLT_*, __DBL_*, ...), __int128 and _BitInt, #embed, the OpenCL and
// HIP memory scopes, and the __BPF_FEATURE_* instruction announcements of
// the inline assembler but __BPF_FEATURE_MAY_GOTO (may_goto, with asm
// goto, which bpf_experimental.h's can_loop and cond_break use); __OPTIMIZE__ and __NO_INLINE__ are left out as
// nothing bpfcc compiles tests them. Like clang's BPF target it defines
// neither __x86_64__ nor __linux__.
//
// __has_attribute answers for [Attributes] (cc has no such operator):
// __has_attribute(x) expands to __bpfcc_has_attribute_x, defined to 1 for
// each supported name in both spellings (x and __x__); any other name is
// an undefined identifier, 0 in #if. __typeof_unqual__, a keyword of clang
// 19 that libbpf's BPF_CORE_READ uses, is typeof: bpfcc types a
// declaration through typeof without the operand's qualifiers.
// [BuiltinMacros] follow cc's declarations of the builtins.
//
// It does not contain the macros that depend on the compilation:
// __TARGET_ARCH_<arch> (the host's, so that bpf_tracing.h knows the
// struct pt_regs layout) and __BPF_CPU_VERSION__ (-mcpu); [PredefinedFor]
// adds them.
var Predefined = clangIdentity + clangTarget + bpfccExtras + hasAttributeMacros()

// clangIdentity names the compiler: clang 19.1.7 with its GNU C version.
const clangIdentity = `#define __clang__ 1
#define __clang_major__ 19
#define __clang_minor__ 1
#define __clang_patchlevel__ 7
#define __clang_version__ "19.1.7 (bpfcc)"
#define __clang_literal_encoding__ "UTF-8"
#define __clang_wide_literal_encoding__ "UTF-32"
#define __llvm__ 1
#define __VERSION__ "bpfcc, compatible with Clang 19.1.7"
#define __GNUC__ 4
#define __GNUC_MINOR__ 2
#define __GNUC_PATCHLEVEL__ 1
#define __GNUC_STDC_INLINE__ 1
`

// clangTarget is what clang -target bpf defines for the target, the C
// dialect (gnu17), types and limits, in clang's (sorted) order.
const clangTarget = `#define _LP64 1
#define __ATOMIC_ACQUIRE 2
#define __ATOMIC_ACQ_REL 4
#define __ATOMIC_CONSUME 1
#define __ATOMIC_RELAXED 0
#define __ATOMIC_RELEASE 3
#define __ATOMIC_SEQ_CST 5
#define __BIGGEST_ALIGNMENT__ 8
#define __BOOL_WIDTH__ 8
#define __BPF__ 1
#define __BPF_FEATURE_MAY_GOTO 1
#define __BYTE_ORDER__ __ORDER_LITTLE_ENDIAN__
#define __CHAR16_TYPE__ unsigned short
#define __CHAR32_TYPE__ unsigned int
#define __CHAR_BIT__ 8
#define __CLANG_ATOMIC_BOOL_LOCK_FREE 2
#define __CLANG_ATOMIC_CHAR16_T_LOCK_FREE 2
#define __CLANG_ATOMIC_CHAR32_T_LOCK_FREE 2
#define __CLANG_ATOMIC_CHAR_LOCK_FREE 2
#define __CLANG_ATOMIC_INT_LOCK_FREE 2
#define __CLANG_ATOMIC_LLONG_LOCK_FREE 2
#define __CLANG_ATOMIC_LONG_LOCK_FREE 2
#define __CLANG_ATOMIC_POINTER_LOCK_FREE 2
#define __CLANG_ATOMIC_SHORT_LOCK_FREE 2
#define __CLANG_ATOMIC_WCHAR_T_LOCK_FREE 2
#define __ELF__ 1
#define __GCC_ATOMIC_BOOL_LOCK_FREE 2
#define __GCC_ATOMIC_CHAR16_T_LOCK_FREE 2
#define __GCC_ATOMIC_CHAR32_T_LOCK_FREE 2
#define __GCC_ATOMIC_CHAR_LOCK_FREE 2
#define __GCC_ATOMIC_INT_LOCK_FREE 2
#define __GCC_ATOMIC_LLONG_LOCK_FREE 2
#define __GCC_ATOMIC_LONG_LOCK_FREE 2
#define __GCC_ATOMIC_POINTER_LOCK_FREE 2
#define __GCC_ATOMIC_SHORT_LOCK_FREE 2
#define __GCC_ATOMIC_TEST_AND_SET_TRUEVAL 1
#define __GCC_ATOMIC_WCHAR_T_LOCK_FREE 2
#define __GCC_CONSTRUCTIVE_SIZE 32
#define __GCC_DESTRUCTIVE_SIZE 32
#define __GXX_ABI_VERSION 1002
#define __INT16_C_SUFFIX__
#define __INT16_FMTd__ "hd"
#define __INT16_FMTi__ "hi"
#define __INT16_MAX__ 32767
#define __INT16_TYPE__ short
#define __INT32_C_SUFFIX__
#define __INT32_FMTd__ "d"
#define __INT32_FMTi__ "i"
#define __INT32_MAX__ 2147483647
#define __INT32_TYPE__ int
#define __INT64_C_SUFFIX__ L
#define __INT64_FMTd__ "ld"
#define __INT64_FMTi__ "li"
#define __INT64_MAX__ 9223372036854775807L
#define __INT64_TYPE__ long int
#define __INT8_C_SUFFIX__
#define __INT8_FMTd__ "hhd"
#define __INT8_FMTi__ "hhi"
#define __INT8_MAX__ 127
#define __INT8_TYPE__ signed char
#define __INTMAX_C_SUFFIX__ L
#define __INTMAX_FMTd__ "ld"
#define __INTMAX_FMTi__ "li"
#define __INTMAX_MAX__ 9223372036854775807L
#define __INTMAX_TYPE__ long int
#define __INTMAX_WIDTH__ 64
#define __INTPTR_FMTd__ "ld"
#define __INTPTR_FMTi__ "li"
#define __INTPTR_MAX__ 9223372036854775807L
#define __INTPTR_TYPE__ long int
#define __INTPTR_WIDTH__ 64
#define __INT_FAST16_FMTd__ "hd"
#define __INT_FAST16_FMTi__ "hi"
#define __INT_FAST16_MAX__ 32767
#define __INT_FAST16_TYPE__ short
#define __INT_FAST16_WIDTH__ 16
#define __INT_FAST32_FMTd__ "d"
#define __INT_FAST32_FMTi__ "i"
#define __INT_FAST32_MAX__ 2147483647
#define __INT_FAST32_TYPE__ int
#define __INT_FAST32_WIDTH__ 32
#define __INT_FAST64_FMTd__ "ld"
#define __INT_FAST64_FMTi__ "li"
#define __INT_FAST64_MAX__ 9223372036854775807L
#define __INT_FAST64_TYPE__ long int
#define __INT_FAST64_WIDTH__ 64
#define __INT_FAST8_FMTd__ "hhd"
#define __INT_FAST8_FMTi__ "hhi"
#define __INT_FAST8_MAX__ 127
#define __INT_FAST8_TYPE__ signed char
#define __INT_FAST8_WIDTH__ 8
#define __INT_LEAST16_FMTd__ "hd"
#define __INT_LEAST16_FMTi__ "hi"
#define __INT_LEAST16_MAX__ 32767
#define __INT_LEAST16_TYPE__ short
#define __INT_LEAST16_WIDTH__ 16
#define __INT_LEAST32_FMTd__ "d"
#define __INT_LEAST32_FMTi__ "i"
#define __INT_LEAST32_MAX__ 2147483647
#define __INT_LEAST32_TYPE__ int
#define __INT_LEAST32_WIDTH__ 32
#define __INT_LEAST64_FMTd__ "ld"
#define __INT_LEAST64_FMTi__ "li"
#define __INT_LEAST64_MAX__ 9223372036854775807L
#define __INT_LEAST64_TYPE__ long int
#define __INT_LEAST64_WIDTH__ 64
#define __INT_LEAST8_FMTd__ "hhd"
#define __INT_LEAST8_FMTi__ "hhi"
#define __INT_LEAST8_MAX__ 127
#define __INT_LEAST8_TYPE__ signed char
#define __INT_LEAST8_WIDTH__ 8
#define __INT_MAX__ 2147483647
#define __INT_WIDTH__ 32
#define __LITTLE_ENDIAN__ 1
#define __LLONG_WIDTH__ 64
#define __LONG_LONG_MAX__ 9223372036854775807LL
#define __LONG_MAX__ 9223372036854775807L
#define __LONG_WIDTH__ 64
#define __LP64__ 1
#define __ORDER_BIG_ENDIAN__ 4321
#define __ORDER_LITTLE_ENDIAN__ 1234
#define __ORDER_PDP_ENDIAN__ 3412
#define __POINTER_WIDTH__ 64
#define __PTRDIFF_FMTd__ "ld"
#define __PTRDIFF_FMTi__ "li"
#define __PTRDIFF_MAX__ 9223372036854775807L
#define __PTRDIFF_TYPE__ long int
#define __PTRDIFF_WIDTH__ 64
#define __SCHAR_MAX__ 127
#define __SHRT_MAX__ 32767
#define __SHRT_WIDTH__ 16
#define __SIG_ATOMIC_MAX__ 2147483647
#define __SIG_ATOMIC_WIDTH__ 32
#define __SIZEOF_DOUBLE__ 8
#define __SIZEOF_FLOAT__ 4
#define __SIZEOF_INT__ 4
#define __SIZEOF_LONG_DOUBLE__ 8
#define __SIZEOF_LONG_LONG__ 8
#define __SIZEOF_LONG__ 8
#define __SIZEOF_POINTER__ 8
#define __SIZEOF_PTRDIFF_T__ 8
#define __SIZEOF_SHORT__ 2
#define __SIZEOF_SIZE_T__ 8
#define __SIZEOF_WCHAR_T__ 4
#define __SIZEOF_WINT_T__ 4
#define __SIZE_FMTX__ "lX"
#define __SIZE_FMTo__ "lo"
#define __SIZE_FMTu__ "lu"
#define __SIZE_FMTx__ "lx"
#define __SIZE_MAX__ 18446744073709551615UL
#define __SIZE_TYPE__ long unsigned int
#define __SIZE_WIDTH__ 64
#define __STDC_HOSTED__ 1
#define __STDC_UTF_16__ 1
#define __STDC_UTF_32__ 1
#define __STDC_VERSION__ 201710L
#define __STDC__ 1
#define __UINT16_C_SUFFIX__
#define __UINT16_FMTX__ "hX"
#define __UINT16_FMTo__ "ho"
#define __UINT16_FMTu__ "hu"
#define __UINT16_FMTx__ "hx"
#define __UINT16_MAX__ 65535
#define __UINT16_TYPE__ unsigned short
#define __UINT32_C_SUFFIX__ U
#define __UINT32_FMTX__ "X"
#define __UINT32_FMTo__ "o"
#define __UINT32_FMTu__ "u"
#define __UINT32_FMTx__ "x"
#define __UINT32_MAX__ 4294967295U
#define __UINT32_TYPE__ unsigned int
#define __UINT64_C_SUFFIX__ UL
#define __UINT64_FMTX__ "lX"
#define __UINT64_FMTo__ "lo"
#define __UINT64_FMTu__ "lu"
#define __UINT64_FMTx__ "lx"
#define __UINT64_MAX__ 18446744073709551615UL
#define __UINT64_TYPE__ long unsigned int
#define __UINT8_C_SUFFIX__
#define __UINT8_FMTX__ "hhX"
#define __UINT8_FMTo__ "hho"
#define __UINT8_FMTu__ "hhu"
#define __UINT8_FMTx__ "hhx"
#define __UINT8_MAX__ 255
#define __UINT8_TYPE__ unsigned char
#define __UINTMAX_C_SUFFIX__ UL
#define __UINTMAX_FMTX__ "lX"
#define __UINTMAX_FMTo__ "lo"
#define __UINTMAX_FMTu__ "lu"
#define __UINTMAX_FMTx__ "lx"
#define __UINTMAX_MAX__ 18446744073709551615UL
#define __UINTMAX_TYPE__ long unsigned int
#define __UINTMAX_WIDTH__ 64
#define __UINTPTR_FMTX__ "lX"
#define __UINTPTR_FMTo__ "lo"
#define __UINTPTR_FMTu__ "lu"
#define __UINTPTR_FMTx__ "lx"
#define __UINTPTR_MAX__ 18446744073709551615UL
#define __UINTPTR_TYPE__ long unsigned int
#define __UINTPTR_WIDTH__ 64
#define __UINT_FAST16_FMTX__ "hX"
#define __UINT_FAST16_FMTo__ "ho"
#define __UINT_FAST16_FMTu__ "hu"
#define __UINT_FAST16_FMTx__ "hx"
#define __UINT_FAST16_MAX__ 65535
#define __UINT_FAST16_TYPE__ unsigned short
#define __UINT_FAST32_FMTX__ "X"
#define __UINT_FAST32_FMTo__ "o"
#define __UINT_FAST32_FMTu__ "u"
#define __UINT_FAST32_FMTx__ "x"
#define __UINT_FAST32_MAX__ 4294967295U
#define __UINT_FAST32_TYPE__ unsigned int
#define __UINT_FAST64_FMTX__ "lX"
#define __UINT_FAST64_FMTo__ "lo"
#define __UINT_FAST64_FMTu__ "lu"
#define __UINT_FAST64_FMTx__ "lx"
#define __UINT_FAST64_MAX__ 18446744073709551615UL
#define __UINT_FAST64_TYPE__ long unsigned int
#define __UINT_FAST8_FMTX__ "hhX"
#define __UINT_FAST8_FMTo__ "hho"
#define __UINT_FAST8_FMTu__ "hhu"
#define __UINT_FAST8_FMTx__ "hhx"
#define __UINT_FAST8_MAX__ 255
#define __UINT_FAST8_TYPE__ unsigned char
#define __UINT_LEAST16_FMTX__ "hX"
#define __UINT_LEAST16_FMTo__ "ho"
#define __UINT_LEAST16_FMTu__ "hu"
#define __UINT_LEAST16_FMTx__ "hx"
#define __UINT_LEAST16_MAX__ 65535
#define __UINT_LEAST16_TYPE__ unsigned short
#define __UINT_LEAST32_FMTX__ "X"
#define __UINT_LEAST32_FMTo__ "o"
#define __UINT_LEAST32_FMTu__ "u"
#define __UINT_LEAST32_FMTx__ "x"
#define __UINT_LEAST32_MAX__ 4294967295U
#define __UINT_LEAST32_TYPE__ unsigned int
#define __UINT_LEAST64_FMTX__ "lX"
#define __UINT_LEAST64_FMTo__ "lo"
#define __UINT_LEAST64_FMTu__ "lu"
#define __UINT_LEAST64_FMTx__ "lx"
#define __UINT_LEAST64_MAX__ 18446744073709551615UL
#define __UINT_LEAST64_TYPE__ long unsigned int
#define __UINT_LEAST8_FMTX__ "hhX"
#define __UINT_LEAST8_FMTo__ "hho"
#define __UINT_LEAST8_FMTu__ "hhu"
#define __UINT_LEAST8_FMTx__ "hhx"
#define __UINT_LEAST8_MAX__ 255
#define __UINT_LEAST8_TYPE__ unsigned char
#define __USER_LABEL_PREFIX__
#define __WCHAR_MAX__ 2147483647
#define __WCHAR_TYPE__ int
#define __WCHAR_WIDTH__ 32
#define __WINT_MAX__ 2147483647
#define __WINT_TYPE__ int
#define __WINT_WIDTH__ 32
#define __bpf__ 1
`

// bpfccExtras are macros clang 19 does not define that cc.Builtin and
// headers written for GCC and newer clang use.
const bpfccExtras = `#define __INT8_C(c) c
#define __INT16_C(c) c
#define __INT32_C(c) c
#define __INT64_C(c) c##L
#define __UINT8_C(c) c
#define __UINT16_C(c) c
#define __UINT32_C(c) c##U
#define __UINT64_C(c) c##UL
#define __INTMAX_C(c) c##L
#define __UINTMAX_C(c) c##UL
#define __typeof_unqual__ __typeof__
#define __has_attribute(x) __bpfcc_has_attribute_##x
#define __has_c_attribute(x) 0
#define __has_declspec_attribute(x) 0
`

// BuiltinMacros are macros over builtins, defined after cc declares the
// builtins: the __builtin_bswapN macros give a constant argument's swap as
// a constant expression, as clang folds it (bpf_endian.h's __bpf_htons in
// a case label or a global's initialiser), and are the builtin otherwise.
const BuiltinMacros = `#define __builtin_bswap16(x) ((unsigned short)(__builtin_constant_p(x) ? \
	(unsigned short)((unsigned short)(x) << 8 | (unsigned short)(x) >> 8) : __builtin_bswap16(x)))
#define __builtin_bswap32(x) ((unsigned int)(__builtin_constant_p(x) ? \
	((unsigned int)(x) << 24 | ((unsigned int)(x) & 0xff00U) << 8 | \
	 ((unsigned int)(x) >> 8 & 0xff00U) | (unsigned int)(x) >> 24) : __builtin_bswap32(x)))
#define __builtin_bswap64(x) ((unsigned long long)(__builtin_constant_p(x) ? \
	((unsigned long long)__builtin_bswap32((unsigned int)(unsigned long long)(x)) << 32 | \
	 __builtin_bswap32((unsigned int)((unsigned long long)(x) >> 32))) : __builtin_bswap64(x)))
`

// targetArch maps a GOARCH to libbpf's __TARGET_ARCH_ suffix.
var targetArch = map[string]string{
	"amd64":    "x86",
	"386":      "x86",
	"arm64":    "arm64",
	"arm":      "arm",
	"s390x":    "s390",
	"ppc64":    "powerpc",
	"ppc64le":  "powerpc",
	"mips":     "mips",
	"mipsle":   "mips",
	"mips64":   "mips",
	"mips64le": "mips",
	"riscv64":  "riscv",
	"loong64":  "loongarch",
}

// PredefinedFor returns [Predefined] plus the macros that depend on the
// compilation: __TARGET_ARCH_<arch> for goarch (the architecture of the
// kernel the program will run on, usually runtime.GOARCH; none for an
// unknown one) and __BPF_CPU_VERSION__ for -mcpu=v<cpu> (none if cpu <= 0).
func PredefinedFor(goarch string, cpu int) string {
	s := Predefined
	if a, ok := targetArch[goarch]; ok {
		s += fmt.Sprintf("#define __TARGET_ARCH_%s 1\n", a)
	}
	if cpu > 0 {
		s += fmt.Sprintf("#define __BPF_CPU_VERSION__ %d\n", cpu)
	}
	return s
}

// Attributes are the GNU attributes __has_attribute reports: the ones bpfcc
// implements, and the ones that in clang too only inform diagnostics or
// optimisation, which bpfcc accepts and ignores. Not here, so reported
// missing: btf_type_tag, address_space, naked, alias, mode, vector_size.
var Attributes = []string{
	// Implemented.
	"aligned", "always_inline", "btf_decl_tag", "cleanup", "noinline", "packed",
	"preserve_access_index", "section", "unused", "used", "visibility", "weak",
	// Diagnostic and optimisation hints.
	"cold", "const", "deprecated", "fallthrough", "format", "hot", "leaf",
	"maybe_unused", "nonnull", "noreturn", "nothrow", "pure", "returns_nonnull",
	"warn_unused_result",
}

// hasAttributeMacros defines __bpfcc_has_attribute_NAME for each of
// [Attributes], in both spellings, for the __has_attribute macro.
func hasAttributeMacros() string {
	var b strings.Builder
	for _, a := range Attributes {
		fmt.Fprintf(&b, "#define __bpfcc_has_attribute_%s 1\n#define __bpfcc_has_attribute___%s__ 1\n", a, a)
	}
	return b.String()
}
