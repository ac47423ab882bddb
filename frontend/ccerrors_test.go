package frontend

import (
	"errors"
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc/diag"
)

const prologue = "#include <linux/bpf.h>\n#include <bpf/bpf_helpers.h>\n"

// TestFrontendMessages parses typical mistakes and pins the diagnostics:
// position and text, free of cc's origin tags, TODO notes and follow-ons.
func TestFrontendMessages(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want []string // "LINE:COL: message", all of them, in order
	}{
		{"missing semicolon", prologue + "SEC(\"xdp\") int f(void *c)\n{\n\tint x = 1\n\treturn x;\n}\n",
			[]string{"6:2: unexpected 'return', expected ';'"}},
		{"undeclared identifier", prologue + "SEC(\"xdp\") int f(void *c)\n{\n\treturn y + 1;\n}\n",
			[]string{"5:9: use of undeclared identifier 'y'"}},
		{"bad include", "#include <nosuch/header.h>\nint x;\n",
			[]string{"1:10: include file not found: <nosuch/header.h>"}},
		{"no such member", prologue + "SEC(\"socket\") int f(struct __sk_buff *skb)\n{\n\treturn skb->nosuch;\n}\n",
			[]string{"5:12: struct __sk_buff has no member named 'nosuch'"}},
		{"type mismatch in initializer", "struct s { int a; };\nint f(void) { struct s v = {1}; int *p = v; return 0; }\n",
			// cc has only a TODO note without a position: it goes to the
			// end of the input.
			[]string{"2:56: cannot initialize pointer to int with a value of type struct s"}},
		{"struct defined twice", "struct foo { int a; };\nstruct foo { int a; };\nint f(struct foo *p) { return p->a; }\n",
			[]string{"2:1: redefinition of 'struct foo', first defined at m.c:1:1"}},
		{"typeof of a missing member", "struct foo { int a; };\nint f(struct foo *p) { typeof(p->b) v = 0; return v; }\n",
			// cc also notes the typeof: its echo is dropped.
			[]string{"2:32: struct foo has no member named 'b'"}},
		{"duplicate type specifier", "int int f(void) { return 0; }\n",
			[]string{"1:1: invalid combination of type specifiers: int int"}},
		{"end of input", "int f(void) {\n\treturn 0;\n",
			[]string{"2:12: unexpected <EOF>, expected '}'"}},
		{"too many macro arguments", "#define A(x) x\nint f(int a) { return A(a, 2); }\n",
			[]string{"2:29: too many macro arguments"}},
		{"#error", "#error stop here\n", []string{"1:2: stop here"}},
		{"macro expansion limit", bomb, []string{"43:9: macro expansion limit exceeded: more than 50000000 tokens of expansion work (a recursive or exponentially growing macro?)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.src == bomb {
				t.Skip("expands 50M tokens before giving up")
			}
			_, err := Parse("m.c", Options{Source: []byte(tc.src)})
			if err == nil {
				t.Fatal("parsed")
			}
			var dl diag.List
			if !errors.As(err, &dl) {
				t.Fatalf("%T %v", err, err)
			}
			var got []string
			for _, d := range dl {
				if d.File != "m.c" {
					t.Errorf("diagnostic in %q: %v", d.File, d)
				}
				got = append(got, strings.TrimPrefix(d.String(), "m.c:"))
			}
			var want []string
			for _, w := range tc.want {
				line, msg, _ := strings.Cut(w, " ")
				want = append(want, line+" error: "+msg)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// bomb expands to 2^40 tokens; the definition lines come first so the use
// is on line 43.
var bomb = func() string {
	var b strings.Builder
	b.WriteString("#define m0 1+\n")
	for i := 1; i <= 40; i++ {
		b.WriteString("#define m" + itoa(i) + " m" + itoa(i-1) + " m" + itoa(i-1) + "\n")
	}
	b.WriteString("\nint x = m40 1;\n")
	return b.String()
}()

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// TestConvertErrors pins the rewriting of cc's raw error text.
func TestConvertErrors(t *testing.T) {
	src := []byte("int a;\nint b\n\n")
	for _, tc := range []struct {
		name, raw string
		want      []string
	}{
		{"origin tags and TODO notes",
			"m.c:6:9: undefined: y (check.go:5373:check:)\nTODO *cc.PrimaryExpression missed/failed type check PrimaryExpressionIdent (check.go:5417:check:)\nm.c:6:11: invalid operands: <invalid type> and int (check.go:4608:check:)\nTODO *cc.AdditiveExpression missed/failed type check (check.go:4635:check:)",
			[]string{"m.c:6:9: error: use of undeclared identifier 'y'"}},
		{"struct bodies collapsed",
			"m.c:1:2: type struct t {a int; b union {c int; d long}} has no member named z (check.go:1:check:)",
			[]string{"m.c:1:2: error: struct t has no member named 'z'"}},
		{"long anonymous body collapsed",
			"m.c:1:2: invalid operand: struct {aaaaaaaaaaaa int; bbbbbbbbbbbbbbb int; cccccccccccccc int}",
			[]string{"m.c:1:2: error: invalid operand: struct {...}"}},
		{"end of input gets the last line",
			"-: unexpected <EOF>, expected '}'\n-: unexpected <EOF>, expected ';'",
			[]string{"m.c:2:6: error: unexpected <EOF>, expected '}'"}},
		{"repeated parser recovery errors",
			"m.c:3:1: unexpected 'do', expected direct-declarator\nm.c:4:1: unexpected 'do', expected direct-declarator\nm.c:5:1: unexpected 'int', expected ';'\nm.c:2:1: unexpected string literal, expected declarator",
			[]string{"m.c:2:1: error: unexpected string literal, expected declarator", "m.c:3:1: error: unexpected 'do', expected direct-declarator", "m.c:5:1: error: unexpected 'int', expected ';'"}},
		{"only a note without position",
			"TODO *cc.Declarator (check.go:1:check:)",
			[]string{"m.c:2:6: error: invalid or unsupported declarator"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := convertErrors("m.c", src, errors.New(tc.raw))
			var got []string
			for _, d := range l {
				got = append(got, d.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestConvertErrorsLimit(t *testing.T) {
	var raw []string
	for i := 1; i <= diag.MaxErrors+3; i++ {
		raw = append(raw, "m.c:"+itoa(i)+":1: error "+itoa(i))
	}
	l := convertErrors("m.c", nil, errors.New(strings.Join(raw, "\n")))
	if len(l) != diag.MaxErrors+1 || len(l.Errors()) != diag.MaxErrors {
		t.Fatalf("%d diagnostics, %d errors", len(l), len(l.Errors()))
	}
	if last := l[len(l)-1]; last.Severity != diag.Note || last.Msg != "too many errors: 3 more not shown" || last.Line != diag.MaxErrors {
		t.Errorf("last diagnostic %v", last)
	}
}
