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
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
	"github.com/bpfcc/bpfcc/bind"
	bpfdiag "github.com/bpfcc/bpfcc/diag"
	"github.com/bpfcc/bpfcc/dwarfvars"
	"github.com/bpfcc/bpfcc/frontend"
	bpfrt "github.com/bpfcc/bpfcc/runtime"
	"github.com/cilium/ebpf"
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
		{m.rel(t, "use_struct", "struct_line"), []string{"o->a0", "o->a.b", "o->a.c", "o->arr[2]", "s.a0", "s.a.b", "s.a.c", "s.arr[2]", "g_counter"}},
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

// dwPlan decides the handlers for one build: for each probe, one handler
// with the spec itself binding what every site of it can bind, and when the
// spec gives several sites, one FUNC+OFF handler per site with all it can
// bind there.
func dwPlan(t testing.TB, b *dwarfvars.Binary, probes []dwProbe) ([]*dwHandler, []dwRefusal) {
	var hs []*dwHandler
	var refused []dwRefusal
	seenRefusal := map[string]bool{}
	bindAt := func(s dwarfvars.Site, extras []string) []dwVar {
		var cands []string
		seen := map[string]bool{}
		vs, err := b.Vars(s)
		if err != nil {
			t.Errorf("Vars(%s): %v", s, err)
		}
		for _, v := range vs {
			if v.Shadowed || seen[v.Name] || strings.HasPrefix(v.Name, "~") {
				// (Go's unnamed results ~r0 cannot be named.)
				continue
			}
			if _, ok := dwCType(v.Type); !ok {
				continue
			}
			seen[v.Name] = true
			cands = append(cands, v.Name)
		}
		for _, e := range extras {
			if !seen[e] {
				seen[e] = true
				cands = append(cands, e)
			}
		}
		var out []dwVar
		for _, c := range cands {
			e, err := dwarfvars.ParseExpr(c)
			if err != nil {
				t.Errorf("ParseExpr(%q): %v", c, err)
				continue
			}
			bd, err := b.Bind(s, e)
			if err != nil {
				key := fmt.Sprintf("%#x/%s", s.Addr, c)
				if !seenRefusal[key] {
					seenRefusal[key] = true
					refused = append(refused, dwRefusal{s, c, err})
				}
				continue
			}
			if _, ok := dwCType(bd.Type); !ok {
				continue
			}
			out = append(out, dwVar{expr: c, bd: bd})
		}
		return out
	}
	addOne := func(probe string, sites []dwarfvars.Site, per [][]dwVar, common []string) {
		dwAddHandler(&hs, probe, sites, per, common)
	}
	add := func(probe string, sites []dwarfvars.Site, per [][]dwVar) {
		// Keep the expressions bindable at every site, in the first site's order.
		var common []string
		for _, v := range per[0] {
			ok := true
			for _, o := range per[1:] {
				found := false
				for _, w := range o {
					found = found || w.expr == v.expr
				}
				ok = ok && found
			}
			if ok {
				common = append(common, v.expr)
			}
		}
		// lower rejects handlers with more than 5 C parameters even though
		// the bound ones are rewritten away (see TestDWARFKnownBugs), so at
		// most 4 expressions go into one handler.
		for len(common) > dwMaxArgs {
			addOne(probe, sites, per, common[:dwMaxArgs])
			common = common[dwMaxArgs:]
		}
		addOne(probe, sites, per, common)
	}
	for _, pr := range probes {
		p, err := dwarfvars.ParseProbe(pr.spec)
		if err != nil {
			t.Errorf("ParseProbe(%q): %v", pr.spec, err)
			continue
		}
		sites, err := b.Resolve(p)
		if err != nil {
			t.Errorf("%s: Resolve(%q): %v", b.Path, pr.spec, err)
			continue
		}
		per := make([][]dwVar, len(sites))
		for i, s := range sites {
			per[i] = bindAt(s, pr.extras)
		}
		add(pr.spec, sites, per)
		if strings.HasPrefix(pr.spec, "entry2:") {
			// Each expression also in a handler of its own: handlers at one
			// function that need the entry values of different registers.
			for _, v := range per[0] {
				addOne(pr.spec, sites, per, []string{v.expr})
			}
		}
		if len(sites) > 1 {
			for i, s := range sites {
				add(s.OffsetSpec(), []dwarfvars.Site{s}, per[i:i+1])
			}
		}
	}
	return hs, refused
}

// dwMaxArgs is how many bound expressions one generated handler takes.
const dwMaxArgs = 4

func dwAddHandler(hs *[]*dwHandler, probe string, sites []dwarfvars.Site, per [][]dwVar, common []string) {
	if len(common) == 0 {
		return
	}
	h := &dwHandler{id: len(*hs) + 1, probe: probe}
	h.name = fmt.Sprintf("h%d", h.id)
	h.cli = h.id%2 == 0
	for i, s := range sites {
		ds := dwSite{site: s}
		for _, c := range common {
			for _, w := range per[i] {
				if w.expr == c {
					ds.vars = append(ds.vars, w)
				}
			}
		}
		h.sites = append(h.sites, ds)
	}
	for i, v := range h.sites[0].vars {
		p := fmt.Sprintf("v%d", i)
		// The handler's own names (ctx, the maps) stay its own.
		if !h.cli && isCIdent(v.expr) && !strings.HasPrefix(v.expr, "__") && v.expr != "ctx" && v.expr != "rec" && v.expr != "cnt" {
			p = v.expr // bare ARG form: the parameter is named after the variable
		}
		h.vars = append(h.vars, dwVar{expr: v.expr, param: p, bd: v.bd})
	}
	*hs = append(*hs, h)
}

func isCIdent(s string) bool {
	return regexp.MustCompile(`^[A-Za-z_]\w*$`).MatchString(s)
}

