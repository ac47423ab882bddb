package frontend

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"modernc.org/cc/v4"
)

// tokenStream parses path with cfg and returns its tokens as
// "position text" lines.
func tokenStream(t *testing.T, path string, keepComments bool) (string, error) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := newConfig(Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg.FS = sourceFS{embedded: newSourceFS().embedded, keepComments: keepComments}
	ast, err := cc.Parse(cfg, []cc.Source{
		{Name: "<predefined>", Value: predefined(Options{})},
		{Name: "<builtin>", Value: cc.Builtin},
		{Name: path, Value: rewriteNamedVariadics(src)},
	})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, tok := range cc.NodeTokens(ast.TranslationUnit) {
		fmt.Fprintf(&b, "%v %d %s\n", tok.Position(), tok.Ch, tok.Src())
	}
	var names []string
	for name := range ast.Macros {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		m := ast.Macros[name]
		fmt.Fprintf(&b, "macro %s %v", name, m.Name.Position())
		for _, tok := range m.ReplacementList() {
			fmt.Fprintf(&b, " %s@%v", tok.Src(), tok.Position())
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// TestStripCommentsKeepsTokens parses corpus programs that between them
// include every header the corpus uses, with and without comment stripping:
// tokens, positions and macro definitions must not change.
func TestStripCommentsKeepsTokens(t *testing.T) {
	for _, name := range []string{"xdp_parse_counts", "kprobe_basic", "tc_classifier", "uprobe_basic", "printk", "map_legacy"} {
		f := filepath.Join("..", "tests", "testdata", name+".c")
		want, werr := tokenStream(t, f, true)
		got, gerr := tokenStream(t, f, false)
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Errorf("%s: errors differ:\nkeep:  %v\nstrip: %v", f, werr, gerr)
			continue
		}
		if got != want {
			gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
			for i := range min(len(gl), len(wl)) {
				if gl[i] != wl[i] {
					t.Errorf("%s: token streams differ at %d:\nkeep:  %s\nstrip: %s", f, i, wl[i], gl[i])
					break
				}
			}
		}
	}
}

var stripCases = []struct{ in, want string }{
	{"int a; // c\nint b;\n", "int a; \nint b;\n"},
	{"/* a\n * b\n */\nint x;", "/*\n\n*/\nint x;"},
	{"int x; /* c */ int y;", "int x; /* c */ int y;"},
	{"int x; /* c */ \\\nint y;", "int x; /* c */ \\\nint y;"},
	{"char *s = \"/* not */\"; // c", "char *s = \"/* not */\"; // c"},
	{"char c = '\"'; /* c */\n", "char c = '\"'; \n"},
	{"#include <a//b.h>\n// c\n", "#include <a//b.h>/*\n*/\n"},
	{"# /* x */ include <a//b.h> // c\n", "# /* x */ include <a//b.h> \n"},
	{"#define X 1 /* a\n b */\n", "#define X 1 /*\n*/\n"},
	{"#define X 1 /* a\n b */ + 2\n", "#define X 1 /* a\n b */ + 2\n"},
	{"// a \\\n b\nint x;", "// a \\\n b\nint x;"},
	{"int x; /\\\n* c */", "int x; /\\\n* c */"},
	{"int x; /* c *\\\n/ */\n", "int x; /* c *\\\n/ */\n"},
	{"int x; /* c *\\\n\\\r\n/ */\n", "int x; /* c *\\\n\\\r\n/ */\n"},
	{"int x; /* *skb*\\\n * more */\n", "int x; /*\n*/\n"},
	{"x //\\\n/ c\n", "x //\\\n/ c\n"},
	{"char *s = \"a\\\"/*\"; /* c */", "char *s = \"a\\\"/*\"; /* c */"},
	{"'unterminated /* c */\n", "'unterminated /* c */\n"},
	{"/* unterminated", "/* unterminated"},
	{"x\r\n/* c */\r\ny // d\r\n", "x\r/*\n*/\ny \n"},
	{"a\n\n \t\n\nb", "a/*\n\n\n*/\nb"},
	{"a /\n\nb", "a /\n\nb"},
	{"\n\nx", "/*\n*/\nx"},
	{"#define X \\\n\n\nY", "#define X \\\n/*\n*/\nY"},
	{"\xef\xbb\xbf#include <a//b>\n", "\xef\xbb\xbf#include <a//b>\n"},
}

func TestStripCommentsCases(t *testing.T) {
	for _, c := range stripCases {
		if got := string(stripComments([]byte(c.in))); got != c.want {
			t.Errorf("%q:\ngot  %q\nwant %q", c.in, got, c.want)
		}
	}
}

// TestStripCommentsHeaders checks, on the system headers the corpus uses,
// that stripping keeps every line's length up to its first removed byte and
// the number of lines.
func TestStripCommentsHeaders(t *testing.T) {
	n, stripped, before, after := 0, 0, 0, 0
	for _, dir := range []string{"/usr/include/bpf", "/usr/include/linux", "/usr/include/asm-generic", "/usr/include/x86_64-linux-gnu/asm"} {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".h") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			s := stripComments(b)
			n++
			before += len(b)
			after += len(s)
			if !bytes.Equal(s, b) {
				stripped++
			}
			if bytes.Count(s, []byte("\n")) != bytes.Count(b, []byte("\n")) {
				t.Errorf("%s: line count changed", p)
			}
			return nil
		})
	}
	t.Logf("%d headers, %d stripped, %d -> %d bytes", n, stripped, before, after)
}

// FuzzStripComments checks that stripping never panics and keeps the number
// of lines.
func FuzzStripComments(f *testing.F) {
	for _, c := range stripCases {
		f.Add([]byte(c.in))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s := stripComments(b)
		if bytes.Count(s, []byte("\n")) != bytes.Count(b, []byte("\n")) {
			t.Errorf("%q -> %q: line count changed", b, s)
		}
	})
}
