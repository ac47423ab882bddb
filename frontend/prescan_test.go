package frontend

import (
	"strings"
	"testing"
)

// What would crash or hang cc is reported, at the right place; what is
// valid C passes.
func TestPrescan(t *testing.T) {
	cases := []struct {
		src, want string
		line, col int
	}{
		{"int f(void) { return " + strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300) + "; }", "nested more than 256", 1, 21 + 256},
		{"int " + strings.Repeat("*", 300) + "p;", "pointer levels", 1, 5 + 256},
		{"int a" + strings.Repeat("[1]", 300) + ";", "array dimensions", 1, 6 + 3*256},
		{"struct rec {\n\tint id;\n\tstruct rec b, c;\n};", "'struct rec': a struct cannot contain itself", 3, 9},
		{"union u { int x; struct { union u in; } s; };", "'union u'", 1, 33},
		// Valid: pointers to itself, prototypes taking it, same tag elsewhere.
		{"struct rec { struct rec *next; void (*cb)(struct rec r); int a[2][3]; };\nstruct rec r = { 0 };", "", 0, 0},
		{"#define X ((((((((((((((((((\n// ((((((( \"(((\"\nchar *s = \"((((\";", "", 0, 0},
		{"int g" + strings.Repeat("[1]", 256) + ";", "", 0, 0},
		{"short s[] = u\"ab\";", "u\"...\" literals (char16_t) are not supported", 1, 13},
		{"int c = U'x';", "U'...' literals (char32_t)", 1, 9},
		{"int u = 1, U = 2; char s[] = \"u\" \"U'\"; int x = u + U;", "", 0, 0},
		// An attribute macro between the tag and the star (scx's arena
		// lists: `struct node __arena *next`).
		{"#define __arena __attribute__((address_space(1)))\nstruct node { struct node __arena *next; long v; };", "", 0, 0},
		{"struct node { struct node __attr x; };", "", 0, 0},
		{"struct node { int a; struct node x[2]; };", "'struct node'", 1, 29},
	}
	for _, c := range cases {
		d := prescan("x.c", []byte(c.src))
		switch {
		case c.want == "" && d != nil:
			t.Errorf("%.40q: unexpected %v", c.src, d)
		case c.want != "" && d == nil:
			t.Errorf("%.40q: no diagnostic, want %q", c.src, c.want)
		case c.want != "" && (!strings.Contains(d.Msg, c.want) || d.Line != c.line || d.Col != c.col):
			t.Errorf("%.40q: got %d:%d %q, want %d:%d %q", c.src, d.Line, d.Col, d.Msg, c.line, c.col, c.want)
		}
	}
}

// __array(NAME, FN-TYPE) becomes the macro that declares an array of function
// pointers; other __array uses and line numbers stay as written.
func TestRewriteFnArray(t *testing.T) {
	cases := []struct{ src, want string }{
		{"__array(values, int (void *));", "__bpfcc_fnarray(values, int , (void *));"},
		{"__array(values,\n\tint (struct a *, long));\nx", "__bpfcc_fnarray(values, int , (struct a *, long))\n;\nx"},
		{"__array(values, struct inner);", "__array(values, struct inner);"},
		{"__array(values, struct { int (*f)(void); });", "__array(values, struct { int (*f)(void); });"},
		{"int __array;", "int __array;"},
	}
	for _, c := range cases {
		if got := string(rewriteFnArray([]byte(c.src))); got != c.want {
			t.Errorf("rewriteFnArray(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}
