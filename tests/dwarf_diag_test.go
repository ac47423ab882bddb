package tests

// DWARF binding tests that need no gdb run of every build: default probes, entry records, diagnostics, listings, compile time, known bugs, stack arguments.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/bpfcc/bpfcc"
	"github.com/bpfcc/bpfcc/bind"
	bpfdiag "github.com/bpfcc/bpfcc/diag"
	"github.com/bpfcc/bpfcc/dwarfvars"
	"github.com/bpfcc/bpfcc/frontend"
)

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
