package tests

import (
	"errors"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bpfcc/bpfcc"
	bdiag "github.com/bpfcc/bpfcc/diag"
	"github.com/bpfcc/bpfcc/frontend"
)

var (
	mutations = flag.Int("mutations", 300, "number of mutated corpus variants TestMutation compiles")
	mutSeed   = flag.Int64("mutseed", 1, "seed of TestMutation's pseudo-random mutations")
	mutDump   = flag.String("mutdump", "", "directory where TestMutation writes each failing variant")
	// A hang, not a slow compile: beyond the front end's last-resort
	// watchdog, so machine load never decides the verdict.
	mutDeadline = flag.Duration("mutdeadline", frontend.TranslateTimeout+time.Minute, "time after which one mutated compilation counts as a hang")
)

// TestMutation compiles deterministic pseudo-random mutations of the golden
// corpus (tokens and lines deleted, duplicated, swapped) and requires each to
// compile or fail with positioned diagnostics: no panic, no internal error,
// no compilation over -mutdeadline. go test ./tests -run TestMutation
// -mutations=10000 is the full run.
func TestMutation(t *testing.T) {
	corpus := loadCorpus(t)
	n := *mutations
	if testing.Short() {
		n = min(n, 50)
	}
	type job struct {
		i    int
		p    *program
		desc string
		src  []byte
	}
	jobs := make(chan job)
	var (
		mu       sync.Mutex
		failures []string
		stats    = map[string]int{}
	)
	var wg sync.WaitGroup
	for w := 0; w < max(1, runtime.GOMAXPROCS(0)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				kind, problem := checkMutant(j.p, j.src)
				mu.Lock()
				stats[kind]++
				if done := stats["ok"] + stats["diag"] + stats["bad"]; done%1000 == 0 {
					t.Logf("%d/%d variants, %d failed checks so far", done, n, len(failures))
				}
				if problem != "" {
					name := fmt.Sprintf("mut%05d_%s", j.i, j.p.Name)
					failures = append(failures, fmt.Sprintf("%s (%s, %s): %s", name, j.p.Path, j.desc, problem))
					dumpMutant(t, name, j.src, j.desc, problem)
				}
				mu.Unlock()
			}
		}()
	}
	for i := 0; i < n; i++ {
		r := rand.New(rand.NewSource(*mutSeed*1_000_003 + int64(i)))
		p := corpus[r.Intn(len(corpus))]
		src, desc := mutate(r, p.Source)
		jobs <- job{i, p, desc, src}
	}
	close(jobs)
	wg.Wait()
	t.Logf("%d variants: %d compiled, %d rejected with positioned diagnostics, %d failed checks",
		n, stats["ok"], stats["diag"], len(failures))
	sort.Strings(failures)
	for _, f := range failures {
		t.Error(f)
	}
}

// checkMutant compiles one variant; kind is "ok", "diag" or "bad", problem
// says what is wrong ("" when nothing is).
func checkMutant(p *program, src []byte) (kind, problem string) {
	opts := bpfccOptions(p)
	opts.Source = src
	done := make(chan error, 1)
	go func() {
		_, err := bpfcc.Compile(p.Path, opts)
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(*mutDeadline):
		return "bad", fmt.Sprintf("compilation still running after %v (hang)", *mutDeadline)
	}
	if err == nil {
		return "ok", ""
	}
	if problem := diagProblem(err); problem != "" {
		return "bad", problem
	}
	return "diag", ""
}

// diagProblem checks that err is a non-empty list of positioned diagnostics
// that reports no compiler bug; it returns "" when so.
func diagProblem(err error) string {
	if errors.Is(err, bpfcc.ErrInternal) {
		return "internal error: " + err.Error()
	}
	var dl bdiag.List
	if !errors.As(err, &dl) {
		return fmt.Sprintf("error is not a diagnostic list (%T): %v", err, err)
	}
	if !dl.HasErrors() {
		return "error list holds no error: " + dl.Error()
	}
	for _, d := range dl {
		switch {
		case strings.Contains(d.Msg, "internal compiler error") || strings.Contains(d.Msg, "goroutine "):
			return "compiler bug reported as a diagnostic: " + d.String()
		case d.File == "" || d.Line <= 0:
			return "diagnostic without a position: " + d.String()
		case strings.Contains(d.Msg, "TODO") || strings.Contains(d.Msg, ".go:"):
			return "diagnostic leaks front-end internals: " + d.String()
		}
	}
	return ""
}

// dumpMutant writes a failing variant to -mutdump, if set.
func dumpMutant(t *testing.T, name string, src []byte, desc, problem string) {
	if *mutDump == "" {
		return
	}
	if err := os.MkdirAll(*mutDump, 0o755); err != nil {
		t.Error(err)
		return
	}
	head := fmt.Sprintf("// mutation: %s\n// problem: %s\n", desc, firstLineOf(problem))
	if err := os.WriteFile(filepath.Join(*mutDump, name+".c"), append([]byte(head), src...), 0o644); err != nil {
		t.Error(err)
	}
}