// dwHandlerSource writes the C file of the generated handlers. Each handler
// counts its hits per (handler, ip) and stores every bound value under
// {ip, handler<<32 | hit<<16 | argument}.
func dwHandlerSource(hs []*dwHandler) (src string, probes, binds []string) {
	var b strings.Builder
	b.WriteString(`#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

struct reckey { __u64 ip; __u64 tag; };
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct reckey);
	__type(value, __s64);
	__uint(max_entries, 16384);
} rec SEC(".maps");
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct reckey);
	__type(value, __u64);
	__uint(max_entries, 1024);
} cnt SEC(".maps");

#define PUT(h, a, x) do { \
	struct reckey __k = { __ip, ((__u64)(h) << 32) | (__seq << 16) | (a) }; \
	__s64 __x = (__s64)(x); \
	bpf_map_update_elem(&rec, &__k, &__x, BPF_ANY); \
} while (0)

`)
	var cfg []string
	for _, h := range hs {
		if h.cli {
			probes = append(probes, h.name+"="+h.probe)
			for _, v := range h.vars {
				binds = append(binds, fmt.Sprintf("%s.%s=%s", h.name, v.param, v.expr))
			}
		} else {
			e := h.name + ": " + h.probe
			for _, v := range h.vars {
				if v.param == v.expr {
					e += " " + v.param
				} else {
					e += " " + v.param + "=" + v.expr
				}
			}
			cfg = append(cfg, e)
		}
		fmt.Fprintf(&b, "int %s(struct pt_regs *ctx", h.name)
		for _, v := range h.vars {
			ct, _ := dwCType(v.bd.Type)
			fmt.Fprintf(&b, ", %s %s", ct, v.param)
		}
		ipExpr := "ctx->rip"
		if h.sites[0].site.Return {
			// A return probe's ip is the caller's return address, which
			// differs per call site (clang unrolls main's loop): count the
			// hits of the handler as a whole.
			ipExpr = "0"
		}
		fmt.Fprintf(&b, ")\n{\n\t__u64 __ip = %s;\n\tstruct reckey __ck = { __ip, %d };\n", ipExpr, h.id)
		b.WriteString("\t__u64 __seq = 0;\n\t__u64 *__c = bpf_map_lookup_elem(&cnt, &__ck);\n\tif (__c)\n\t\t__seq = *__c;\n")
		b.WriteString("\t__u64 __n = __seq + 1;\n\tbpf_map_update_elem(&cnt, &__ck, &__n, BPF_ANY);\n")
		for i, v := range h.vars {
			fmt.Fprintf(&b, "\tPUT(%d, %d, %s);\n", h.id, i, v.param)
		}
		b.WriteString("\treturn 0;\n}\n\n")
	}
	// Config entries split over two strings, separated by ';' and newlines.
	half := (len(cfg) + 1) / 2
	if len(cfg) > 0 {
		fmt.Fprintf(&b, "SEC(\"config\") char _cfg1[] = %q;\n", strings.Join(cfg[:half], "; "))
	}
	if len(cfg) > half {
		fmt.Fprintf(&b, "SEC(\"config\") char _cfg2[] = %q;\n", strings.Join(cfg[half:], "\n"))
	}
	b.WriteString("char LICENSE[] SEC(\"license\") = \"GPL\";\n")
	return b.String(), probes, binds
}

// dwBPFHit is the values one handler recorded at one hit.
type dwBPFRecs map[[2]uint64]map[uint64]map[int]uint64 // {handler, ip} → hit → arg → value

// dwMapEntry is one key and value of a map in the runtime's JSON output.
type dwMapEntry struct{ Key, Value json.RawMessage }

// dwRunMaps runs spec around command with JSON output and returns the
// entries of each map by name; on failure, the runtime's stderr too.
func dwRunMaps(spec *ebpf.CollectionSpec, command []string) (map[string][]dwMapEntry, string, error) {
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	err := bpfrt.Run(ctx, spec, bpfrt.Options{Command: command, JSON: true, Stdout: &out, Stderr: &errb, CommandStdout: &bytes.Buffer{}})
	if err != nil {
		return nil, errb.String(), fmt.Errorf("%s\n%s", bpfrt.Describe(err), errb.String())
	}
	raw := out.String()
	maps := map[string][]dwMapEntry{}
	for dec := json.NewDecoder(&out); dec.More(); {
		var line struct {
			Type, Name string
			Entries    []dwMapEntry
		}
		if err := dec.Decode(&line); err != nil {
			return nil, "", fmt.Errorf("decoding runtime output: %v\n%s", err, raw)
		}
		if line.Type == "map" {
			maps[line.Name] = append(maps[line.Name], line.Entries...)
		}
	}
	return maps, "", nil
}

// dwRunBPF runs the compiled handlers around the target and returns what
// they recorded and the read-error counters.
func dwRunBPF(t testing.TB, res *bpfcc.Result, argv []string, env ...string) (dwBPFRecs, string, error) {
	setarch, err := exec.LookPath("setarch")
	if err != nil {
		return nil, "", err
	}
	cmd := append(append(append([]string{"env", "-i"}, env...), setarch, "-R"), argv...)
	maps, errOut, err := dwRunMaps(res.Spec, cmd)
	if err != nil {
		return nil, errOut, err
	}
	recs := dwBPFRecs{}
	var readErrs []string
	for name, entries := range maps {
		if strings.Contains(name, "read_errors") {
			for _, e := range entries {
				readErrs = append(readErrs, string(e.Key)+"="+string(e.Value))
			}
		}
	}
	for _, e := range maps["rec"] {
		var k struct{ IP, Tag json.Number }
		if err := json.Unmarshal(e.Key, &k); err != nil {
			return nil, "", fmt.Errorf("rec key %s: %v", e.Key, err)
		}
		ip, _ := strconv.ParseUint(k.IP.String(), 10, 64)
		tag, _ := strconv.ParseUint(k.Tag.String(), 10, 64)
		v, err := strconv.ParseInt(strings.TrimSpace(string(e.Value)), 10, 64)
		if err != nil {
			return nil, "", fmt.Errorf("rec value %s: %v", e.Value, err)
		}
		hk := [2]uint64{tag >> 32, ip}
		if recs[hk] == nil {
			recs[hk] = map[uint64]map[int]uint64{}
		}
		hit := tag >> 16 & 0xffff
		if recs[hk][hit] == nil {
			recs[hk][hit] = map[int]uint64{}
		}
		recs[hk][hit][int(tag&0xffff)] = uint64(v)
	}
	sort.Strings(readErrs)
	return recs, strings.Join(readErrs, " "), nil
}

