package frontend

import (
	"fmt"
	"strings"
	"testing"
)

// -std= sets the macros clang 19 sets for it (checked against clang -dM):
// the version, __STRICT_ANSI__ for the ISO dialects, GNU inline semantics
// before C99; C++ and unknown standards are refused.
func TestStd(t *testing.T) {
	for _, c := range []struct {
		std, version      string
		strict, gnuInline bool
	}{
		{"", "201710L", false, false},
		{"gnu17", "201710L", false, false},
		{"c17", "201710L", true, false},
		{"gnu11", "201112L", false, false},
		{"c11", "201112L", true, false},
		{"c99", "199901L", true, false},
		{"gnu89", "", false, true},
		{"c89", "", true, true},
		{"iso9899:199409", "199409L", true, false},
		{"c23", "202311L", true, false},
		{"gnu2x", "202311L", false, false},
	} {
		checks := fmt.Sprintf("#if defined(__STRICT_ANSI__) != %d || defined(__GNUC_GNU_INLINE__) != %d || defined(__GNUC_STDC_INLINE__) != %d\n#error dialect\n#endif\n",
			b2i(c.strict), b2i(c.gnuInline), b2i(!c.gnuInline))
		if c.version == "" {
			checks += "#ifdef __STDC_VERSION__\n#error version\n#endif\n"
		} else {
			checks += fmt.Sprintf("#if __STDC_VERSION__ != %s\n#error version\n#endif\n", c.version)
		}
		src := checks + "int x;\n"
		if _, err := Parse("std.c", Options{Source: []byte(src), Std: c.std}); err != nil {
			t.Errorf("-std=%s: %v", c.std, err)
		}
	}
	for std, want := range map[string]string{"c++17": "not a C standard", "gnu++20": "not a C standard", "c2y0": "unknown -std"} {
		if _, err := Parse("std.c", Options{Source: []byte("int x;\n"), Std: std}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("-std=%s: %v, want an error saying %q", std, err, want)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
