package dwarfvars

import (
	"bytes"
	"debug/elf"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func siteOf(t *testing.T, b *Binary, probe string) Site {
	t.Helper()
	ss, err := b.Resolve(mustProbe(t, probe))
	if err != nil {
		t.Fatalf("%s: %v", probe, err)
	}
	return ss[0]
}

func bind(t *testing.T, b *Binary, s Site, expr string) *Binding {
	t.Helper()
	bd, err := b.Bind(s, mustExpr(t, expr))
	if err != nil {
		t.Fatalf("%s at %s: %v", expr, s, err)
	}
	return bd
}

func TestBindShapes(t *testing.T) {
	b := open(t, build(t, target{"gcc", "-O2", true}))
	scale := siteOf(t, b, "scale")

	r := bind(t, b, scale, "r")
	if r.Loc.Kind != LocValue || r.Loc.Fetch.Start != (Source{Kind: SrcReg, Reg: 5, RegsOff: 112}) || len(r.Loc.Fetch.Steps) != 0 {
		t.Errorf("r at scale entry = %s, want rdi", r.Describe())
	}
	if r.Type.Kind != KindPointer || r.Type.Spelling != "struct rec *" || r.Type.Elem.Kind != KindStruct {
		t.Errorf("r's type = %+v", r.Type)
	}
	if m, ok := r.Type.Elem.Member("next"); !ok || m.Offset != 40 || m.Type.Elem != r.Type.Elem {
		t.Errorf("struct rec.next = %+v, %v (want offset 40, cyclic type)", m, ok)
	}
	px := bind(t, b, scale, "r->pos.x")
	if got := px.Describe(); got != "r->pos.x = *(s32 *)(rdi+8)" {
		t.Errorf("Describe = %q", got)
	}
	arr := bind(t, b, scale, "r->arr[2]")
	if f := arr.Loc.Fetch; len(f.Steps) != 2 || f.Steps[0].Imm != 24 || f.Steps[1] != (Step{Op: OpDeref, Size: 4}) {
		t.Errorf("r->arr[2] = %s", arr.Describe())
	}
	deref := bind(t, b, scale, "*r")
	if deref.Loc.Kind != LocMemory || deref.Type.Size != 48 {
		t.Errorf("*r = %s (%d bytes)", deref.Describe(), deref.Type.Size)
	}
	if !deref.ReadsMemory() || r.ReadsMemory() {
		t.Errorf("ReadsMemory wrong")
	}

	// Static and global storage: relative to ctx->ip.
	g := bind(t, b, scale, "global_counter")
	syms, _ := b.exe.Symbols()
	var gaddr uint64
	for _, s := range syms {
		if s.Name == "global_counter" {
			gaddr = s.Value
		}
	}
	if g.Var.Kind != VarGlobal || g.Loc.Fetch.Start.Kind != SrcAddr || g.Loc.Fetch.Start.Value != gaddr ||
		g.Loc.Fetch.Start.Offset != int64(gaddr-scale.Addr) {
		t.Errorf("global_counter = %+v, want static at %#x", g.Loc.Fetch.Start, gaddr)
	}
	calls := bind(t, b, siteOf(t, b, "counter"), "calls")
	if calls.Var.Kind != VarStatic || calls.Loc.Fetch.Start.Kind != SrcAddr {
		t.Errorf("static local: %s (%v)", calls.Describe(), calls.Var.Kind)
	}

	// Stack parameters: CFA-relative.
	h := bind(t, b, siteOf(t, b, "many"), "h")
	if got := h.Describe(); got != "h = *(s32 *)(CFA+8 = rsp+16)" {
		t.Errorf("h = %q", got)
	}

	// Entry values.
	ue := siteOf(t, b, "use_entry:3")
	a := bind(t, b, ue, "a")
	if a.Entry == nil || len(a.Entry.Regs) != 1 || a.Entry.Regs[0] != 5 || a.Entry.Addr != ue.EntryAddr ||
		a.Entry.EntryCFA != (Source{Kind: SrcCFA, Reg: 7, RegsOff: 152, Offset: 8}) || a.Entry.Func != "use_entry" {
		t.Errorf("a at use_entry:3 = %s, entry %+v", a.Describe(), a.Entry)
	}

	// A struct split into pieces, read whole and per member.
	ps := siteOf(t, b, "pieces:3")
	p := bind(t, b, ps, "p")
	if p.Loc.Kind != LocPieces || len(p.Loc.Pieces) != 2 || p.Loc.Pieces[1].Offset != 4 {
		t.Errorf("p = %s", p.Describe())
	}
	py := bind(t, b, ps, "p.y")
	if py.Loc.Kind != LocValue || py.Type.Spelling != "int" {
		t.Errorf("p.y = %s", py.Describe())
	}

	// Address of a local in memory.
	head := bind(t, b, siteOf(t, b, "main:"+itoa(lineOf(t, "acc += scale(&head, n)")-lineOf(t, "int main("))), "&head")
	if head.Type.Kind != KindPointer || head.Loc.Fetch.Start.Kind != SrcCFA {
		t.Errorf("&head = %s", head.Describe())
	}
}

func TestDiagnostics(t *testing.T) {
	b := open(t, build(t, target{"gcc", "-O2", true}))
	_, err := b.Resolve(mustProbe(t, "scal"))
	var pnf *ProbeNotFoundError
	if !errors.As(err, &pnf) || !errors.Is(err, ErrNotFound) || !contains(pnf.Suggestions, "scale") {
		t.Errorf("scal: %v", err)
	}
	if _, err := b.Resolve(mustProbe(t, "nosuch.c:3")); !errors.As(err, &pnf) || pnf.What != "file" {
		t.Errorf("nosuch.c: %v", err)
	}
	scale := siteOf(t, b, "scale")
	_, err = b.Bind(scale, mustExpr(t, "nosuch"))
	var vnf *VarNotFoundError
	if !errors.As(err, &vnf) || !contains(vnf.Visible, "r") || !contains(vnf.Visible, "k") {
		t.Errorf("nosuch: %v", err)
	}
	_, err = b.Bind(scale, mustExpr(t, "s"))
	var oo *OptimizedOutError
	if !errors.As(err, &oo) || len(oo.Lines) == 0 || !strings.Contains(err.Error(), "available at lines") {
		t.Errorf("s at entry: %v", err)
	}
	_, err = b.Bind(scale, mustExpr(t, "r->nosuch"))
	var pe *PathError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "members: [id pos arr name next]") {
		t.Errorf("r->nosuch: %v", err)
	}
	for _, bad := range []string{"k->x", "r.pos", "r->pos[1]", "*k", "r->arr[4]"} {
		if _, err := b.Bind(scale, mustExpr(t, bad)); !errors.As(err, &pe) {
			t.Errorf("%s: %v, want PathError", bad, err)
		}
	}
	if _, err := b.Bind(siteOf(t, b, "scale%return"), mustExpr(t, "global_counter")); !errors.Is(err, ErrUnsupported) {
		t.Errorf("global at a return probe: %v", err)
	}
	_, err = b.Bind(siteOf(t, b, "fscale"), mustExpr(t, "x"))
	var un *UnsupportedError
	if !errors.As(err, &un) || un.Reg != "xmm0" || !errors.Is(err, ErrUnsupported) {
		t.Errorf("x in fscale: %v", err)
	}
}