// The gdb side: one breakpoint per site address (symbolic, so PIE builds
// relocate), printing every expression without stopping; return sites break
// at the function and finish; entry breakpoints remember the parameters'
// values at entry for the entry-value check.
const dwGDBDriver = `
import gdb, json
cfg = json.loads(CFG)
out = open(OUT, "w")
last_entry = {}
def val1(e):
    try:
        v = gdb.parse_and_eval(e)
        if v.is_optimized_out:
            return "optimized out"
        return "%x" % (int(v) & 0xffffffffffffffff)
    except Exception as ex:
        return "error: " + str(ex).replace("\n", " ")
def val(e):
    # In an inlined copy gdb selects the inlined frame, where C scoping
    # holds: the caller's variables are not visible there, and neither
    # may bpfcc bind them.
    return val1(e)
class Finish(gdb.FinishBreakpoint):
    def stop(self):
        rv = self.return_value
        rec = {"site": self.sid, "pc": int(gdb.parse_and_eval("$pc")) & 0xffffffffffffffff, "vals": {}}
        for e in self.exprs:
            if e == "$retval" and rv is not None:
                rec["vals"][e] = "%x" % (int(rv) & 0xffffffffffffffff)
            else:
                rec["vals"][e] = val(e)
        out.write(json.dumps(rec) + "\n")
        return False
    def out_of_scope(self):
        pass
class Site(gdb.Breakpoint):
    def stop(self):
        if self.ret:
            f = Finish(gdb.newest_frame(), internal=True)
            f.sid, f.exprs = self.sid, self.exprs
            return False
        rec = {"site": self.sid, "pc": int(gdb.parse_and_eval("$pc")) & 0xffffffffffffffff, "vals": {}, "entry": last_entry.get(self.func)}
        for e in self.exprs:
            rec["vals"][e] = val(e)
        out.write(json.dumps(rec) + "\n")
        return False
class Entry(gdb.Breakpoint):
    def stop(self):
        last_entry[self.func] = {e: val(e) for e in self.exprs}
        return False
if cfg["lib"]:
    # The traced binary is a shared library: its functions have addresses
    # once main runs.
    gdb.execute("tbreak main")
    gdb.execute("run")
for s in cfg["entries"]:
    b = Entry(s["loc"], internal=True)
    b.func, b.exprs = s["func"], s["exprs"]
for s in cfg["sites"]:
    # Not internal: at the first instruction of an inlined copy gdb shows
    # the inlined frame only for a user breakpoint there (as "break *ADDR"
    # typed by hand); for an internal one it shows the caller, as if the
    # inlined body had not started. A probe at that address (a line of the
    # inlined function) runs in its scope.
    b = Site(s["loc"], internal=False)
    b.sid, b.exprs, b.ret, b.func = s["id"], s["exprs"], s["ret"], s["func"]
gdb.execute("continue" if cfg["lib"] else "run")
out.close()
`

type dwGDBSite struct {
	ID    string   `json:"id"`
	Loc   string   `json:"loc"`
	Func  string   `json:"func"`
	Exprs []string `json:"exprs"`
	Ret   bool     `json:"ret"`
}

type dwGDBRec struct {
	Site  string            `json:"site"`
	PC    uint64            `json:"pc"`
	Vals  map[string]string `json:"vals"`
	Entry map[string]string `json:"entry"`
}

func dwSiteID(s dwarfvars.Site) string {
	return s.OffsetSpec()
}

// dwFuncKey names a site's function uniquely (FUNC@CU for static
// functions of one name in several compile units).
func dwFuncKey(s dwarfvars.Site) string {
	if s.FuncAmbiguous {
		return s.Func + "@" + filepath.Base(s.CU)
	}
	return s.Func
}

// dwGDBFunc is gdb's expression for a site's function: 'FILE.c'::FUNC when
// the name alone is ambiguous.
func dwGDBFunc(s dwarfvars.Site) string {
	if s.FuncAmbiguous {
		return fmt.Sprintf("'%s'::%s", filepath.Base(s.CU), s.Func)
	}
	return fmt.Sprintf("'%s'", s.Func)
}

