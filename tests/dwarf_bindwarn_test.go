package tests

import (
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc"
)

// An integer bound to a pointer parameter compiles (the user may mean it)
// but is warned about: the handler would read tracee memory at the
// integer's value. A pointer or an unsigned long bound to it is not.
func TestDWARFBindIntToPointerWarns(t *testing.T) {
	bin := dwBuildVariant(t, "target-bindwarn", "-g", "-O0", "-no-pie")
	handler := func(param string) string {
		return strings.Replace(dwOneHandler("prog: loop_sum a=ARG", "a"), "long a)", param+")", 1)
	}
	for _, tc := range []struct {
		param, arg string
		warn       bool
	}{
		{"char *a", "n", true},  // int n
		{"char *a", "p", false}, // struct point *p
		{"long a", "n", false},
		{"void *a", "&n", false},
	} {
		src := strings.Replace(handler(tc.param), "a=ARG", "a="+tc.arg, 1)
		src = strings.Replace(src, "v += a;", "v += (long)a;", 1)
		res, _, err := dwCompileOne(t, src, bpfcc.Options{Binary: bin})
		if err != nil {
			t.Errorf("%s = %s: %v", tc.param, tc.arg, err)
			continue
		}
		warned := strings.Contains(res.Warnings.Error(), "not a pointer")
		if warned != tc.warn {
			t.Errorf("%s = %s: warned %v, want %v (warnings: %v)", tc.param, tc.arg, warned, tc.warn, res.Warnings)
		}
	}
}
