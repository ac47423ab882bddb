package tests

// End-to-end tests of DWARF-bound handler arguments (issue 3): handlers whose
// extra parameters are bound to a traced program's variables are compiled
// with bpfcc.Compile, loaded and attached by runtime.Run around the target,
// and the values they record are compared with gdb's at the same addresses.
//
// The targets are tests/dwarf/target.c built with gcc -g at -O0, -O1, -O2
// (non-PIE), gcc -O2 PIE, and clang-19 -O2 when installed, and the
// multi-CU target tests/dwarf/multi (static functions of one name in two
// units, cross-unit globals, a header's inline helper inlined in two
// units) linked whole (gcc -O0, gcc -O2 PIE, clang-19 -O2) and as a shared
// library traced by its own path. The probes use
// every probe form (FUNC, FUNC:RLN, FILE.c:LINE, FUNC+OFF, FUNC%return);
// the handlers bind every scalar variable dwarfvars lists at each site plus
// member paths, globals and $retval, half of them through SEC("config") and
// half through --probe/--bind.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc"
	"github.com/bpfcc/bpfcc/dwarfvars"
)

const dwGDB = "/usr/bin/gdb"

// dwArg is the argv[1] every target run gets; the traced functions see
// values derived from it.
const dwArg = "4"

var dwTargetSrc = filepath.Join("dwarf", "target.c")

// dwBuild is one build of the target.
type dwBuild struct {
	// path is the traced binary (the shared library for a library build),
	// exe what runs (path when empty).
	name, path, exe string
	// multi marks builds of the multi-CU target (tests/dwarf/multi).
	multi bool
	// probes, when set, gives the probes of another target.
	probes func(testing.TB, *dwarfvars.Binary) []dwProbe
	// gdbEx are gdb commands run first (set language c for Go targets,
	// whose expressions are written in C: a->Total, s.len).
	gdbEx []string
	// env is the traced program's environment under gdb and bpfcc alike
	// (GODEBUG=asyncpreemptoff=1 for Go targets: a preemption signal that
	// arrives while gdb holds the program at a breakpoint makes it hit
	// the breakpoint twice).
	env []string
	// movingHeap: heap addresses differ between two runs (Go's allocator),
	// so pointer values are not compared, only what is read through them.
	movingHeap bool
	// args are the command's arguments (nil: dwArg).
	args []string
	// nullReads: real software, whose members are read through pointers
	// that are NULL at some hits: a failed read is then no error by
	// itself, its 0 is compared with gdb's answer like any value. Stack
	// arguments at a function's first instruction are not compared either
	// (see dwCheckBuild: gdb reads clang's rsp frame base there literally).
	nullReads bool
}

func (b dwBuild) run() string {
	if b.exe != "" {
		return b.exe
	}
	return b.path
}

// argv is the traced command: run() and its arguments (dwArg unless args
// says otherwise).
func (b dwBuild) argv() []string {
	if b.args != nil {
		return append([]string{b.run()}, b.args...)
	}
	return []string{b.run(), dwArg}
}

// dwRequireGCC skips (or fails in CI) without gcc.
func dwRequireGCC(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("gcc")
	if err != nil {
		skipOrFail(t, "gcc not installed: the DWARF targets are built with gcc -g")
	}
	return p
}

// dwRequireE2E skips (or fails in CI) unless the kernel, gdb and gcc are
// there.
func dwRequireE2E(t testing.TB) {
	t.Helper()
	requireKernel(t)
	if _, err := os.Stat(dwGDB); err != nil {
		skipOrFail(t, "gdb (the oracle) not found at %s", dwGDB)
	}
	if _, err := exec.LookPath("setarch"); err != nil {
		skipOrFail(t, "setarch not found: needed to run the target with ASLR off, as gdb does")
	}
	dwRequireGCC(t)
}