// dwRunGDB runs the target under gdb with the same argument and returns the
// records of every site, in hit order.
func dwRunGDB(t testing.TB, argv []string, lib bool, sites []dwGDBSite, entries []dwGDBSite, env []string, ex ...string) (map[string][]dwGDBRec, error) {
	dir := t.TempDir()
	cfg, _ := json.Marshal(map[string]any{"sites": append([]dwGDBSite{}, sites...), "entries": append([]dwGDBSite{}, entries...), "lib": lib})
	outPath := filepath.Join(dir, "gdb.out")
	script := fmt.Sprintf("CFG = %q\nOUT = %q\n", cfg, outPath) + dwGDBDriver
	sp := filepath.Join(dir, "driver.py")
	if err := os.WriteFile(sp, []byte(script), 0o644); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	// The same empty environment as the traced run, so that stack
	// addresses (pointer values) match too.
	args := []string{"-i", dwGDB, "-batch", "-nx",
		"-ex", "set startup-with-shell off",
		"-ex", "unset environment LINES", "-ex", "unset environment COLUMNS"}
	for _, e := range env {
		args = append(args, "-ex", "set environment "+strings.Replace(e, "=", " ", 1))
	}
	for _, e := range ex {
		args = append(args, "-iex", e) // before the program is read
	}
	args = append(append(args, "-x", sp, "--args"), argv...)
	cmd := exec.CommandContext(ctx, "env", args...)
	b, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("gdb: %v\n%s", err, b)
	}
	data, err := os.ReadFile(outPath)
	if err != nil {
		return nil, fmt.Errorf("gdb wrote no records: %v\n%s", err, b)
	}
	recs := map[string][]dwGDBRec{}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("gdb recorded no stops:\n%s", b)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if l == "" {
			continue
		}
		var r dwGDBRec
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			return nil, fmt.Errorf("gdb record %q: %v", l, err)
		}
		recs[r.Site] = append(recs[r.Site], r)
	}
	return recs, nil
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
	return x.Kind == dwarfvars.VarLocal && x.DeclLine > 0 && s.Line > 0 && s.Line <= x.DeclLine &&
		(x.DeclFile == "" || filepath.Base(x.DeclFile) == filepath.Base(s.File)) && !strings.ContainsAny(v.expr, ".-[")
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

// TestDWARFDefaultProbe: a handler without config entry, compiled with
// DefaultProbe (--load params), binds its parameters to params' by name;
// the values are the ones main passes (n+it, 1000*(it+1), 200+it for
// it = 0..2, n = 4).
func TestDWARFDefaultProbe(t *testing.T) {
	requireKernel(t)
	for _, bld := range dwTargets(t) {
		t.Run(bld.name, func(t *testing.T) {
			res, err := bpfcc.Compile(filepath.Join("dwarf", "default_probe.c"), bpfcc.Options{Binary: bld.path, DefaultProbe: "params"})
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			maps, _, err := dwRunMaps(res.Spec, []string{bld.path, dwArg})
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			got := map[string]string{}
			for _, e := range maps["seen"] {
				got[string(e.Key)] = string(e.Value)
			}
			want := map[string]string{
				"4": `{"b":1000,"c":200,"calls":1}`,
				"5": `{"b":2000,"c":201,"calls":1}`,
				"6": `{"b":3000,"c":202,"calls":1}`,
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("seen = %v, want %v", got, want)
			}
		})
	}
}

// TestDWARFEntryRecordMissing: a line probe whose function was entered
// without the entry-value helper seeing it (as with -p PID attached while
// the target is inside the function) has no saved registers. The values
// are not made up: every read counts as a read error under the handler's
// and the parameter's names, and the sum the handler stores is 0 + k.
func TestDWARFEntryRecordMissing(t *testing.T) {
	requireKernel(t)
	m := dwReadMarks(t)
	for _, bld := range dwTargets(t) {
		if bld.name == "gcc-O0" {
			continue // no entry values at -O0
		}
		t.Run(bld.name, func(t *testing.T) {
			res, _, err := dwCompileOne(t, dwOneHandler("prog: "+m.rel(t, "entry2", "entry2_line")+" m w", "m", "w"), bpfcc.Options{Binary: bld.path})
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			if res.Spec.Programs["prog__entry"] == nil {
				t.Fatalf("no entry helper among %v", dwSortedKeys(res.Spec.Programs))
			}
			// Leave the helper out: no call has a saved record.
			delete(res.Spec.Programs, "prog__entry")
			maps, _, err := dwRunMaps(res.Spec, []string{bld.path, dwArg})
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			got := map[string]string{}
			for _, e := range maps["__bpfcc_read_errors"] {
				var k struct{ Handler, Variable string }
				if err := json.Unmarshal(e.Key, &k); err != nil {
					t.Fatalf("read-error key %s: %v", e.Key, err)
				}
				got[k.Handler+"."+k.Variable] = string(e.Value)
			}
			// entry2 runs 3 times; each run fails both reads.
			if want := map[string]string{"prog.m": "3", "prog.w": "3"}; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("read errors = %v, want %v", got, want)
			}
		})
	}
}

// dwCompileOne compiles a one-handler file against bin.
func dwCompileOne(t testing.TB, src string, opts bpfcc.Options) (*bpfcc.Result, string, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "h.c")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := bpfcc.Compile(p, opts)
	return res, p, err
}

const dwHandlerHead = `#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, long);
	__type(value, long);
	__uint(max_entries, 64);
} out SEC(".maps");
`

func dwOneHandler(config string, params ...string) string {
	s := dwHandlerHead
	if config != "" {
		s += fmt.Sprintf("SEC(\"config\") char _c[] = %q;\n", config)
	}
	s += "int prog(struct pt_regs *ctx"
	for _, p := range params {
		s += ", long " + p
	}
	s += ")\n{\n\tlong k = 0, v = 0;\n"
	for _, p := range params {
		s += "\tv += " + p + ";\n"
	}
	s += "\tbpf_map_update_elem(&out, &k, &v, BPF_ANY);\n\treturn 0;\n}\nchar LICENSE[] SEC(\"license\") = \"GPL\";\n"
	return s
}

// dwExpectDiag checks that err is a positioned diagnostic in file that
// contains every one of want.
func dwExpectDiag(t *testing.T, err error, file string, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("compiled, want a diagnostic containing %q", want)
	}
	if errors.Is(err, bpfcc.ErrInternal) {
		t.Fatalf("internal error instead of a diagnostic: %v", err)
	}
	var dl bpfdiag.List
	if !errors.As(err, &dl) || len(dl) == 0 {
		t.Fatalf("error is not a diag.List: %T %v", err, err)
	}
	d := dl[0]
	if d.File != file || d.Line <= 0 {
		t.Errorf("diagnostic not positioned in the handler file: %s:%d:%d (want %s:N)", d.File, d.Line, d.Col, file)
	}
	text := d.Msg + " " + d.Hint
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("diagnostic %q lacks %q", text, w)
		}
	}
}

