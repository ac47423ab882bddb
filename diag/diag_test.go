package diag

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	for _, tc := range []struct {
		d    Diagnostic
		want string
	}{
		{Diagnostic{File: "a.c", Line: 3, Col: 9, Msg: "boom"}, "a.c:3:9: error: boom"},
		{Diagnostic{File: "a.c", Line: 3, Severity: Warning, Msg: "w"}, "a.c:3: warning: w"},
		{Diagnostic{File: "a.c", Severity: Note, Msg: "n"}, "a.c: note: n"},
		{Diagnostic{Msg: "bare"}, "error: bare"},
	} {
		if got := tc.d.String(); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestListSortAndError(t *testing.T) {
	l := List{
		{File: "b.c", Line: 1, Col: 1, Msg: "b"},
		{File: "a.c", Line: 9, Col: 2, Msg: "a9"},
		{File: "a.c", Line: 2, Col: 5, Msg: "a2"},
		{File: "a.c", Line: 2, Col: 5, Severity: Note, Msg: "a2 note"},
	}
	want := "a.c:2:5: error: a2\na.c:2:5: note: a2 note\na.c:9:2: error: a9\nb.c:1:1: error: b"
	if got := l.Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if !l.HasErrors() || len(l.Errors()) != 3 || len(l.Warnings()) != 0 {
		t.Errorf("HasErrors/Errors/Warnings wrong for %v", l)
	}
}

func TestPrint(t *testing.T) {
	src := map[string][]byte{"x.c": []byte("int a;\n\tint b = c;\r\nshort\n")}
	l := List{
		{File: "x.c", Line: 2, Col: 10, Msg: "use of undeclared identifier 'c'", Hint: "declare it"},
		{File: "x.c", Line: 1, Col: 5, Severity: Warning, Msg: "unused"},
		{File: "x.c", Line: 3, Col: 99, Msg: "past the end"},
		{File: "x.c", Line: 40, Col: 1, Msg: "no such line"},
		{File: "x.c", Msg: "whole file"},
	}
	var b strings.Builder
	Print(&b, l, FileLines(src), false)
	want := "x.c: error: whole file\n" +
		"x.c:1:5: warning: unused\n" +
		"int a;\n" +
		"    ^\n" +
		"x.c:2:10: error: use of undeclared identifier 'c'\n" +
		"\tint b = c;\n" +
		"\t        ^\n" +
		"hint: declare it\n" +
		"x.c:3:99: error: past the end\n" +
		"short\n" +
		"     ^\n" +
		"x.c:40:1: error: no such line\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if l[0].Line != 2 {
		t.Error("Print reordered the caller's list")
	}
}

func TestPrintColor(t *testing.T) {
	var b strings.Builder
	Print(&b, List{{File: "x.c", Line: 1, Col: 2, Msg: "m"}}, FileLines(map[string][]byte{"x.c": []byte("ab\n")}), true)
	want := "\x1b[1mx.c:1:2: \x1b[0m\x1b[1;31merror:\x1b[0m \x1b[1mm\x1b[0m\nab\n \x1b[1;32m^\x1b[0m\n"
	if got := b.String(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestPrintLimit(t *testing.T) {
	var l List
	for i := 1; i <= MaxErrors+5; i++ {
		l = append(l, Diagnostic{File: "x.c", Line: i, Col: 1, Msg: fmt.Sprint("e", i)})
	}
	var b strings.Builder
	Print(&b, l, nil, false)
	out := b.String()
	if n := strings.Count(out, ": error: "); n != MaxErrors {
		t.Errorf("printed %d errors, want %d", n, MaxErrors)
	}
	if !strings.HasSuffix(out, "5 more errors not shown\n") {
		t.Errorf("no count of hidden errors:\n%s", out)
	}
}

func TestFileLinesDisk(t *testing.T) {
	p := filepath.Join(t.TempDir(), "y.c")
	if err := os.WriteFile(p, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lines := FileLines(nil)
	if s, ok := lines(p, 2); !ok || s != "two" {
		t.Errorf("line 2 = %q, %v", s, ok)
	}
	if _, ok := lines(p, 0); ok {
		t.Error("line 0 known")
	}
	if _, ok := lines(filepath.Join(t.TempDir(), "missing.c"), 1); ok {
		t.Error("missing file has lines")
	}
}