// dwTargets builds the target variants into the test's temporary directory.
func dwTargets(t testing.TB) []dwBuild {
	t.Helper()
	gcc := dwRequireGCC(t)
	dir := t.TempDir()
	src, err := filepath.Abs(dwTargetSrc)
	if err != nil {
		t.Fatal(err)
	}
	type recipe struct {
		name string
		cc   string
		args []string
	}
	rs := []recipe{
		{"gcc-O0", gcc, []string{"-g", "-O0", "-no-pie"}},
		{"gcc-O1", gcc, []string{"-g", "-O1", "-no-pie"}},
		{"gcc-O2", gcc, []string{"-g", "-O2", "-no-pie"}},
		{"gcc-O2-pie", gcc, []string{"-g", "-O2", "-fPIE", "-pie"}},
	}
	if c := clangPath(); c != "" {
		rs = append(rs, recipe{"clang19-O2", c, []string{"-g", "-O2"}})
	} else {
		t.Logf("clang-19 not installed: only gcc builds are traced")
	}
	var builds []dwBuild
	for _, r := range rs {
		out := filepath.Join(dir, "target-"+r.name)
		args := append(append([]string{}, r.args...), "-o", out, src)
		if b, err := exec.Command(r.cc, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", r.cc, strings.Join(args, " "), err, b)
		}
		builds = append(builds, dwBuild{name: r.name, path: out})
	}
	return builds
}

// dwBuildVariant builds the target with other flags (for diagnostics).
func dwBuildVariant(t testing.TB, name string, args ...string) string {
	t.Helper()
	gcc := dwRequireGCC(t)
	src, err := filepath.Abs(dwTargetSrc)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), name)
	a := append(append([]string{}, args...), "-o", out, src)
	if b, err := exec.Command(gcc, a...).CombinedOutput(); err != nil {
		t.Fatalf("gcc %s: %v\n%s", strings.Join(a, " "), err, b)
	}
	return out
}

// dwVar is one expression bound by a handler at a site.
type dwVar struct {
	expr  string
	param string // handler parameter name
	bd    *dwarfvars.Binding
}

// dwSite is one address a handler is attached to.
type dwSite struct {
	site dwarfvars.Site
	vars []dwVar
}

// dwHandler is one generated handler.
type dwHandler struct {
	id    int
	name  string
	probe string
	cli   bool // bound with --probe/--bind instead of SEC("config")
	sites []dwSite
	vars  []dwVar // the expressions, in parameter order (same at every site)
}

// dwRefusal is an expression bpfcc refused at a site.
type dwRefusal struct {
	site dwarfvars.Site
	expr string
	err  error
}

// dwCType is the handler parameter type for a traced variable's type.
func dwCType(ty *dwarfvars.Type) (string, bool) {
	if ty == nil || ty.Float {
		return "", false
	}
	switch ty.Kind {
	case dwarfvars.KindPointer:
		return "unsigned long", true
	case dwarfvars.KindBase, dwarfvars.KindEnum:
	default:
		return "", false
	}
	names := map[int][2]string{1: {"unsigned char", "signed char"}, 2: {"unsigned short", "short"}, 4: {"unsigned int", "int"}, 8: {"unsigned long", "long"}}
	n, ok := names[ty.Size]
	if !ok {
		return "", false
	}
	if ty.Signed {
		return n[1], true
	}
	return n[0], true
}

// dwKnownBugs are (build, site, expression) triples known to differ from gdb,
// with the reason; they are logged instead of failing, and a fix shows up as
// "known bug no longer reproduces".
var dwKnownBugs = map[string]string{}

// dwFigures accumulates what TestDWARFAgainstGDB compared.
type dwFigures struct {
	compared, matched, entryChecked, unverified, gaps, refusedOK int
	// unique (binary, site, expression) triples and how many of them
	// matched at every handler that binds them
	unique, uniqueMatched int
	// exprs says, per expression, whether it matched gdb at every site
	// and hit where it was bound; refused lists the refused expressions.
	exprs   map[string]bool
	refused map[string]error
}

func TestDWARFAgainstGDB(t *testing.T) {
	dwRequireE2E(t)
	builds := append(dwTargets(t), dwMultiTargets(t)...)
	var total dwFigures
	for _, bld := range builds {
		t.Run(bld.name, func(t *testing.T) {
			f := dwCheckBuild(t, bld)
			t.Logf("%s: %d distinct (binary, site, variable) triples, %d matched gdb", bld.name, f.unique, f.uniqueMatched)
			t.Logf("%s: %d (handler, site, variable) comparisons, %d matched gdb (%d of them read through DW_OP_entry_value), %d unverified (gdb had no value), %d refused by bpfcc though gdb printed a value, %d refused where gdb agrees there is none",
				bld.name, f.compared, f.matched, f.entryChecked, f.unverified, f.gaps, f.refusedOK)
			total.compared += f.compared
			total.unique += f.unique
			total.uniqueMatched += f.uniqueMatched
			total.matched += f.matched
			total.entryChecked += f.entryChecked
			total.unverified += f.unverified
			total.gaps += f.gaps
			total.refusedOK += f.refusedOK
		})
	}
	t.Logf("TOTAL: %d distinct (binary, site, variable) triples, %d matched gdb at every hit; %d handler comparisons, %d matched (%d read through entry values), %d unverified, %d gaps, %d agreed refusals",
		total.unique, total.uniqueMatched, total.compared, total.matched, total.entryChecked, total.unverified, total.gaps, total.refusedOK)
}