// TestWriteVars checks the --vars listing.
func TestWriteVars(t *testing.T) {
	b := open(t, build(t, target{"gcc", "-O2", true}))
	var buf bytes.Buffer
	if err := b.WriteVars(&buf, mustProbe(t, "use_entry:3")); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"use_entry+0x", "param  int  a  = rdi@entry  [entry value]", "param  int  b  = rsi"} {
		if !strings.Contains(out, want) {
			t.Errorf("listing lacks %q:\n%s", want, out)
		}
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestNoDWARF checks the error for binaries without debug info and that a
// separate debug file is found through .gnu_debuglink and the build-id.
func TestNoDWARF(t *testing.T) {
	dir := t.TempDir()
	plain := dir + "/plain"
	run(t, "gcc", "-O2", "-o", plain, "testdata/target.c")
	_, err := Open(plain)
	var nd *NoDWARFError
	if !errors.As(err, &nd) || !strings.Contains(err.Error(), "has no DWARF debug info; rebuild with -g or install its debug file") {
		t.Fatalf("plain: %v", err)
	}
	for _, how := range []string{"debuglink", "buildid"} {
		d := t.TempDir()
		bin := d + "/prog"
		run(t, "gcc", "-g", "-O2", "-Wl,--build-id", "-o", bin, "testdata/target.c")
		run(t, "objcopy", "--only-keep-debug", bin, bin+".debug")
		run(t, "objcopy", "--strip-debug", "--add-gnu-debuglink="+bin+".debug", bin)
		if how == "buildid" {
			ef, err := elf.Open(bin)
			if err != nil {
				t.Fatal(err)
			}
			id := buildID(ef)
			ef.Close()
			old := DebugRoot
			DebugRoot = d + "/root"
			t.Cleanup(func() { DebugRoot = old })
			h := hexString(id)
			run(t, "mkdir", "-p", DebugRoot+"/.build-id/"+h[:2])
			run(t, "mv", bin+".debug", DebugRoot+"/.build-id/"+h[:2]+"/"+h[2:]+".debug")
		}
		b, err := Open(bin)
		if err != nil {
			t.Fatalf("%s: %v", how, err)
		}
		if b.DebugPath == bin {
			t.Errorf("%s: DWARF came from the stripped binary", how)
		}
		s := siteOf(t, b, "scale")
		if bd := bind(t, b, s, "r->pos.x"); bd.Describe() != "r->pos.x = *(s32 *)(rdi+8)" {
			t.Errorf("%s: %s", how, bd.Describe())
		}
		b.Close()
	}
}

// "available at lines" lists lines of the site's own file; lines of code
// inlined from headers (atoi from stdlib.h) are named with their file.
func TestAvailableLinesOwnFile(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed")
	}
	src, _ := filepath.Abs("testdata/inline_header.c")
	data, _ := os.ReadFile(src)
	nlines := strings.Count(string(data), "\n")
	bin := filepath.Join(t.TempDir(), "ih")
	if out, err := exec.Command(gcc, "-g", "-O2", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	b := open(t, bin)
	sites, err := b.Resolve(mustProbe(t, "main:4"))
	if err != nil || len(sites) == 0 {
		t.Fatalf("main:4: %v", err)
	}
	checked := 0
	for _, s := range sites {
		vs, err := b.Vars(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			var oo *OptimizedOutError
			if !errors.As(v.Err, &oo) {
				continue
			}
			checked++
			for _, l := range oo.Lines {
				if l > nlines {
					t.Errorf("%s at %s: line %d is not a line of %s (%d lines): %v", v.Name, s, l, src, nlines, v.Err)
				}
			}
			for _, o := range oo.OtherLines {
				if !strings.Contains(v.Err.Error(), o) || strings.HasPrefix(o, "inline_header.c:") {
					t.Errorf("%s: other-file line %q: %v", v.Name, o, v.Err)
				}
			}
		}
	}
	if checked == 0 {
		t.Logf("no optimized-out variable at main:4 with this gcc: nothing to check")
	}
}

// A member in an optimized-out piece of a split struct says at which lines
// it is available (it used to say "no location anywhere in the function"),
// and members held in other pieces still bind.
func TestPieceMemberAvailableLines(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed")
	}
	src, _ := filepath.Abs("testdata/pieces.c")
	data, _ := os.ReadFile(src)
	line := func(mark string) int {
		for i, l := range strings.Split(string(data), "\n") {
			if strings.Contains(l, "/* @"+mark+" */") {
				return i + 1
			}
		}
		t.Fatalf("no marker @%s", mark)
		return 0
	}
	bin := filepath.Join(t.TempDir(), "pieces")
	if out, err := exec.Command(gcc, "-g", "-O2", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	b := open(t, bin)
	p1, p2 := line("p1"), line("p2")
	at := siteOf(t, b, "pieces.c:"+itoa(p2))
	vs, err := b.Vars(at)
	if err != nil {
		t.Fatal(err)
	}
	s := findVar(vs, "s")
	if s == nil || s.Loc.Kind != LocPieces {
		t.Skipf("s is not split into pieces at %s with this gcc: %+v", at, s)
	}
	if locCovers(s.Loc, 0, 4) {
		t.Skipf("s.a is not optimized out at %s with this gcc: %s", at, s.Describe())
	}
	_, err = b.Bind(at, mustExpr(t, "s.a"))
	var oo *OptimizedOutError
	if !errors.As(err, &oo) || !strings.Contains(err.Error(), "available at lines") {
		t.Fatalf("s.a at %s: %v, want optimized out with the lines where it is available", at, err)
	}
	found := false
	for _, l := range oo.Lines {
		found = found || l == p1
		if l == p2 {
			t.Errorf("s.a is said to be available at line %d, where it is not: %v", p2, err)
		}
	}
	if !found {
		t.Errorf("s.a (held in a register at line %d): %v", p1, err)
	}
	if locCovers(s.Loc, 8, 8) {
		bind(t, b, at, "s.b")
	}
}

// An entry value held in an XMM register is named as such (it was "entry
// value of a non-register expression").
func TestEntryValueInXMM(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed")
	}
	src, _ := filepath.Abs("testdata/float_entry.c")
	bin := filepath.Join(t.TempDir(), "fe")
	if out, err := exec.Command(gcc, "-g", "-O2", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	b := open(t, bin)
	data, _ := os.ReadFile(src)
	line := 0
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, "/* @fp */") {
			line = i + 1
		}
	}
	s := siteOf(t, b, "float_entry.c:"+itoa(line))
	_, err = b.Bind(s, mustExpr(t, "f"))
	if err == nil {
		t.Fatalf("f (a float) bound at %s", s)
	}
	if strings.Contains(err.Error(), "non-register") {
		t.Errorf("f at %s: %v, want it named as an XMM register", s, err)
	}
	if !strings.Contains(err.Error(), "xmm") {
		t.Logf("f at %s is not an XMM entry value with this gcc: %v", s, err)
	}
}

