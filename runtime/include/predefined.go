package include

import "fmt"

// Predefined is the text of the macros bpfcc predefines for every
// compilation, the ones `clang -target bpf` defines that programs and
// headers test: the target (__bpf__, __BPF__), the LP64 data model, byte
// order, type and limit macros (cc.Builtin needs __SIZE_TYPE__,
// __PTRDIFF_TYPE__, __WCHAR_TYPE__ and the __INTn_TYPE__/__UINTn_TYPE__
// family), and the GNU C version.
//
// It claims GNU C 4.2.1 as clang does, but not __clang__: libbpf's headers
// then take their portable (GCC) paths instead of clang-only ones such as
// inline-assembly tail calls. __has_attribute is defined to 0 because cc
// does not implement it. Like clang's BPF target it defines neither
// __x86_64__ nor __linux__.
//
// It does not contain the macros that depend on the compilation:
// __TARGET_ARCH_<arch> (the host's, so that bpf_tracing.h knows the
// struct pt_regs layout) and __BPF_CPU_VERSION__ (-mcpu); [PredefinedFor]
// adds them. The __BPF_FEATURE_* macros of newer clang are left out: they
// announce instructions bpfcc does not emit from C.
const Predefined = `#define __bpf__ 1
#define __BPF__ 1
#define __ELF__ 1
#define __LP64__ 1
#define _LP64 1
#define __CHAR_BIT__ 8
#define __ORDER_LITTLE_ENDIAN__ 1234
#define __ORDER_BIG_ENDIAN__ 4321
#define __ORDER_PDP_ENDIAN__ 3412
#define __BYTE_ORDER__ __ORDER_LITTLE_ENDIAN__
#define __LITTLE_ENDIAN__ 1
#define __STDC__ 1
#define __STDC_VERSION__ 201710L
#define __STDC_HOSTED__ 1
#define __GNUC__ 4
#define __GNUC_MINOR__ 2
#define __GNUC_PATCHLEVEL__ 1
#define __GNUC_STDC_INLINE__ 1
#define __has_attribute(x) 0
#define __ATOMIC_RELAXED 0
#define __ATOMIC_CONSUME 1
#define __ATOMIC_ACQUIRE 2
#define __ATOMIC_RELEASE 3
#define __ATOMIC_ACQ_REL 4
#define __ATOMIC_SEQ_CST 5
#define __SIZEOF_SHORT__ 2
#define __SIZEOF_INT__ 4
#define __SIZEOF_LONG__ 8
#define __SIZEOF_LONG_LONG__ 8
#define __SIZEOF_POINTER__ 8
#define __SIZEOF_SIZE_T__ 8
#define __SIZEOF_PTRDIFF_T__ 8
#define __SIZEOF_WCHAR_T__ 4
#define __SIZEOF_WINT_T__ 4
#define __SIZEOF_FLOAT__ 4
#define __SIZEOF_DOUBLE__ 8
#define __SIZEOF_LONG_DOUBLE__ 8
#define __SIZE_TYPE__ long unsigned int
#define __PTRDIFF_TYPE__ long int
#define __WCHAR_TYPE__ int
#define __WINT_TYPE__ unsigned int
#define __CHAR16_TYPE__ unsigned short
#define __CHAR32_TYPE__ unsigned int
#define __INTMAX_TYPE__ long int
#define __UINTMAX_TYPE__ long unsigned int
#define __INTPTR_TYPE__ long int
#define __UINTPTR_TYPE__ long unsigned int
#define __INT8_TYPE__ signed char
#define __INT16_TYPE__ short
#define __INT32_TYPE__ int
#define __INT64_TYPE__ long int
#define __UINT8_TYPE__ unsigned char
#define __UINT16_TYPE__ unsigned short
#define __UINT32_TYPE__ unsigned int
#define __UINT64_TYPE__ long unsigned int
#define __INT_LEAST8_TYPE__ signed char
#define __INT_LEAST16_TYPE__ short
#define __INT_LEAST32_TYPE__ int
#define __INT_LEAST64_TYPE__ long int
#define __UINT_LEAST8_TYPE__ unsigned char
#define __UINT_LEAST16_TYPE__ unsigned short
#define __UINT_LEAST32_TYPE__ unsigned int
#define __UINT_LEAST64_TYPE__ long unsigned int
#define __INT_FAST8_TYPE__ signed char
#define __INT_FAST16_TYPE__ short
#define __INT_FAST32_TYPE__ int
#define __INT_FAST64_TYPE__ long int
#define __UINT_FAST8_TYPE__ unsigned char
#define __UINT_FAST16_TYPE__ unsigned short
#define __UINT_FAST32_TYPE__ unsigned int
#define __UINT_FAST64_TYPE__ long unsigned int
#define __SCHAR_MAX__ 127
#define __SHRT_MAX__ 32767
#define __INT_MAX__ 2147483647
#define __LONG_MAX__ 9223372036854775807L
#define __LONG_LONG_MAX__ 9223372036854775807LL
#define __WCHAR_MAX__ 2147483647
#define __WINT_MAX__ 4294967295U
#define __SIZE_MAX__ 18446744073709551615UL
#define __PTRDIFF_MAX__ 9223372036854775807L
#define __INTMAX_MAX__ 9223372036854775807L
#define __UINTMAX_MAX__ 18446744073709551615UL
#define __INTPTR_MAX__ 9223372036854775807L
#define __UINTPTR_MAX__ 18446744073709551615UL
#define __INT8_MAX__ 127
#define __INT16_MAX__ 32767
#define __INT32_MAX__ 2147483647
#define __INT64_MAX__ 9223372036854775807L
#define __UINT8_MAX__ 255
#define __UINT16_MAX__ 65535
#define __UINT32_MAX__ 4294967295U
#define __UINT64_MAX__ 18446744073709551615UL
#define __INT8_C(c) c
#define __INT16_C(c) c
#define __INT32_C(c) c
#define __INT64_C(c) c##L
#define __UINT8_C(c) c
#define __UINT16_C(c) c
#define __UINT32_C(c) c##U
#define __UINT64_C(c) c##UL
#define __INTMAX_C(c) c##L
#define __UINTMAX_C(c) c##UL
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
