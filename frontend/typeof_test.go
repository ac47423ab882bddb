package frontend

import (
	"testing"

	"modernc.org/cc/v4"
)

// typeof(type-name) declares wherever a type specifier may stand, also
// when the type name begins with a qualifier: libbpf's __type(value,
// const char *) in a map definition expands to typeof(const char *) *value.
func TestTypeofTypeName(t *testing.T) {
	src := `
typeof(int) q;
struct { typeof(const char *) *value; typeof(volatile int) v; } m;
int f(void) { typeof(unsigned int) x = 1; __typeof__(const long) y = 2; return x + y + q; }
`
	u, err := Parse("typeof.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	decl := func(name string) cc.Type {
		for _, n := range u.AST.Scope.Nodes[name] {
			if d, ok := n.(*cc.Declarator); ok {
				return d.Type()
			}
		}
		t.Fatalf("%s is not declared", name)
		return nil
	}
	if k := decl("q").Kind(); k != cc.Int {
		t.Errorf("q: %v, want int", k)
	}
	st, ok := decl("m").(*cc.StructType)
	if !ok {
		t.Fatalf("m: %v, want a struct", decl("m"))
	}
	value := st.FieldByName("value").Type()
	if p, ok := value.(*cc.PointerType); !ok || p.Elem().Kind() != cc.Ptr || p.Elem().(*cc.PointerType).Elem().Kind() != cc.Char {
		t.Errorf("m.value: %v, want const char **", value)
	}
	if v := st.FieldByName("v").Type(); v.Kind() != cc.Int {
		t.Errorf("m.v: %v, want int", v)
	}
}

// _Float32, _Float32x, _Float64 and _Float64x are no keywords, as in
// clang: glibc's bits/floatn-common.h typedefs them (for a compiler that
// says it is GCC 4, as clang and bpfcc do).
func TestFloatNTypedefs(t *testing.T) {
	src := "typedef float _Float32;\ntypedef double _Float64;\ntypedef double _Float32x;\ntypedef long double _Float64x;\nint x;\n"
	if _, err := Parse("floatn.c", Options{Source: []byte(src)}); err != nil {
		t.Fatal(err)
	}
}

// GNU `x ?: y` is x when x is a nonzero constant, y when it is zero, also
// where a constant is needed: sched_ext's scx_bpf_error() sizes an array
// `[___bpf_narg(args) ?: 1]` (cc crashed reading the missing operand).
func TestElvisConstant(t *testing.T) {
	src := "char a[2 ?: 1];\nchar b[0 ?: 3];\nint f(void) { volatile unsigned long long p[1 ?: 1] = {}; return p[0] + sizeof(a) + sizeof(b); }\n"
	u, err := Parse("elvis.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]int64{"a": 2, "b": 3} {
		for _, n := range u.AST.Scope.Nodes[name] {
			if d, ok := n.(*cc.Declarator); ok && d.Type().Size() != want {
				t.Errorf("sizeof %s = %d, want %d", name, d.Type().Size(), want)
			}
		}
	}
}

// A const integer initialised with a constant sizes an array as a
// constant, as GNU C folds it (clang warns -Wgnu-folding-constant): the
// array is no VLA, so it may be initialised (bpf-developer-tutorial's
// `const int N = 100; char buf[N] = {0};`).
func TestFoldedConstArraySize(t *testing.T) {
	src := "const int N = 100;\nconst volatile char payload[N];\nint f(void) { const int M = 25; char buf[N] = { 0 }; char half[(M)] = {}; buf[3] = payload[3]; return buf[3] + sizeof(half); }\n"
	u, err := Parse("folded.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range u.AST.Scope.Nodes["payload"] {
		if d, ok := n.(*cc.Declarator); ok && d.Type().Size() != 100 {
			t.Errorf("sizeof payload = %d, want 100", d.Type().Size())
		}
	}
}

// GNU attributes after a label's colon are the label's (cilium writes
// `out: __maybe_unused` before a statement), and a label followed by an
// attributed declaration still declares.
func TestLabelAttributes(t *testing.T) {
	src := "#define __maybe_unused __attribute__((unused))\n" +
		"int f(int x) {\n if (x) goto out;\n x = 2;\nout: __maybe_unused\n return x;\n" +
		"b: __attribute__((unused)) __attribute__((cold)) ;\n" +
		"c: __attribute__((aligned(8))) int y = x; return y;\n}\n"
	if _, err := Parse("label.c", Options{Source: []byte(src)}); err != nil {
		t.Fatal(err)
	}
}