// A pointer gcc -O2 removed (DW_OP_implicit_pointer: &p of a struct it
// split into registers, passed to an inlined function) is read through,
// as gdb reads its <synthetic pointer>: b->first, b[0].last and *b are
// p's registers; b alone has no value (jq's block_append b).
func TestBindImplicitPointer(t *testing.T) {
	src := `struct pair { long first, last; };
static inline long sum(struct pair *b, long k)
{
	long r = b->first * 3;
	r += b->last ^ k;
	return r;
}
__attribute__((noinline)) long f(long x, long y)
{
	struct pair p = { x + 1, y * 2 };
	return sum(&p, x);
}
int main(int argc, char **argv) { (void)argv; return (int)f(argc + 10, argc + 20) & 0x7f; }
`
	bin := buildFiles(t, "gcc", []string{"-g", "-O2"}, map[string]string{"ip.c": src}, "ip.c")
	b := open(t, bin)
	f := siteOf(t, b, "f")
	var at *Site
	for a := f.EntryAddr; a < f.EntryAddr+32 && at == nil; a++ {
		s, err := b.SiteAt(a)
		if err != nil {
			continue
		}
		vs, _ := b.Vars(s)
		for _, v := range vs {
			var ip *ImplicitPointerError
			if v.Name == "b" && errors.As(v.Err, &ip) {
				at = &s
			}
		}
	}
	if at == nil {
		t.Skip("skipped: gcc gave sum's b no DW_OP_implicit_pointer location here")
	}
	for expr, reg := range map[string]string{"b->first": "rdi", "b[0].last": "rsi", "*b": "rsi"} {
		bd := bind(t, b, *at, expr)
		if bd.ReadsMemory() || !strings.Contains(bd.Describe(), reg) {
			t.Errorf("%s at %s = %s, want p's register %s", expr, at, bd.Describe(), reg)
		}
	}
	if _, err := b.Bind(*at, mustExpr(t, "b")); !errors.Is(err, ErrUnsupported) {
		t.Errorf("b at %s: %v, want an unsupported error", at, err)
	}
}