func TestDWARFDiagnostics(t *testing.T) {
	bins := dwTargets(t)
	var o2 string
	for _, b := range bins {
		if b.name == "gcc-O2" {
			o2 = b.path
		}
	}
	m := dwReadMarks(t)
	loopLine := m.rel(t, "loop_sum", "loop_body")
	bopts := bpfcc.Options{Binary: o2}

	t.Run("probe-not-found", func(t *testing.T) {
		_, p, err := dwCompileOne(t, dwOneHandler("prog: loop_summ:3 a=acc", "a"), bopts)
		dwExpectDiag(t, err, p, `"prog"`, "loop_summ", "loop_sum")
	})
	t.Run("return-of-inlined-only", func(t *testing.T) {
		// sq is always inlined: no out-of-line copy to return from.
		_, p, err := dwCompileOne(t, dwOneHandler("prog: sq%return a=$retval", "a"), bopts)
		dwExpectDiag(t, err, p, `"prog"`, "sq%return", "only inlined", "out-of-line")
		if err != nil && strings.Contains(err.Error(), "did you mean") {
			t.Errorf("suggests the name it could not find: %v", err)
		}
	})
	t.Run("file-not-found", func(t *testing.T) {
		_, p, err := dwCompileOne(t, dwOneHandler("prog: targt.c:24 a=acc", "a"), bopts)
		dwExpectDiag(t, err, p, `"prog"`, "targt.c", "target.c")
	})
	t.Run("line-without-code", func(t *testing.T) {
		// Line 2 is inside the header comment; the nearest lines with code
		// must be suggested.
		_, p, err := dwCompileOne(t, dwOneHandler("prog: target.c:2 a=acc", "a"), bopts)
		dwExpectDiag(t, err, p, `"prog"`, "target.c:2", "no code")
		if err != nil && !regexp.MustCompile(`\d+`).MatchString(strings.TrimPrefix(err.Error(), p)) {
			t.Errorf("no neighbouring lines suggested: %v", err)
		}
	})
	t.Run("variable-not-visible", func(t *testing.T) {
		_, p, err := dwCompileOne(t, dwOneHandler("prog: "+loopLine+" a=nosuch", "a"), bopts)
		dwExpectDiag(t, err, p, `"prog"`, loopLine, "nosuch", "acc", "p")
	})
	t.Run("member-not-found", func(t *testing.T) {
		_, p, err := dwCompileOne(t, dwOneHandler("prog: "+loopLine+" a=p->z", "a"), bopts)
		dwExpectDiag(t, err, p, `"prog"`, "p->z", "z")
	})
	t.Run("optimized-out", func(t *testing.T) {
		// Find a variable dwarfvars calls optimized out somewhere in the -O2
		// build, then bind it.
		b, err := dwarfvars.Open(o2)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		var probe, name string
		for _, pr := range dwProbes(t, b) {
			pp, _ := dwarfvars.ParseProbe(pr.spec)
			sites, err := b.Resolve(pp)
			if err != nil || len(sites) != 1 {
				continue
			}
			vs, _ := b.Vars(sites[0])
			for _, v := range vs {
				if errors.Is(v.Err, dwarfvars.ErrOptimizedOut) && isCIdent(v.Name) {
					probe, name = pr.spec, v.Name
					break
				}
			}
			if name != "" {
				break
			}
		}
		if name == "" {
			t.Fatal("no optimized-out variable at any single-site probe of the -O2 build")
		}
		_, p, err := dwCompileOne(t, dwOneHandler("prog: "+probe+" a="+name, "a"), bopts)
		dwExpectDiag(t, err, p, `"prog"`, probe, name, "optimized out")
	})
	t.Run("offset-inside-instruction", func(t *testing.T) {
		b, err := dwarfvars.Open(o2)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		spec := ""
		for off := 1; off < 8 && spec == ""; off++ {
			s := fmt.Sprintf("loop_sum+%d", off)
			pp, _ := dwarfvars.ParseProbe(s)
			if _, err := b.Resolve(pp); errors.Is(err, dwarfvars.ErrBadOffset) {
				spec = s
			}
		}
		if spec == "" {
			t.Fatal("no offset 1..7 of loop_sum is inside an instruction?")
		}
		_, p, err := dwCompileOne(t, dwOneHandler("prog: "+spec+" a=n", "a"), bopts)
		dwExpectDiag(t, err, p, `"prog"`, spec)
		if err != nil && !strings.Contains(err.Error(), "instruction") {
			t.Errorf("diagnostic does not say the offset is inside an instruction: %v", err)
		}
	})
	t.Run("no-dwarf", func(t *testing.T) {
		nodw := dwBuildVariant(t, "target-nodebug", "-O2", "-no-pie")
		_, p, err := dwCompileOne(t, dwOneHandler("prog: loop_sum a=n", "a"), bpfcc.Options{Binary: nodw})
		dwExpectDiag(t, err, p, `"prog"`, "DWARF", "-g")
	})
	t.Run("stripped-debug", func(t *testing.T) {
		if _, err := exec.LookPath("strip"); err != nil {
			t.Skip("strip not installed")
		}
		bin := dwBuildVariant(t, "target-stripped", "-g", "-O2", "-no-pie")
		if b, err := exec.Command("strip", "--strip-debug", bin).CombinedOutput(); err != nil {
			t.Fatalf("strip: %v\n%s", err, b)
		}
		_, p, err := dwCompileOne(t, dwOneHandler("prog: loop_sum a=n", "a"), bpfcc.Options{Binary: bin})
		dwExpectDiag(t, err, p, `"prog"`, "DWARF")
	})
	t.Run("cli-bad-bind", func(t *testing.T) {
		_, _, err := dwCompileOne(t, dwOneHandler("", "a"), bpfcc.Options{Binary: o2, Probes: []string{"prog=loop_sum"}, Binds: []string{"prog.a"}})
		if err == nil || !strings.Contains(err.Error(), "HANDLER.ARG=EXPR") {
			t.Errorf("--bind without = : %v", err)
		}
	})
}