func firstLineOf(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// mutate applies one to three random edits to src and describes them.
func mutate(r *rand.Rand, src []byte) ([]byte, string) {
	s := string(src)
	var descs []string
	for k := 1 + r.Intn(3); k > 0; k-- {
		var d string
		if r.Intn(2) == 0 {
			s, d = mutateTokens(r, s)
		} else {
			s, d = mutateLines(r, s)
		}
		descs = append(descs, d)
	}
	return []byte(s), strings.Join(descs, "; ")
}

// mutateLines deletes, duplicates or swaps whole lines.
func mutateLines(r *rand.Rand, s string) (string, string) {
	lines := strings.Split(s, "\n")
	if len(lines) < 2 {
		return s, "no line edit"
	}
	i, j := r.Intn(len(lines)), r.Intn(len(lines))
	var d string
	switch r.Intn(3) {
	case 0:
		lines = append(lines[:i:i], lines[i+1:]...)
		d = fmt.Sprintf("delete line %d", i+1)
	case 1:
		lines = append(lines[:i+1:i+1], lines[i:]...)
		d = fmt.Sprintf("duplicate line %d", i+1)
	default:
		lines[i], lines[j] = lines[j], lines[i]
		d = fmt.Sprintf("swap lines %d and %d", i+1, j+1)
	}
	return strings.Join(lines, "\n"), d
}

// mutateTokens deletes, duplicates or swaps tokens (adjacent or not).
func mutateTokens(r *rand.Rand, s string) (string, string) {
	toks := cTokens(s)
	var idx []int // indices of non-space tokens
	for i, t := range toks {
		if strings.TrimSpace(t) != "" {
			idx = append(idx, i)
		}
	}
	if len(idx) < 2 {
		return s, "no token edit"
	}
	k := r.Intn(len(idx))
	i := idx[k]
	var d string
	switch r.Intn(4) {
	case 0:
		d = fmt.Sprintf("delete token %q", toks[i])
		toks[i] = ""
	case 1:
		d = fmt.Sprintf("duplicate token %q", toks[i])
		toks[i] = toks[i] + " " + toks[i]
	case 2:
		j := idx[(k+1)%len(idx)]
		d = fmt.Sprintf("swap adjacent tokens %q and %q", toks[i], toks[j])
		toks[i], toks[j] = toks[j], toks[i]
	default:
		j := idx[r.Intn(len(idx))]
		d = fmt.Sprintf("swap tokens %q and %q", toks[i], toks[j])
		toks[i], toks[j] = toks[j], toks[i]
	}
	return strings.Join(toks, ""), d
}

// cTokens splits C source into tokens, keeping whitespace and comments as
// tokens of their own so that joining them gives the source back.
func cTokens(s string) []string {
	var out []string
	for len(s) > 0 {
		n := cTokenLen(s)
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

func cTokenLen(s string) int {
	c := s[0]
	switch {
	case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		n := 1
		for n < len(s) && (s[n] == ' ' || s[n] == '\t' || s[n] == '\n' || s[n] == '\r') {
			n++
		}
		return n
	case strings.HasPrefix(s, "//"):
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			return i
		}
		return len(s)
	case strings.HasPrefix(s, "/*"):
		if i := strings.Index(s[2:], "*/"); i >= 0 {
			return i + 4
		}
		return len(s)
	case c == '"' || c == '\'':
		for n := 1; n < len(s); n++ {
			switch s[n] {
			case '\\':
				n++
			case c, '\n':
				return n + 1
			}
		}
		return len(s)
	case isIdentByte(c):
		n := 1
		for n < len(s) && isIdentByte(s[n]) {
			n++
		}
		return n
	}
	for _, p := range []string{"<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##"} {
		if strings.HasPrefix(s, p) {
			return len(p)
		}
	}
	return 1
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// TestCTokens pins the tokenizer the mutations rely on: joining its tokens
// gives the source back.
func TestCTokens(t *testing.T) {
	src := "int x = a->b << 2; // c\n/* d */ char *s = \"a\\\"b\"; x <<= 'c';"
	toks := cTokens(src)
	if got := strings.Join(toks, ""); got != src {
		t.Fatalf("round trip: %q", got)
	}
	var words []string
	for _, tk := range toks {
		if strings.TrimSpace(tk) != "" {
			words = append(words, tk)
		}
	}
	want := []string{"int", "x", "=", "a", "->", "b", "<<", "2", ";", "// c", "/* d */", "char", "*", "s", "=", `"a\"b"`, ";", "x", "<<=", "'c'", ";"}
	if fmt.Sprint(words) != fmt.Sprint(want) {
		t.Errorf("tokens %q\nwant   %q", words, want)
	}
}
