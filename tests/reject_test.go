package tests

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bpfcc/bpfcc"
)

// rejectCase is one tests/reject/NAME.c.
type rejectCase struct {
	Name       string
	Path       string
	Source     []byte
	Errors     []wantDiag
	ClangError bool // CLANG: error — clang's front end rejects it too
}

// wantDiag is an ERROR: LINE[:COL]: TEXT directive.
type wantDiag struct {
	DirectiveLine int
	Line, Col     int // Col 0: any column
	Text          string
}

// diag is one diagnostic parsed from the compiler's error text.
type diag struct {
	File      string
	Line, Col int
	Severity  string
	Msg       string
}

var (
	errorDirectiveRE = regexp.MustCompile(`^\s*//\s*ERROR:\s*(\d+)(?::(\d+))?:\s*(.+?)\s*$`)
	clangDirectiveRE = regexp.MustCompile(`^\s*//\s*CLANG:\s*(\S+)\s*$`)
	diagRE           = regexp.MustCompile(`^(.*?):(\d+):(\d+): (error|warning|note): (.*)$`)
)

func loadRejects(t testing.TB) []*rejectCase {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("reject", "*.c"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no programs in reject/")
	}
	sort.Strings(paths)
	var out []*rejectCase
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		r, err := parseReject(p, src)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func parseReject(path string, src []byte) (*rejectCase, error) {
	r := &rejectCase{Name: strings.TrimSuffix(filepath.Base(path), ".c"), Path: path, Source: src}
	lines := strings.Split(string(src), "\n")
	sc := bufio.NewScanner(bytes.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		if m := clangDirectiveRE.FindStringSubmatch(sc.Text()); m != nil {
			if m[1] != "error" {
				return nil, fmt.Errorf("%s:%d: CLANG: only 'error' is known", path, n)
			}
			r.ClangError = true
			continue
		}
		m := errorDirectiveRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		d := wantDiag{DirectiveLine: n, Text: m[3]}
		d.Line, _ = strconv.Atoi(m[1])
		if m[2] != "" {
			d.Col, _ = strconv.Atoi(m[2])
		}
		// The position must point at code, so a renumbering edit is caught.
		if d.Line < 1 || d.Line > len(lines) {
			return nil, fmt.Errorf("%s:%d: ERROR names line %d, file has %d", path, n, d.Line, len(lines))
		}
		code := lines[d.Line-1]
		if t := strings.TrimSpace(code); t == "" || strings.HasPrefix(t, "//") {
			return nil, fmt.Errorf("%s:%d: ERROR names line %d, which is blank or a comment", path, n, d.Line)
		}
		if d.Col > len(code) {
			return nil, fmt.Errorf("%s:%d: ERROR names column %d, line %d has %d", path, n, d.Col, d.Line, len(code))
		}
		r.Errors = append(r.Errors, d)
	}
	if len(r.Errors) == 0 {
		return nil, fmt.Errorf("%s: no ERROR directive", path)
	}
	return r, nil
}

// parseDiags extracts file:line:col: severity: msg lines from an error text;
// other lines (source excerpts, carets, hints) are ignored.
func parseDiags(text string) []diag {
	var out []diag
	for _, l := range strings.Split(text, "\n") {
		m := diagRE.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		d := diag{File: m[1], Severity: m[4], Msg: m[5]}
		d.Line, _ = strconv.Atoi(m[2])
		d.Col, _ = strconv.Atoi(m[3])
		out = append(out, d)
	}
	return out
}

// matchDiag reports whether some error diagnostic in ds satisfies w.
func matchDiag(path string, w wantDiag, ds []diag) bool {
	for _, d := range ds {
		if d.Severity != "error" || d.Line != w.Line || (w.Col != 0 && d.Col != w.Col) {
			continue
		}
		if filepath.Base(d.File) != filepath.Base(path) {
			continue
		}
		if strings.Contains(d.Msg, w.Text) {
			return true
		}
	}
	return false
}

// TestReject compiles each reject/*.c with bpfcc and requires the
// diagnostics its ERROR lines name.
func TestReject(t *testing.T) {
	for _, r := range loadRejects(t) {
		t.Run(r.Name, func(t *testing.T) {
			res, err := bpfcc.Compile(r.Path, bpfcc.Options{})
			if err == nil {
				t.Fatalf("%s compiled (%d-byte object); want an error", r.Path, len(res.Object))
			}
			text := err.Error()
			if strings.Contains(text, "panic") || strings.Contains(text, "goroutine ") {
				t.Errorf("the compiler panicked on %s:\n%s", r.Path, text)
			}
			ds := parseDiags(text)
			if len(ds) == 0 {
				t.Fatalf("error has no file:line:col: error: diagnostic:\n%s", text)
			}
			for _, w := range r.Errors {
				if !matchDiag(r.Path, w, ds) {
					pos := strconv.Itoa(w.Line)
					if w.Col != 0 {
						pos += ":" + strconv.Itoa(w.Col)
					}
					t.Errorf("%s:%d: want error at %s containing %q; got:\n%s", r.Path, w.DirectiveLine, pos, w.Text, text)
				}
			}
		})
	}
}

// TestParseDiags pins the diagnostic format the reject test relies on.
func TestParseDiags(t *testing.T) {
	text := "reject/x.c:3:9: error: floating point is not supported\n" +
		"    3 | double d = 1.0;\n" +
		"      |        ^\n" +
		"reject/x.c:7:1: warning: unused\n" +
		"bpfcc: 1 error\n"
	ds := parseDiags(text)
	if len(ds) != 2 {
		t.Fatalf("parsed %d diagnostics, want 2: %+v", len(ds), ds)
	}
	if d := ds[0]; d.File != "reject/x.c" || d.Line != 3 || d.Col != 9 || d.Severity != "error" || d.Msg != "floating point is not supported" {
		t.Errorf("first diagnostic %+v", d)
	}
	if !matchDiag("reject/x.c", wantDiag{Line: 3, Col: 9, Text: "floating point"}, ds) {
		t.Error("exact position does not match")
	}
	if !matchDiag("reject/x.c", wantDiag{Line: 3, Text: "floating"}, ds) {
		t.Error("line-only position does not match")
	}
	if matchDiag("reject/x.c", wantDiag{Line: 3, Col: 8, Text: "floating"}, ds) {
		t.Error("wrong column matched")
	}
	if matchDiag("reject/x.c", wantDiag{Line: 7, Text: "unused"}, ds) {
		t.Error("a warning matched an ERROR directive")
	}
}

// clangSyntaxOnly runs clang's front end on a reject file.
func clangSyntaxOnly(clang, path string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	args := []string{"-target", "bpf", "-fsyntax-only", "-I/usr/include/x86_64-linux-gnu", "-D__TARGET_ARCH_x86", path}
	if out, err := exec.CommandContext(ctx, clang, args...).CombinedOutput(); err != nil {
		return fmt.Errorf("%v\n%s", err, out)
	}
	return nil
}