// TestDWARFListing: -S shows "; var = location" directly above each fetch.
func TestDWARFListing(t *testing.T) {
	var o0, o2 string
	for _, b := range dwTargets(t) {
		switch b.name {
		case "gcc-O0":
			o0 = b.path
		case "gcc-O2":
			o2 = b.path
		}
	}
	// -O2 at params' entry: registers, one ctx load each.
	res, _, err := dwCompileOne(t, dwOneHandler("prog: params x=a y=b z=c", "x", "y", "z"), bpfcc.Options{Binary: o2})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct{ note, off string }{{"; a = rdi", "112"}, {"; b = rsi", "104"}, {"; c = rdx", "96"}} {
		re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(want.note) + `\n\s+\d+: r\d = \*\(u64 \*\)\(r\d \+ ` + want.off + `\)$`)
		if !re.MatchString(res.Listing) {
			t.Errorf("listing lacks %q directly above the load of pt_regs+%s:\n%s", want.note, want.off, res.Listing)
		}
	}
	// -O0 inside the loop: frame-relative memory, a note then a user read.
	m := dwReadMarks(t)
	res, _, err = dwCompileOne(t, dwOneHandler("prog: "+m.rel(t, "loop_sum", "loop_body")+" x=acc y=p->x", "x", "y"), bpfcc.Options{Binary: o0})
	if err != nil {
		t.Fatal(err)
	}
	for _, note := range []string{"; acc = *(s64 *)(CFA", "; p->x = *(s32 *)"} {
		i := strings.Index(res.Listing, note)
		if i < 0 {
			t.Errorf("listing lacks %q:\n%s", note, res.Listing)
			continue
		}
		rest := res.Listing[i:]
		if j := strings.Index(rest, "call "); j < 0 || strings.Contains(rest[:j], "\n; h.c:") {
			t.Errorf("no tracee read follows %q before the handler body:\n%s", note, res.Listing)
		}
	}
	if !strings.Contains(res.Listing, "uprobe.s/") {
		t.Errorf("a handler reading tracee memory is not sleepable:\n%s", res.Listing)
	}
}

