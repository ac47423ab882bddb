package lower

import (
	"strings"
	"testing"
)

// A _Static_assert in a function holds a const integer local with a
// constant initializer to be a constant, also to __builtin_constant_p, as
// clang does (bpf_experimental.h's bpf_assert_range); a parameter is none.
func TestLateStaticAssert(t *testing.T) {
	ok := `
#define CHECK(RHS) ({ const typeof(RHS) rhs_var = (RHS); \
	_Static_assert(__builtin_constant_p((rhs_var)), "constant"); \
	_Static_assert(!__builtin_constant_p(x) || 1, "or"); rhs_var; })
_Static_assert(sizeof(int) == 4, "file scope");
long f(int x) { return x + CHECK(~0ULL) + CHECK(-3); }`
	if _, err := lowerSource(t, ok); err != nil {
		t.Fatal(err)
	}
	bad := `long f(int x) { const int c = 1; _Static_assert(__builtin_constant_p(c), "c"); _Static_assert(__builtin_constant_p(x), "param"); return x; }`
	if _, err := lowerSource(t, bad); err == nil || !strings.Contains(err.Error(), "assertion failed: param") || strings.Contains(err.Error(), "failed: c") {
		t.Errorf("parameter: %v", err)
	}
}
