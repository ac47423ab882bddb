package frontend

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMoveFunctionAttributes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// The run goes before the name; the line keeps its number.
		{"static int foo(int x __t1 __t2) __t1 __t2\n{\n}\n",
			"static int __t1 __t2 foo(int x __t1 __t2)\n {\n}\n"},
		// Before the pointers, with their qualifiers; a run over two lines.
		{"const char *const *f(void) A(1)\n __attribute__((x(2, 3))) { return 0; }",
			"const char A(1)  __attribute__((x(2, 3))) *const *f(void)\n { return 0; }"},
		// A prototype, a K&R definition, a struct, a statement, a
		// parenthesized declarator and a run with a comment stay.
		{"int f(void) __t;", ""},
		{"int f(a) int a; { return a; }", ""},
		{"struct s __t { int a; };", ""},
		{"int g(void) { if (x) M { } }", ""},
		{"int (*h(int))(int) __t { }", ""},
		{"int f(void) __t /* c */ { }", ""},
	} {
		want := tc.want
		if want == "" {
			want = tc.in
		}
		if got := string(moveFunctionAttributes([]byte(tc.in))); got != want {
			t.Errorf("%q:\ngot  %q\nwant %q", tc.in, got, want)
		}
	}
}

// Parse takes attributes after a function definition's declarator, in the
// main file and in headers, and they keep their meaning there.
func TestParseAttributesAfterDeclarator(t *testing.T) {
	dir := t.TempDir()
	hdr := "#define __tag __attribute__((btf_decl_tag(\"t\")))\nstatic int inc(int x __tag) __tag __attribute__((noinline))\n{\n\treturn x + 1;\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "h.h"), []byte(hdr), 0o644); err != nil {
		t.Fatal(err)
	}
	src := "#include \"h.h\"\nint dec(int x) __tag\n{\n\treturn x - 1;\n}\nint bad;\n"
	u, err := Parse(filepath.Join(dir, "m.c"), Options{Source: []byte(src), IncludeDirs: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for n := u.AST.TranslationUnit; n != nil; n = n.TranslationUnit {
		fd := n.ExternalDeclaration.FunctionDefinition
		if fd == nil {
			continue
		}
		d := fd.Declarator
		found++
		if a := d.Type().Attributes(); len(a.AttrValue("btf_decl_tag")) != 1 {
			t.Errorf("%s: btf_decl_tag %v", d.Name(), a.AttrValue("btf_decl_tag"))
		}
		if d.Name() == "dec" && d.Position().Line != 2 {
			t.Errorf("dec at line %d, want 2", d.Position().Line)
		}
	}
	if found != 2 {
		t.Errorf("%d function definitions, want 2", found)
	}
	// A file that fails for another reason reports cc's first error.
	if _, err := Parse("m.c", Options{Source: []byte("int f(void) __t {\n}\n")}); err == nil {
		t.Error("undefined __t: no error")
	}
}
