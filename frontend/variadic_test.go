package frontend

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc/include"
)

// regexpRewrite is the regexp formulation of rewriteNamedVariadics, the
// reference its byte scan must agree with.
func regexpRewrite(src []byte) []byte {
	defineRe := regexp.MustCompile(`(?m)^[ \t]*#[ \t]*define[ \t]+\w+\(([^)]*)\)(?:[^\n]*\\\n)*[^\n]*`)
	namedVariadic := regexp.MustCompile(`(\w+)[ \t]*\.\.\.[ \t]*$`)
	return defineRe.ReplaceAllFunc(src, func(def []byte) []byte {
		m := defineRe.FindSubmatchIndex(def)
		params := string(def[m[2]:m[3]])
		pm := namedVariadic.FindStringSubmatchIndex(params)
		if pm == nil {
			return def
		}
		name := params[pm[2]:pm[3]]
		body := regexp.MustCompile(`\b`+regexp.QuoteMeta(name)+`\b`).ReplaceAllString(string(def[m[3]:]), "__VA_ARGS__")
		return []byte(string(def[:m[2]]) + params[:pm[2]] + "..." + body)
	})
}

var variadicCases = []string{
	"#define bpf_printk(fmt, args...) ___bpf_pick_printk(args)(fmt, ##args)\n",
	"#define M(a, args ...) f(a, ##args, args2, xargs, args)\n",
	"  #  define\tM(args...)\\\n  g(args) \\\n  h(args)\nargs\n#define N(x...) x",
	"#define M(a,\n b...) b\n",
	"#define M(a...)) a\n",
	"#define M(a....) a\n",
	"#define M (a...) a\n",
	"#define M(...) __VA_ARGS__\n",
	"#define M(a, ...) a\n#define P(q...) q q q\r\n",
	"#define M(args...) args \\\r\n args\n",
	"#define M(args...) \\\n\\\n\nargs",
	"#define M(args...",
	"#define M(é, args...) args é\n",
	"#defineM(args...) args\n",
	"x #define M(args...) args\n",
	"#define M(args...) \"args\" 'args' args_ _args",
}

func TestRewriteNamedVariadicsCases(t *testing.T) {
	for _, c := range variadicCases {
		if got, want := rewriteNamedVariadics([]byte(c)), regexpRewrite([]byte(c)); !bytes.Equal(got, want) {
			t.Errorf("%q:\ngot  %q\nwant %q", c, got, want)
		}
	}
}

// TestRewriteNamedVariadicsHeaders checks the byte scan against the regexp
// on the embedded headers and every system header.
func TestRewriteNamedVariadicsHeaders(t *testing.T) {
	n, changed := 0, 0
	check := func(name string, b []byte) {
		n++
		got, want := rewriteNamedVariadics(b), regexpRewrite(b)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: byte scan and regexp disagree", name)
		}
		if !bytes.Equal(got, b) {
			changed++
		}
	}
	err := fs.WalkDir(include.CCFS(), include.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, err := fs.ReadFile(include.CCFS(), p)
		if err == nil {
			check(p, b)
		}
		return nil
	})
	if err != nil {
		t.Log(err)
	}
	for _, dir := range []string{"/usr/include/bpf", "/usr/include/linux", "/usr/include/asm-generic", "/usr/include/x86_64-linux-gnu/asm"} {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".h") {
				return nil
			}
			if b, err := os.ReadFile(p); err == nil {
				check(p, b)
			}
			return nil
		})
	}
	t.Logf("%d headers, %d rewritten", n, changed)
}

func FuzzRewriteNamedVariadics(f *testing.F) {
	for _, c := range variadicCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := rewriteNamedVariadics(b), regexpRewrite(b); !bytes.Equal(got, want) {
			t.Errorf("%q:\ngot  %q\nwant %q", b, got, want)
		}
	})
}