// A string constant (DW_AT_const_value of string form: gcc's
// __PRETTY_FUNCTION__ of an assert it proved never fails) is listed as the
// string and its elements bind as constants, as gdb prints them; it was
// refused with "DW_AT_const_value of class ClassString".
func TestBindStringConstant(t *testing.T) {
	src := `#include <assert.h>
#include <stdio.h>
static unsigned char table[16];
__attribute__((noinline)) int fill(int n)
{
	int sum = 0;
	for (unsigned u = 0; u < 16 && u < (unsigned)n; u++) {
		assert(u < 16);
		table[u] = (unsigned char)u;
		sum += table[u];
	}
	return sum;
}
int main(int argc, char **argv) { (void)argv; printf("%d\n", fill(argc + 3)); return 0; }
`
	bin := buildFiles(t, "gcc", []string{"-g", "-O2"}, map[string]string{"pf.c": src}, "pf.c")
	b := open(t, bin)
	s := siteOf(t, b, "fill")
	vs, err := b.Vars(s)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, v := range vs {
		if v.Name != "__PRETTY_FUNCTION__" {
			continue
		}
		found = true
		if errors.Is(v.Err, ErrOptimizedOut) {
			t.Skipf("skipped: gcc gave __PRETTY_FUNCTION__ no constant here: %v", v.Err)
		}
		if v.Err != nil {
			t.Fatalf("__PRETTY_FUNCTION__: %v", v.Err)
		}
		if got := v.Loc.Describe(v.Type); got != `const "fill"` || v.Type.Spelling != "const char [5]" {
			t.Errorf("__PRETTY_FUNCTION__ = %s %s, want const char [5] = const \"fill\"", v.Type.Spelling, got)
		}
	}
	if !found {
		t.Skip("skipped: no __PRETTY_FUNCTION__ in fill's scope here")
	}
	c := bind(t, b, s, "__PRETTY_FUNCTION__[3]")
	if v, ok := c.Loc.Fetch.IsConst(); !ok || v != 'l' {
		t.Errorf("__PRETTY_FUNCTION__[3] = %s, want const 'l'", c.Describe())
	}
}