func dwCheckBuild(t *testing.T, bld dwBuild) dwFigures {
	fig := dwFigures{exprs: map[string]bool{}, refused: map[string]error{}}
	b, err := dwarfvars.Open(bld.path)
	if err != nil {
		t.Fatalf("dwarfvars.Open: %v", err)
	}
	defer b.Close()
	probesFn := dwProbes
	if bld.multi {
		probesFn = func(t testing.TB, b *dwarfvars.Binary) []dwProbe { return dwMultiProbes(t, b, bld.exe != "") }
	}
	if bld.probes != nil {
		probesFn = bld.probes
	}
	hs, refused := dwPlan(t, b, probesFn(t, b))
	if len(hs) == 0 {
		t.Fatal("no handlers planned")
	}
	src, probes, binds := dwHandlerSource(hs)
	hpath := filepath.Join(t.TempDir(), "handlers_"+bld.name+".c")
	if err := os.WriteFile(hpath, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := bpfcc.Compile(hpath, bpfcc.Options{Binary: bld.path, Probes: probes, Binds: binds})
	if err != nil {
		t.Fatalf("compile of the generated handlers (%s) failed: %v\n--- source:\n%s\nprobes %q\nbinds %q", hpath, err, src, probes, binds)
	}
	// Every handler site is a program of its own (NAME or NAME_k).
	nprog := 0
	for _, h := range hs {
		nprog += len(h.sites)
	}
	if got := dwCountSitePrograms(res, hs); got != nprog {
		t.Errorf("object has %d handler programs, want %d", got, nprog)
	}

	// gdb breakpoints: every site, with every expression some handler binds
	// there or bpfcc refused there.
	gsites := map[string]*dwGDBSite{}
	entries := map[string]*dwGDBSite{}
	addExpr := func(m map[string]*dwGDBSite, id, loc, fn string, ret bool, e string) {
		g := m[id]
		if g == nil {
			g = &dwGDBSite{ID: id, Loc: loc, Func: fn, Ret: ret}
			m[id] = g
		}
		for _, x := range g.Exprs {
			if x == e {
				return
			}
		}
		g.Exprs = append(g.Exprs, e)
	}
	siteLoc := func(s dwarfvars.Site) string {
		if s.Return {
			return "*" + dwGDBFunc(s)
		}
		return fmt.Sprintf("*%s+%d", dwGDBFunc(s), s.FuncOffset)
	}
	for _, h := range hs {
		for _, s := range h.sites {
			for _, v := range s.vars {
				addExpr(gsites, dwSiteID(s.site), siteLoc(s.site), dwFuncKey(s.site), s.site.Return, v.expr)
				if v.bd.Loc.UsesEntryValue() || v.bd.Entry != nil {
					addExpr(entries, dwFuncKey(s.site), "*"+dwGDBFunc(s.site), dwFuncKey(s.site), false, v.expr)
				}
			}
		}
	}
	for _, r := range refused {
		addExpr(gsites, dwSiteID(r.site), siteLoc(r.site), dwFuncKey(r.site), r.site.Return, r.expr)
	}
	var gl, el []dwGDBSite
	for _, k := range dwSortedKeys(gsites) {
		gl = append(gl, *gsites[k])
	}
	for _, k := range dwSortedKeys(entries) {
		el = append(el, *entries[k])
	}
	grecs, err := dwRunGDB(t, bld.argv(), bld.exe != "", gl, el, bld.env, bld.gdbEx...)
	if err != nil {
		t.Fatal(err)
	}
	brecs, readErrs, err := dwRunBPF(t, res, bld.argv(), bld.env...)
	if err != nil {
		t.Fatalf("runtime.Run: %v", err)
	}
	if readErrs != "" && bld.nullReads {
		t.Logf("failed tracee reads counted: %s", readErrs)
	} else if readErrs != "" {
		t.Errorf("failed tracee reads counted: %s", readErrs)
	}

	uniq := map[string]bool{}
	for _, h := range hs {
		for _, s := range h.sites {
			sid := dwSiteID(s.site)
			g := grecs[sid]
			if len(g) == 0 {
				t.Errorf("%s (%s at %s): gdb never reached the site", h.name, h.probe, sid)
				continue
			}
			ip := g[0].PC
			if s.site.Return {
				ip = 0
			}
			bh := brecs[[2]uint64{uint64(h.id), ip}]
			if len(bh) != len(g) {
				t.Errorf("%s (%s at %s, ip %#x): handler ran %d times, gdb stopped %d times", h.name, h.probe, sid, ip, len(bh), len(g))
			}
			for vi, v := range s.vars {
				key := fmt.Sprintf("%s %s %s", bld.name, sid, v.expr)
				fig.compared++
				ok, viaEntry, unverified, why := dwCompare(g, bh, vi, v)
				if dwUninitialized(s.site, v) && !ok {
					// Read before its declaration line ran: what is in its
					// stack slot is left over from earlier calls, and a
					// uretprobe's return trampoline (which pushes registers
					// below the stack pointer) leaves other leftovers than
					// gdb's run has.
					ok, unverified, why = false, true, "uninitialized here: "+why
				}
				if bld.nullReads && !ok && !unverified && s.site.Addr == s.site.EntryAddr && strings.Contains(v.bd.Describe(), "CFA") {
					// At a function's first instruction gdb evaluates a
					// frame base that clang gives as rsp literally, before
					// the prologue moved rsp (DW_OP_fbreg 88 = rsp+88);
					// bpfcc rebases it on the CFA and reads the stack
					// argument itself.
					ok, unverified, why = false, true, "gdb reads rsp-based frame base before the prologue: "+why
				}
				if bld.movingHeap && v.bd.Type.Kind == dwarfvars.KindPointer && !ok && !unverified {
					ok, unverified, why = false, true, "a heap address, which differs between runs: "+why
				}
				if prev, seen := uniq[key]; !seen || prev {
					uniq[key] = ok && !unverified
				}
				if prev, seen := fig.exprs[v.expr]; !seen || prev {
					fig.exprs[v.expr] = ok && !unverified
				}
				switch {
				case unverified:
					fig.unverified++
					t.Logf("unverified %s (%s): %s", key, v.bd.Describe(), why)
				case ok:
					fig.matched++
					if viaEntry || v.bd.Loc.UsesEntryValue() {
						fig.entryChecked++
					}
					if r, known := dwKnownBugs[key]; known {
						t.Errorf("known bug no longer reproduces (remove it from dwKnownBugs): %s: %s", key, r)
					}
				default:
					if r, known := dwKnownBugs[key]; known {
						t.Logf("KNOWN BUG %s: %s (%s): %s", key, r, v.bd.Describe(), why)
					} else {
						t.Errorf("MISMATCH %s, handler %s probe %q, binding %s: %s", key, h.name, h.probe, v.bd.Describe(), why)
					}
				}
			}
		}
	}
	for _, ok := range uniq {
		fig.unique++
		if ok {
			fig.uniqueMatched++
		}
	}
	// What bpfcc refused: gdb must agree there is no value, or it is a gap;
	// either way compiling a handler that binds it gives a positioned
	// diagnostic naming the handler, the probe and the expression.
	for i, r := range refused {
		if i < 12 || testing.Verbose() {
			t.Run(fmt.Sprintf("refusal-%d", i), func(t *testing.T) {
				spec := r.site.OffsetSpec()
				named := fmt.Sprintf("%s+%#x", r.site.Func, r.site.FuncOffset) // as the site is shown
				if r.site.Return {
					named = r.site.Func + "%return"
				}
				_, p, err := dwCompileOne(t, dwOneHandler("prog: "+spec+" a="+r.expr, "a"), bpfcc.Options{Binary: bld.path})
				// The diagnostic names the root variable (for s.a.b, "s").
				root := regexp.MustCompile(`^[*&]*([$\w]+)`).FindStringSubmatch(r.expr)[1]
				dwExpectDiag(t, err, p, `"prog"`, named, root)
			})
		}

	}
	for _, r := range refused {
		fig.refused[r.expr] = r.err
		g := grecs[dwSiteID(r.site)]
		printed := ""
		for _, rec := range g {
			if v := rec.Vals[r.expr]; v != "" && v != "optimized out" && !strings.HasPrefix(v, "error") {
				printed = v
				break
			}
		}
		if printed != "" {
			fig.gaps++
			t.Logf("GAP %s %s %s: bpfcc refuses (%v) but gdb prints %s", bld.name, dwSiteID(r.site), r.expr, r.err, printed)
		} else {
			fig.refusedOK++
		}
	}
	return fig
}

func dwCountSitePrograms(res *bpfcc.Result, hs []*dwHandler) int {
	re := regexp.MustCompile(`^h\d+(_\d+)?$`)
	n := 0
	for name, ps := range res.Spec.Programs {
		if re.MatchString(name) && (strings.HasPrefix(ps.SectionName, "uprobe") || strings.HasPrefix(ps.SectionName, "uretprobe")) {
			n++
		}
	}
	return n
}

// dwCompare compares one bound expression over all hits of a site.
func dwCompare(g []dwGDBRec, bh map[uint64]map[int]uint64, vi int, v dwVar) (ok, viaEntry, unverified bool, why string) {
	var bad []string
	noMemory := ""
	for j, rec := range g {
		got, have := bh[uint64(j)][vi]
		if !have {
			bad = append(bad, fmt.Sprintf("hit %d: no value recorded", j))
			continue
		}
		want := rec.Vals[v.expr]
		if strings.HasPrefix(want, "error: Cannot access memory") {
			// A member through a NULL pointer: bpfcc's read fails and
			// gives 0; the other hits are still compared.
			if got != 0 {
				bad = append(bad, fmt.Sprintf("hit %d: gdb cannot read the memory, bpfcc %#x", j, got))
			} else if noMemory == "" {
				noMemory = fmt.Sprintf("gdb says %q at hit %d, bpfcc read 0", want, j)
			}
			continue
		}
		if want == "optimized out" || strings.HasPrefix(want, "error") {
			// gdb has no value at the site. An entry-value binding of a
			// parameter is checked against gdb's value at function entry.
			if (v.bd.Loc.UsesEntryValue() || v.bd.Entry != nil) && v.bd.Var.Kind == dwarfvars.VarParam && rec.Entry != nil {
				if ev := rec.Entry[v.expr]; ev != "" && ev != "optimized out" && !strings.HasPrefix(ev, "error") {
					want, viaEntry = ev, true
				}
			}
			if !viaEntry {
				return false, false, true, fmt.Sprintf("gdb says %q at hit %d, bpfcc read %#x", want, j, got)
			}
		}
		w, err := strconv.ParseUint(want, 16, 64)
		if err != nil {
			bad = append(bad, fmt.Sprintf("hit %d: gdb value %q", j, want))
			continue
		}
		if mask := dwMask(v.bd.Type); got&mask != w&mask || w != got {
			bad = append(bad, fmt.Sprintf("hit %d: bpfcc %#x, gdb %#x", j, got, w))
		}
	}
	if len(bad) > 0 {
		return false, viaEntry, false, strings.Join(bad, "; ")
	}
	if noMemory != "" {
		return false, viaEntry, true, noMemory
	}
	return true, viaEntry, false, ""
}

// dwUninitialized reports whether a bound local is read on a line before
// its declaration (with its initializer) has run.
func dwUninitialized(s dwarfvars.Site, v dwVar) bool {
	x := v.bd.Var
	if x.Kind != dwarfvars.VarLocal {
		return false
	}
	// At a function's entry probe none of the body has run: a local in a
	// stack slot holds what an earlier call left there (lua_pushfstring's
	// "const char *ret;" at gcc -O0 read 0 in gdb's run and a heap
	// address in bpfcc's), and so does what is read through it (cJSON_Delete's
	// "next->prev" at gcc -O0: a stale pointer into a chunk free() had
	// put in the tcache, whose key word is random per process).
	if s.Probe.Kind == dwarfvars.ProbeFunc && !s.Return && v.bd.ReadsMemory() {
		return true
	}
	if strings.ContainsAny(v.expr, ".-[") {
		return false
	}
	return x.DeclLine > 0 && s.Line > 0 && s.Line <= x.DeclLine &&
		(x.DeclFile == "" || filepath.Base(x.DeclFile) == filepath.Base(s.File))
}

func dwMask(ty *dwarfvars.Type) uint64 {
	if ty == nil || ty.Size >= 8 || ty.Size <= 0 {
		return ^uint64(0)
	}
	return 1<<(8*uint(ty.Size)) - 1
}

func dwSortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
