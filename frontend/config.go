package frontend

import (
	"fmt"
	"runtime"
	"strings"

	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/include"
)

func newConfig(opts Options) (*cc.Config, error) {
	abi, err := cc.NewABI("linux", "amd64")
	if err != nil {
		return nil, err
	}
	// clang's BPF target: long double is 8 bytes, char is signed.
	ld := abi.Types[cc.LongDouble]
	ld.Size, ld.Align, ld.FieldAlign = 8, 8, 8
	abi.Types[cc.LongDouble] = ld
	cfg := &cc.Config{
		ABI:       abi,
		ABILayout: true,
		// Not UnsignedEnums: it also makes the enumeration constants
		// unsigned, where C (and clang) type them int. lower gives enum
		// types without negative values an unsigned representation.
		IncludePaths:    include.IncludePaths(opts.IncludeDirs),
		SysIncludePaths: include.SysIncludePaths(opts.IncludeDirs),
		ExpansionLimit:  ExpansionLimit,
		HasBuiltin:      hasBuiltin,
		FS:              newSourceFS(),
		// sourceFS serves host files itself: without FSOnly cc would
		// os.Open again every include path candidate sourceFS lacks, and
		// read files over MaxSourceSize.
		FSOnly:      true,
		SourceCache: sourceCache,
	}
	return cfg, nil
}

// sourceCache keeps the headers cc has scanned and parsed into their
// preprocessing structure for the later compilations of this process (a
// test suite, a server): each reads and strips them again, but cc reuses
// the parse of a header whose content is unchanged. It does nothing for a
// single bpfcc command, and it is memory only: nothing is written. Nil
// disables it.
var sourceCache = &cc.SourceCache{MaxBytes: 16 << 20}

// ExpansionLimit bounds macro expansion work (tokens processed).
const ExpansionLimit = 50_000_000

// predefined returns the <predefined> source: clang -target bpf's macros
// plus -D/-U.
func predefined(opts Options) string {
	cpu := opts.CPU
	if cpu == 0 {
		cpu = 3
	}
	var b strings.Builder
	b.WriteString(include.PredefinedFor(runtime.GOARCH, cpu))
	// The array of function pointers __array(NAME, RET (PARAMS)) declares
	// (see rewriteFnArray).
	b.WriteString("#define __bpfcc_fnarray(name, ret, params) ret (*name[]) params\n")
	for _, d := range opts.Defines {
		name, val, ok := strings.Cut(d, "=")
		if !ok {
			val = "1"
		}
		fmt.Fprintf(&b, "#define %s %s\n", name, val)
	}
	for _, u := range opts.Undefines {
		fmt.Fprintf(&b, "#undef %s\n", u)
	}
	return b.String()
}

// hasBuiltin answers __has_builtin for the builtins lower translates.
func hasBuiltin(name string) bool {
	switch name {
	case "__builtin_memcpy", "__builtin_memset", "__builtin_memcmp", "__builtin_memmove",
		"__builtin_bswap16", "__builtin_bswap32", "__builtin_bswap64",
		"__builtin_expect", "__builtin_constant_p", "__builtin_offsetof",
		"__builtin_preserve_access_index", "__builtin_preserve_field_info", "__builtin_preserve_type_info",
		"__builtin_preserve_enum_value", "__builtin_btf_type_id", "__builtin_unreachable", "__builtin_trap",
		"__builtin_types_compatible_p", "__builtin_choose_expr",
		"__builtin_bpfcc_member_offset", "__builtin_bpfcc_field_info":
		return true
	}
	return strings.HasPrefix(name, "__sync_") || strings.HasPrefix(name, "__atomic_") || strings.HasPrefix(name, "__c11_atomic_")
}

// keepComments makes cfg serve headers with their comments, for -E output
// that shows them as the separators they are.
func keepComments(cfg *cc.Config) {
	if s, ok := cfg.FS.(sourceFS); ok {
		s.keepComments = true
		cfg.FS = s
	}
}
