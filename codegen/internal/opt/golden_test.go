package opt

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc/ir"
)

var update = flag.Bool("update", false, "rewrite testdata/PASS/*.out.ir from the passes' output")

// TestPassGoldens runs each pass alone on testdata/PASS/*.ir and compares
// the functions it leaves with *.out.ir (go test -update rewrites them;
// review the diff). A "# cpu: N" or "# opt: N" line sets the CPU (default
// 3) or optimisation level (default 2). Needs no root: nothing is loaded.
func TestPassGoldens(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "*", "*.ir"))
	if err != nil {
		t.Fatal(err)
	}
	tested := map[string]bool{}
	for _, in := range inputs {
		if strings.HasSuffix(in, ".out.ir") {
			continue
		}
		name := filepath.Base(filepath.Dir(in))
		tested[name] = true
		t.Run(name+"/"+strings.TrimSuffix(filepath.Base(in), ".ir"), func(t *testing.T) {
			text, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := runPassText(name, string(text))
			if err != nil {
				t.Fatal(err)
			}
			out := strings.TrimSuffix(in, ".ir") + ".out.ir"
			if *update {
				if err := os.WriteFile(out, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(out)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs (go test -update rewrites it):\ngot:\n%s\nwant:\n%s", out, got, want)
			}
		})
	}
	if len(tested) == 0 {
		t.Fatal("no testdata/PASS/*.ir")
	}
}

// runPassText parses text, runs the pass named name over it as Run would
// (a loop entry with its body) and prints the functions.
func runPassText(name, text string) (string, error) {
	m, err := ir.Parse(text)
	if err != nil {
		return "", err
	}
	cfg := Config{CPU: directive(text, "cpu", 3), OptLevel: directive(text, "opt", 2)}
	p, ok := findPass(passes, name)
	if !ok {
		return "", fmt.Errorf("no pass %q", name)
	}
	c := &passCtx{cpu: cfg.CPU, optLevel: cfg.OptLevel, consts: foldableGlobals(m.Globals), externs: map[string]bool{}}
	for _, g := range m.Globals {
		if g.Extern {
			c.externs[g.Name] = true
		}
	}
	r := runner{cfg: cfg, c: c, m: m}
	if p.mod != nil {
		if err := p.mod(m, c); err != nil {
			return "", err
		}
	} else {
		for _, f := range m.Funcs {
			if err := r.funcPasses(f, []pass{p}); err != nil {
				return "", err
			}
		}
	}
	var sb strings.Builder
	for i, f := range m.Funcs {
		if err := ir.Check(f); err != nil {
			return "", err
		}
		if i > 0 {
			sb.WriteString("\n")
		}
		sb.WriteString(f.String())
	}
	return sb.String(), nil
}

func findPass(ps []pass, name string) (pass, bool) {
	for _, p := range ps {
		if p.name == name {
			return p, true
		}
		if q, ok := findPass(p.body, name); ok {
			return q, true
		}
	}
	return pass{}, false
}

// directive reads "# key: N" from text.
func directive(text, key string, def int) int {
	for _, l := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(l, "# "+key+": "); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
				return n
			}
		}
	}
	return def
}
