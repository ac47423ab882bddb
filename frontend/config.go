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
		IncludePaths:    opts.search().Quoted(),
		SysIncludePaths: opts.search().System(),
		ExpansionLimit:  ExpansionLimit,
		HasBuiltin:      hasBuiltin,
		FS:              newSourceFS(),
		// sourceFS serves host files itself: without FSOnly cc would
		// os.Open again every include path candidate sourceFS lacks, and
		// read files over MaxSourceSize.
		FSOnly:      true,
		SourceCache: sourceCache,
	}
	if opts.Std != "" {
		// The keywords: no asm or typeof in the ISO dialects, C23's
		// bool, alignas and the like in C23, as clang.
		// (cc reads the standard's version from Predefined.)
		cfg.Predefined = "#define __STDC_VERSION__ " + stdVersions[opts.Std] + "\n"
		if err := cfg.ApplyOptions("-std=" + opts.Std); err != nil {
			return nil, err
		}
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
	b.WriteString(withStd(include.PredefinedFor(runtime.GOARCH, cpu), opts.Std))
	// The array of function pointers __array(NAME, RET (PARAMS)) declares
	// (see rewriteFnArray).
	b.WriteString("#define __bpfcc_fnarray(name, ret, params) ret (*name[]) params\n")
	b.WriteString(localLabelHelpers)
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

// stdVersions are the -std= values clang 19 accepts for C, with the
// __STDC_VERSION__ each sets ("" for none).
var stdVersions = map[string]string{
	"c89": "", "c90": "", "iso9899:1990": "", "gnu89": "", "gnu90": "",
	"iso9899:199409": "199409L",
	"c99":            "199901L", "c9x": "199901L", "iso9899:1999": "199901L", "iso9899:199x": "199901L", "gnu99": "199901L", "gnu9x": "199901L",
	"c11": "201112L", "c1x": "201112L", "iso9899:2011": "201112L", "gnu11": "201112L", "gnu1x": "201112L",
	"c17": "201710L", "c18": "201710L", "iso9899:2017": "201710L", "iso9899:2018": "201710L", "gnu17": "201710L", "gnu18": "201710L",
	"c23": "202311L", "c2x": "202311L", "iso9899:2024": "202311L", "gnu23": "202311L", "gnu2x": "202311L",
}

// IsC89 reports whether -std=std is C89/C90 (or its 1994 amendment),
// where C's rules on a return's value are looser.
func IsC89(std string) bool {
	v, ok := stdVersions[std]
	return ok && (v == "" || v == "199409L")
}

// CheckStd reports whether -std=std names a C standard bpfcc knows.
func CheckStd(std string) error {
	if _, ok := stdVersions[std]; ok || std == "" {
		return nil
	}
	if strings.Contains(std, "++") || strings.HasPrefix(std, "cuda") || strings.HasPrefix(std, "hip") {
		return fmt.Errorf("-std=%s is not a C standard: bpfcc compiles C", std)
	}
	return fmt.Errorf("unknown -std=%s (want c89, c99, c11, c17, c23 or their gnu dialects)", std)
}

// withStd edits clang's predefined macros, whose standard is gnu17, for
// -std=std as clang 19 does: __STDC_VERSION__, __STRICT_ANSI__ for the ISO
// dialects, GNU inline semantics before C99. (__STDC_VERSION__ is cc's to
// protect from #undef: it must be defined right the first time.)
func withStd(pre, std string) string {
	v, ok := stdVersions[std]
	if !ok {
		return pre
	}
	const def = "#define __STDC_VERSION__ 201710L\n"
	switch {
	case v == "":
		pre = strings.Replace(pre, def, "", 1)
		pre = strings.Replace(pre, "#define __GNUC_STDC_INLINE__ 1\n", "#define __GNUC_GNU_INLINE__ 1\n", 1)
	default:
		pre = strings.Replace(pre, def, "#define __STDC_VERSION__ "+v+"\n", 1)
	}
	if !strings.HasPrefix(std, "gnu") {
		pre += "#define __STRICT_ANSI__ 1\n"
	}
	return pre
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
