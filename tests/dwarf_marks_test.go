package tests

// Probe markers in the DWARF targets' sources (/* @name */) and the probes of the end-to-end sweep.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc/dwarfvars"
)

// dwMarks finds the "/* @name */" probe markers and the declaration line of
// every function of the target sources (marker names are unique over the
// files; function declarations are per file: static functions of one name
// live in several).
type dwMarks struct {
	line map[string]int
	in   map[string]string         // marker -> file base name
	decl map[string]map[string]int // file base name -> function -> line
}

var dwMarkRE = regexp.MustCompile(`/\* @(\w+) \*/`)
var dwDeclRE = regexp.MustCompile(`^[a-z_].*?\b(\w+)\(`)
var dwAttrRE = regexp.MustCompile(`__attribute__\(\(.*?\)\)`)

func dwReadMarks(t testing.TB) dwMarks {
	return dwReadMarksFiles(t, dwTargetSrc)
}

func dwReadMarksFiles(t testing.TB, files ...string) dwMarks {
	t.Helper()
	m := dwMarks{line: map[string]int{}, in: map[string]string{}, decl: map[string]map[string]int{}}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(f)
		m.decl[base] = map[string]int{}
		for i, l := range strings.Split(string(src), "\n") {
			if s := dwMarkRE.FindStringSubmatch(l); s != nil {
				m.line[s[1]] = i + 1
				m.in[s[1]] = base
			}
			// A definition starts in column 0; attributes are not names.
			d := strings.TrimLeft(dwAttrRE.ReplaceAllString(l, ""), " ")
			if s := dwDeclRE.FindStringSubmatch(d); s != nil && dwDeclRE.MatchString(l) && !strings.HasSuffix(strings.TrimSpace(l), ";") {
				m.decl[base][s[1]] = i + 1
			}
		}
	}
	return m
}

// rel is FUNC:RLN of a marker's line (FUNC may be FUNC@SRC).
func (m dwMarks) rel(t testing.TB, fn, mark string) string {
	t.Helper()
	name, _, _ := strings.Cut(fn, "@")
	l, d := m.line[mark], m.decl[m.in[mark]][name]
	if l == 0 || d == 0 {
		t.Fatalf("marker @%s or function %s not found in %s", mark, fn, m.in[mark])
	}
	return fmt.Sprintf("%s:%d", fn, l-d)
}

func (m dwMarks) file(t testing.TB, mark string) string {
	t.Helper()
	if m.line[mark] == 0 {
		t.Fatalf("marker @%s not found", mark)
	}
	return fmt.Sprintf("%s:%d", m.in[mark], m.line[mark])
}

// dwProbe is one probe of the sweep with the expressions bound there beyond
// the variables dwarfvars lists.
type dwProbe struct {
	spec   string
	extras []string
}

func dwProbes(t testing.TB, b *dwarfvars.Binary) []dwProbe {
	m := dwReadMarks(t)
	ps := []dwProbe{
		{"params", nil},
		{m.rel(t, "loop_sum", "loop_body"), []string{"p->x", "p->y", "g_counter"}},
		{m.file(t, "nested_deep"), []string{"s_total"}},
		{m.rel(t, "use_struct", "struct_line"), []string{"o->a0", "o->a.b", "o->a.c", "o->arr[2]", "o->arr[k]", "s.a0", "s.a.b", "s.a.c", "s.arr[2]", "s.arr[k]", "g_counter"}},
		{m.file(t, "inline_line"), []string{"g_counter"}},
		{m.rel(t, "entryval", "entry_line"), nil},
		{m.rel(t, "constfold", "const_line"), nil},
		{m.rel(t, "entry2", "entry2_line"), nil},
		// "depth" is the global there (gdb prints 1000), not the
		// parameter of shadows_global that deeper() is inlined into.
		{m.file(t, "inline_global"), []string{"depth"}},
		// The first instruction, before an -O0 prologue: the stack-passed
		// a7 and a8 are at CFA+0 and CFA+8 already.
		{"eight+0x0", []string{"a7", "a8"}},
		{m.rel(t, "eight", "eight_line"), nil},
		{"loop_sum%return", nil},
		{"nested%return", nil},
	}
	// FUNC+OFF: the instruction of the nested block's line, found through the
	// line table (any instruction boundary would do).
	if p, err := dwarfvars.ParseProbe(m.file(t, "nested_deep")); err == nil {
		if sites, err := b.Resolve(p); err == nil && len(sites) > 0 {
			ps = append(ps, dwProbe{fmt.Sprintf("%s+%#x", sites[0].Func, sites[0].FuncOffset), []string{"s_total"}})
		}
	}
	return ps
}