// TestDWARFCLIOverridesConfig: --probe and --bind win over SEC("config").
func TestDWARFCLIOverridesConfig(t *testing.T) {
	var o2 string
	for _, b := range dwTargets(t) {
		if b.name == "gcc-O2" {
			o2 = b.path
		}
	}
	src := dwOneHandler("prog: params x=a", "x")
	res, _, err := dwCompileOne(t, src, bpfcc.Options{Binary: o2, Binds: []string{"prog.x=b"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Listing, "; b = rsi") || strings.Contains(res.Listing, "; a = rdi") {
		t.Errorf("--bind prog.x=b did not override the config's x=a:\n%s", res.Listing)
	}
	res, _, err = dwCompileOne(t, src, bpfcc.Options{Binary: o2, Probes: []string{"prog=loop_sum%return"}, Binds: []string{"prog.x=$retval"}})
	if err != nil {
		t.Fatal(err)
	}
	if ps := res.Spec.Programs["prog"]; ps == nil || !strings.HasPrefix(ps.SectionName, "uretprobe") || !strings.HasSuffix(ps.SectionName, ":loop_sum") {
		t.Errorf("--probe prog=loop_sum%%return: programs %v", dwSections(res))
	}
}

func dwSections(res *bpfcc.Result) []string {
	var s []string
	for n, p := range res.Spec.Programs {
		s = append(s, n+"="+p.SectionName)
	}
	sort.Strings(s)
	return s
}

// TestDWARFCompileTime reports how long compile+resolve of one bound
// handler takes: bpfcc.Compile end to end, and bind.Bind alone (open the
// binary, resolve the probe, bind two expressions).
func TestDWARFCompileTime(t *testing.T) {
	var o2 string
	for _, b := range dwTargets(t) {
		if b.name == "gcc-O2" {
			o2 = b.path
		}
	}
	m := dwReadMarks(t)
	src := dwOneHandler("prog: "+m.rel(t, "loop_sum", "loop_body")+" x=acc y=p->x", "x", "y")
	p := filepath.Join(t.TempDir(), "h.c")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	median := func(f func() error) time.Duration {
		var ds []time.Duration
		for i := 0; i < 21; i++ {
			st := time.Now()
			if err := f(); err != nil {
				t.Fatal(err)
			}
			ds = append(ds, time.Since(st))
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		return ds[len(ds)/2]
	}
	total := median(func() error {
		_, err := bpfcc.Compile(p, bpfcc.Options{Binary: o2})
		return err
	})
	u, err := frontend.Parse(p, frontend.Options{CPU: 3})
	if err != nil {
		t.Fatal(err)
	}
	sh := frontend.Describe(u)
	resolve := median(func() error {
		_, err := bind.Bind(sh, bind.Options{Binary: o2})
		return err
	})
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	t.Logf("one handler, 2 bound arguments, gcc -O2 target: bpfcc.Compile %.2f ms, of which bind.Bind (open DWARF, resolve probe, bind) %.2f ms (medians of 21)", ms(total), ms(resolve))
}

// TestDWARFKnownBugs pins bugs found by these tests: each subtest logs
// "KNOWN BUG" while the bug reproduces and fails once it is fixed, so that
// the pin is turned into an ordinary assertion.
func TestDWARFKnownBugs(t *testing.T) {
	builds := dwTargets(t)
	path := func(name string) string {
		for _, b := range builds {
			if b.name == name {
				return b.path
			}
		}
		return ""
	}
	o2 := path("gcc-O2")
	// A new pin logs "KNOWN BUG (still reproduces)" while the bug
	// reproduces and fails with "known bug fixed, turn this pin into an
	// assertion" once it is fixed; none is open now.
	t.Run("FiveBoundArguments", func(t *testing.T) {
		// The bound parameters are rewritten away (the program takes only
		// ctx), yet lower.collectFunc applies the 5-argument limit of
		// bpf-to-bpf calls to the C signature.
		_, _, err := dwCompileOne(t, dwOneHandler("prog: params a b c x=a y=b", "a", "b", "c", "x", "y"), bpfcc.Options{Binary: o2})
		if err != nil {
			t.Errorf("a handler with 5 bound arguments is rejected: %v", err)
		}
	})
	t.Run("NoParameterHandler", func(t *testing.T) {
		src := dwHandlerHead + "SEC(\"config\") char _c[] = \"prog: params\";\nint prog(void) { return 0; }\nchar LICENSE[] SEC(\"license\") = \"GPL\";\n"
		_, _, err := dwCompileOne(t, src, bpfcc.Options{Binary: o2})
		if err == nil || errors.Is(err, bpfcc.ErrInternal) || !strings.Contains(err.Error(), "pt_regs") {
			t.Errorf("a probe handler without parameters: %.200v", err)
		}
	})
	t.Run("StructBoundToPointerParameter", func(t *testing.T) {
		// *p is a struct point (8 bytes); the handler's parameter is a
		// pointer. bpfcc copies the struct's bytes into the pointer with no
		// diagnostic: a made-up pointer.
		src := dwHandlerHead + "struct point { int x, y; };\nSEC(\"config\") char _c[] = \"prog: loop_sum pt=*p\";\n" +
			"int prog(struct pt_regs *ctx, struct point *pt) { long k = 0, v = (long)pt; bpf_map_update_elem(&out, &k, &v, BPF_ANY); return 0; }\nchar LICENSE[] SEC(\"license\") = \"GPL\";\n"
		res, _, err := dwCompileOne(t, src, bpfcc.Options{Binary: o2})
		if err == nil || !strings.Contains(err.Error(), "not a scalar") {
			t.Errorf("binding a struct (*p) to a pointer parameter: res=%v err=%v", res != nil, err)
		}
	})
	t.Run("TraceePointerDereferencedDirectly", func(t *testing.T) {
		// A bound tracee pointer dereferenced in the handler compiles to a
		// plain load that the verifier rejects ("invalid mem access
		// 'scalar'"); bpfcc should say at compile time to bind p->y instead.
		src := dwHandlerHead + "struct point { int x, y; };\nSEC(\"config\") char _c[] = \"prog: loop_sum pt=p\";\n" +
			"int prog(struct pt_regs *ctx, struct point *pt) { long k = 0, v = pt->y; bpf_map_update_elem(&out, &k, &v, BPF_ANY); return 0; }\nchar LICENSE[] SEC(\"license\") = \"GPL\";\n"
		_, _, err := dwCompileOne(t, src, bpfcc.Options{Binary: o2})
		if err == nil || !strings.Contains(err.Error(), "address in the traced process") {
			t.Errorf("dereferencing a bound tracee pointer: %v", err)
		}
	})
	t.Run("MemberOfSplitStruct", func(t *testing.T) {
		// Former bug, now asserted. clang -O2: at use_struct:5, s is
		// {[0..8): optimized out, [8..12): rcx}; s.a.c is bytes [8..12),
		// in rcx, and gdb prints it (Bind said "optimized out here and has
		// no location anywhere"); s.a.b, bytes [4..8), is optimized out.
		cl := path("clang19-O2")
		if cl == "" {
			t.Logf("clang-19 not installed: nothing to check")
			return
		}
		b, err := dwarfvars.Open(cl)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		m := dwReadMarks(t)
		p, _ := dwarfvars.ParseProbe(m.rel(t, "use_struct", "struct_line"))
		sites, err := b.Resolve(p)
		if err != nil || len(sites) == 0 {
			t.Fatalf("resolve: %v", err)
		}
		vs, _ := b.Vars(sites[0])
		covered := false
		for _, v := range vs {
			if v.Name == "s" && v.Loc.Kind == dwarfvars.LocPieces {
				for _, pc := range v.Loc.Pieces {
					covered = covered || pc.Offset <= 8 && pc.Offset+pc.Size >= 12 && pc.Loc.Kind != dwarfvars.LocOptimizedOut
				}
			}
		}
		if !covered {
			t.Logf("s has no piece covering s.a.c at %s with this clang: nothing to check", sites[0])
			return
		}
		e, _ := dwarfvars.ParseExpr("s.a.c")
		if _, err = b.Bind(sites[0], e); err != nil {
			t.Errorf("s.a.c at %s lies in a piece held in a register, yet Bind fails: %v", sites[0], err)
		}
		e, _ = dwarfvars.ParseExpr("s.a.b")
		if bd, err := b.Bind(sites[0], e); !errors.Is(err, dwarfvars.ErrOptimizedOut) {
			t.Errorf("s.a.b at %s (an optimized-out piece): binding %v, err %v", sites[0], bd, err)
		}
	})
}

// TestDWARFStackArgsAtEntry: at the first instruction of an -O0 function
// (before its prologue) the stack-passed 7th and 8th arguments are already
// at CFA+0 and CFA+8 and bind there (TestDWARFAgainstGDB compares their
// values with gdb's), while the register ones, whose frame slots the
// prologue has not filled yet, are refused.
func TestDWARFStackArgsAtEntry(t *testing.T) {
	o0 := dwBuildVariant(t, "target-O0", "-g", "-O0", "-no-pie")
	b, err := dwarfvars.Open(o0)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	p, _ := dwarfvars.ParseProbe("eight+0x0")
	sites, err := b.Resolve(p)
	if err != nil || len(sites) != 1 {
		t.Fatalf("eight+0x0: %v %v", sites, err)
	}
	for _, v := range []string{"a7", "a8"} {
		e, _ := dwarfvars.ParseExpr(v)
		bd, err := b.Bind(sites[0], e)
		if err != nil {
			t.Errorf("%s at eight+0x0: %v", v, err)
			continue
		}
		if d := bd.Describe(); !strings.Contains(d, "CFA") || !strings.Contains(d, "rsp+") {
			t.Errorf("%s at eight+0x0 = %s, want CFA-relative memory", v, d)
		}
	}
	e, _ := dwarfvars.ParseExpr("a1")
	if _, err := b.Bind(sites[0], e); !errors.Is(err, dwarfvars.ErrOptimizedOut) || !strings.Contains(err.Error(), "prologue") {
		t.Errorf("a1 at eight+0x0 (its slot not stored yet): %v", err)
	}
}

// The multi-CU target: tests/dwarf/multi/m_main.c, m_a.c and m_b.c with the
// header multi.h. Static functions named helper in m_a.c and m_b.c (and
// static globals named tally), globals defined in one CU and used in the
// others, struct rec from the header, and the header's static inline mix()
// inlined into functions of both library CUs.
var dwMultiDir = filepath.Join("dwarf", "multi")

func dwMultiSrcs(t testing.TB) (main string, lib []string) {
	t.Helper()
	abs := func(n string) string {
		p, err := filepath.Abs(filepath.Join(dwMultiDir, n))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	return abs("m_main.c"), []string{abs("m_a.c"), abs("m_b.c")}
}

// dwMultiTargets builds the multi-CU target: linked into one executable
// with gcc -O0 (non-PIE), gcc -O2 (PIE) and clang-19 -O2 (non-PIE), and as
// a shared library of m_a.c and m_b.c (gcc -O2) that a main program links
// against, traced through the library itself.
func dwMultiTargets(t testing.TB) []dwBuild {
	t.Helper()
	gcc := dwRequireGCC(t)
	dir := t.TempDir()
	mainSrc, libSrcs := dwMultiSrcs(t)
	all := append([]string{mainSrc}, libSrcs...)
	cc := func(c string, args ...string) {
		if b, err := exec.Command(c, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", c, strings.Join(args, " "), err, b)
		}
	}
	var builds []dwBuild
	exe := func(name, c string, flags ...string) {
		out := filepath.Join(dir, "multi-"+name)
		cc(c, append(append(append([]string{}, flags...), "-o", out), all...)...)
		builds = append(builds, dwBuild{name: "multi-" + name, path: out, multi: true})
	}
	exe("gcc-O0", gcc, "-g", "-O0", "-no-pie")
	exe("gcc-O2-pie", gcc, "-g", "-O2", "-fPIE", "-pie")
	if c := clangPath(); c != "" {
		exe("clang19-O2", c, "-g", "-O2", "-no-pie")
	}
	so := filepath.Join(dir, "libmulti.so")
	cc(gcc, append([]string{"-g", "-O2", "-fPIC", "-shared", "-o", so}, libSrcs...)...)
	prog := filepath.Join(dir, "multi-lib-main")
	cc(gcc, "-g", "-O2", "-o", prog, mainSrc, so, "-Wl,-rpath,"+dir)
	builds = append(builds, dwBuild{name: "multi-lib-gcc-O2", path: so, exe: prog, multi: true})
	return builds
}

// dwMultiProbes are the probes of the multi-CU target; lib leaves out the
// main program's function (the traced binary is the library).
func dwMultiProbes(t testing.TB, b *dwarfvars.Binary, lib bool) []dwProbe {
	m := dwReadMarksFiles(t, filepath.Join(dwMultiDir, "m_main.c"), filepath.Join(dwMultiDir, "m_a.c"),
		filepath.Join(dwMultiDir, "m_b.c"), filepath.Join(dwMultiDir, "multi.h"))
	ps := []dwProbe{
		// Both static helpers: one site in each CU, each with its own tally.
		{"helper", []string{"g_scale", "tally"}},
		{m.file(t, "helper_a"), []string{"tally", "g_scale", "g_hits"}},
		{m.rel(t, "helper@m_b.c", "helper_b"), []string{"tally", "g_scale", "g_hits"}},
		// The header's inline helper, inlined into alpha (m_a.c) and beta (m_b.c).
		{m.file(t, "mix_line"), []string{"r->id", "r->weight", "r->span.hi", "r->span.lo", "g_hits", "g_scale"}},
		{m.rel(t, "alpha", "alpha_loop"), []string{"r->span.lo", "r->id", "g_hits", "g_scale", "tally"}},
		{m.rel(t, "beta", "beta_line"), []string{"r->weight", "r->span.lo", "g_scale", "g_hits", "tally"}},
		{"helper@m_a.c%return", nil},
		{"beta%return", nil},
	}
	if !lib {
		ps = append(ps, dwProbe{m.rel(t, "drive", "drive_line"), []string{"r->id", "r->span.hi", "g_hits", "g_scale"}})
	}
	// FUNC@SRC+OFF: the instruction of m_b.c's helper line.
	if p, err := dwarfvars.ParseProbe(m.file(t, "helper_b")); err == nil {
		if sites, err := b.Resolve(p); err == nil && len(sites) > 0 {
			ps = append(ps, dwProbe{sites[0].OffsetSpec(), []string{"tally"}})
		}
	}
	return ps
}
