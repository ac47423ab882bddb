package frontend

import "testing"

func TestDropEmptyAttributes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"int x __attribute__((aligned(8), , cleanup(f)));", "int x __attribute__((aligned(8),   cleanup(f)));"},
		{"#define M int x __attribute__((aligned(8), /* a, b */,\t\\\n cleanup(f)))", "#define M int x __attribute__((aligned(8), /* a, b */ \t\\\n cleanup(f)))"},
		{"__attribute__((, used))", "__attribute__((  used))"},
		{"__attribute__((used, ))", "__attribute__((used  ))"},
		{"__attribute ((section(\",,\"), used))", "__attribute ((section(\",,\"), used))"},
		{"__attribute__((format(printf, 1, 2)))", "__attribute__((format(printf, 1, 2)))"},
		{"f(a, , b); /* __attribute__((a, , b)) */", "f(a, , b); /* __attribute__((a, , b)) */"},
	} {
		if got := string(dropEmptyAttributes([]byte(c.in))); got != c.want {
			t.Errorf("dropEmptyAttributes(%q)\n = %q\nwant %q", c.in, got, c.want)
		}
	}
}
