package dwarfvars

import (
	"debug/elf"
	"errors"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

func TestParseProbe(t *testing.T) {
	cases := []struct {
		in   string
		want Probe
	}{
		{"main", Probe{Kind: ProbeFunc, Func: "main"}},
		{"main%return", Probe{Kind: ProbeFunc, Func: "main", Return: true}},
		{"work+0x1c", Probe{Kind: ProbeFuncOffset, Func: "work", Offset: 0x1c}},
		{"work+28", Probe{Kind: ProbeFuncOffset, Func: "work", Offset: 28}},
		{"work:3", Probe{Kind: ProbeFuncLine, Func: "work", Line: 3}},
		{"helper.constprop.0:2", Probe{Kind: ProbeFuncLine, Func: "helper.constprop.0", Line: 2}},
		{"prog.c:12", Probe{Kind: ProbeFileLine, File: "prog.c", Line: 12}},
		{"src/prog.c:12", Probe{Kind: ProbeFileLine, File: "src/prog.c", Line: 12}},
		{"/usr/bin/prog:main", Probe{Kind: ProbeFunc, Func: "main", Binary: "/usr/bin/prog"}},
		{"./a.out:prog.c:7", Probe{Kind: ProbeFileLine, File: "prog.c", Line: 7, Binary: "./a.out"}},
		{"/bin/x:f+0x10", Probe{Kind: ProbeFuncOffset, Func: "f", Offset: 16, Binary: "/bin/x"}},
		{"/bin/x:f%return", Probe{Kind: ProbeFunc, Func: "f", Return: true, Binary: "/bin/x"}},
		// A template instantiation as --vars suggests it: blanks inside
		// its arguments.
		{"geo::clampsum<long int>:4", Probe{Kind: ProbeFuncLine, Func: "geo::clampsum<long int>", Line: 4}},
		{"geo::clampsum<long int>+0x3c", Probe{Kind: ProbeFuncOffset, Func: "geo::clampsum<long int>", Offset: 0x3c}},
	}
	for _, c := range cases {
		got, err := ParseProbe(c.in)
		if err != nil {
			t.Errorf("ParseProbe(%q): %v", c.in, err)
			continue
		}
		c.want.Spec = c.in
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseProbe(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
	for _, bad := range []string{"", "1abc", "f+", "f+-1", "f+0xzz", "f:x", "prog.c:0", "f%ret", "a b", "f:", ":3", "prog.c"} {
		if p, err := ParseProbe(bad); err == nil && bad != "prog.c" {
			t.Errorf("ParseProbe(%q) = %+v, want error", bad, p)
		}
	}
}

func TestParseExpr(t *testing.T) {
	cases := []struct {
		in   string
		want Expr
	}{
		{"v", Expr{Var: "v"}},
		{"st->count", Expr{Var: "st", Path: []PathElem{{Kind: PathArrow, Name: "count"}}}},
		{"v.f.g", Expr{Var: "v", Path: []PathElem{{Kind: PathField, Name: "f"}, {Kind: PathField, Name: "g"}}}},
		{"v[3]", Expr{Var: "v", Path: []PathElem{{Kind: PathIndex, Index: 3}}}},
		{"*v", Expr{Var: "v", Derefs: 1}},
		{"&v.x", Expr{Var: "v", AddrOf: true, Path: []PathElem{{Kind: PathField, Name: "x"}}}},
		{"v->a[2].b", Expr{Var: "v", Path: []PathElem{{Kind: PathArrow, Name: "a"}, {Kind: PathIndex, Index: 2}, {Kind: PathField, Name: "b"}}}},
		{" ( v ) -> f ", Expr{Var: "v", Path: []PathElem{{Kind: PathArrow, Name: "f"}}}},
		{"$retval", Expr{Var: "$retval"}},
		{"v[i]", Expr{Var: "v", Path: []PathElem{{Kind: PathIndex, IndexExpr: &Expr{Text: "i", Var: "i"}}}}},
		{"v[s->a[1]]", Expr{Var: "v", Path: []PathElem{{Kind: PathIndex, IndexExpr: &Expr{Text: "s->a[1]", Var: "s",
			Path: []PathElem{{Kind: PathArrow, Name: "a"}, {Kind: PathIndex, Index: 1}}}}}}},
	}
	for _, c := range cases {
		got, err := ParseExpr(c.in)
		if err != nil {
			t.Errorf("ParseExpr(%q): %v", c.in, err)
			continue
		}
		got.Text = ""
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseExpr(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
	for _, bad := range []string{"", "1v", "v->", "v.", "v[", "v[x", "v[-1]", "v[&x]", "v[x+1]", "v[]", "v+1", "*&v", "(v", "v)", "v..f"} {
		if e, err := ParseExpr(bad); err == nil {
			t.Errorf("ParseExpr(%q) = %+v, want error", bad, e)
		}
	}
}

// TestResolveFunc checks FUNC sites against nm and the file bytes.
func TestResolveFunc(t *testing.T) {
	for _, tg := range targets(t) {
		t.Run(tg.name(), func(t *testing.T) {
			bin := build(t, tg)
			b := open(t, bin)
			nm := nmFuncs(t, bin)
			raw, err := os.ReadFile(bin)
			if err != nil {
				t.Fatal(err)
			}
			ef, err := elf.Open(bin)
			if err != nil {
				t.Fatal(err)
			}
			defer ef.Close()
			text := ef.Section(".text")
			tdata, _ := text.Data()
			for _, fn := range []string{"scale", "sum_loop", "use_entry", "pieces", "many", "counter", "main", "fscale"} {
				sites, err := b.Resolve(mustProbe(t, fn))
				if err != nil {
					t.Fatalf("%s: %v", fn, err)
				}
				var s *Site
				for i := range sites {
					if sites[i].Func == fn {
						s = &sites[i]
					}
				}
				if s == nil {
					t.Fatalf("%s: no out-of-line site in %v", fn, sites)
				}
				if s.Addr-s.FuncOffset != nm[fn] {
					t.Errorf("%s: site %#x-%#x, nm says %#x", fn, s.Addr, s.FuncOffset, nm[fn])
				}
				if tg.opt == "-O0" {
					if s.FuncOffset == 0 || s.FuncOffset > 0x30 {
						t.Errorf("%s at -O0: offset %#x, want just past the prologue", fn, s.FuncOffset)
					}
				} else if s.FuncOffset != 0 {
					t.Errorf("%s at %s: offset %#x, want 0", fn, tg.opt, s.FuncOffset)
				}
				if s.EntryAddr != nm[fn] {
					t.Errorf("%s: EntryAddr %#x, want %#x", fn, s.EntryAddr, nm[fn])
				}
				// The file offset must hold the instruction bytes at Addr.
				want := tdata[s.Addr-text.Addr : s.Addr-text.Addr+4]
				if got := raw[s.FileOffset : s.FileOffset+4]; string(got) != string(want) {
					t.Errorf("%s: bytes at file offset %#x = %x, at va %#x = %x", fn, s.FileOffset, got, s.Addr, want)
				}
			}
			ret, err := b.Resolve(mustProbe(t, "scale%return"))
			if err != nil || len(ret) != 1 || !ret[0].Return || ret[0].Addr != nm["scale"] {
				t.Fatalf("scale%%return = %v, %v", ret, err)
			}
			vs, err := b.Vars(ret[0])
			if err != nil || len(vs) != 1 || vs[0].Name != "$retval" || vs[0].Loc.Fetch.Start.RegsOff != 80 {
				t.Errorf("vars at return: %+v, %v", vs, err)
			}
		})
	}
}

// objdumpOffsets returns the instruction offsets of a function.
func objdumpOffsets(t *testing.T, bin, fn string, start uint64) []uint64 {
	out, err := exec.Command("objdump", "-d", "--no-show-raw-insn", "--disassemble="+fn, bin).Output()
	if err != nil {
		t.Skipf("objdump: %v", err)
	}
	var offs []uint64
	for _, l := range strings.Split(string(out), "\n") {
		l = strings.TrimSpace(l)
		i := strings.IndexByte(l, ':')
		if i <= 0 || strings.Contains(l[:i], " ") {
			continue
		}
		var a uint64
		if _, err := fmtSscanHex(l[:i], &a); err == nil && a >= start {
			offs = append(offs, a-start)
		}
	}
	return offs
}

func TestResolveFuncOffset(t *testing.T) {
	tg := target{"gcc", "-O0", true}
	bin := build(t, tg)
	b := open(t, bin)
	start := nmFuncs(t, bin)["scale"]
	offs := objdumpOffsets(t, bin, "scale", start)
	if len(offs) < 4 {
		t.Fatalf("objdump gave %v", offs)
	}
	boundary := map[uint64]bool{}
	for _, o := range offs {
		boundary[o] = true
	}
	last := offs[len(offs)-1]
	for off := uint64(0); off <= last; off++ {
		sites, err := b.Resolve(Probe{Spec: "scale+x", Kind: ProbeFuncOffset, Func: "scale", Offset: off})
		if boundary[off] {
			if err != nil || len(sites) != 1 || sites[0].Addr != start+off || sites[0].FuncOffset != off {
				t.Errorf("scale+%#x: %v, %v", off, sites, err)
			}
			continue
		}
		var be *BadOffsetError
		if !errors.As(err, &be) || !errors.Is(err, ErrBadOffset) {
			t.Errorf("scale+%#x: got %v, want BadOffsetError", off, err)
		} else if !boundary[be.Prev] || !boundary[be.Next] || be.Prev >= off || be.Next <= off {
			t.Errorf("scale+%#x: neighbours %#x/%#x are wrong", off, be.Prev, be.Next)
		}
	}
	if _, err := b.Resolve(mustProbe(t, "scale+0x100000")); !errors.Is(err, ErrBadOffset) {
		t.Errorf("offset outside: %v", err)
	}
}

func TestResolveLines(t *testing.T) {
	loop := lineOf(t, "for (int i = 0; i < n; i++)")
	decl := lineOf(t, "long sum_loop(int n)")
	for _, tg := range targets(t) {
		t.Run(tg.name(), func(t *testing.T) {
			b := open(t, build(t, tg))
			fl, err := b.Resolve(mustProbe(t, "target.c:"+itoa(loop)))
			if err != nil {
				t.Fatal(err)
			}
			rl, err := b.Resolve(mustProbe(t, "sum_loop:"+itoa(loop-decl)))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(addrs(fl), addrs(rl)) {
				t.Errorf("file:line %v != func:rln %v", addrs(fl), addrs(rl))
			}
			for _, s := range fl {
				if s.Line != loop || s.Func != "sum_loop" || !strings.HasSuffix(s.File, "target.c") {
					t.Errorf("site %+v is not on line %d of sum_loop", s, loop)
				}
			}
			// Path suffixes match on component boundaries only.
			if _, err := b.Resolve(mustProbe(t, "testdata/target.c:"+itoa(loop))); err != nil {
				t.Errorf("suffix match: %v", err)
			}
			if _, err := b.Resolve(mustProbe(t, "arget.c:"+itoa(loop))); !errors.Is(err, ErrNotFound) {
				t.Errorf("partial component matched: %v", err)
			}
			// A comment line has no code: neighbours are suggested.
			_, err = b.Resolve(mustProbe(t, "target.c:"+itoa(lineOf(t, "A pointer to a struct read"))))
			var nc *NoCodeError
			if !errors.As(err, &nc) || len(nc.Nearest) == 0 {
				t.Errorf("comment line: %v", err)
			}
			// Every line suggested resolves (not lines with only
			// non-statement rows, which the jq comparison met).
			if nc != nil {
				for _, l := range nc.Nearest {
					if _, err := b.Resolve(mustProbe(t, "target.c:"+itoa(l))); err != nil {
						t.Errorf("suggested line %d: %v", l, err)
					}
				}
			}
		})
	}
}

func TestInlinedAndClones(t *testing.T) {
	b := open(t, build(t, target{"gcc", "-O2", true}))
	sites, err := b.Resolve(mustProbe(t, "square"))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range sites {
		if s.Func == "sum_loop" && len(s.Inlined) > 0 && s.Inlined[0] == "square" {
			found = true
			vs, err := b.Vars(s)
			if err != nil {
				t.Fatal(err)
			}
			// C scoping: the inlined body sees its own names (its sq
			// shadows the caller's), not the caller's n.
			v := findVar(vs, "v")
			if v == nil || !v.Inlined || v.Scope != "square" || findVar(vs, "n") != nil {
				t.Errorf("vars in inlined square: %+v", vs)
			}
			if sq := findVar(vs, "sq"); sq == nil || sq.Scope != "square" {
				t.Errorf("sq in inlined square is not square's: %+v", sq)
			}
			if _, err := b.Bind(s, mustExpr(t, "n")); !errors.Is(err, ErrNotFound) {
				t.Errorf("the caller's n bound inside inlined square: %v", err)
			}
			// A static local exists only in the abstract origin.
			st := findVar(vs, "squares")
			if st == nil || st.Kind != VarStatic || st.Scope != "square" {
				t.Errorf("no static local squares in inlined square: %+v", vs)
				continue
			}
			bd, err := b.Bind(s, mustExpr(t, "squares"))
			if err != nil || bd.Loc.Fetch.Start.Kind != SrcAddr {
				t.Errorf("squares in inlined square: %v, %v", bd, err)
			}
		}
	}
	if !found {
		t.Errorf("no inlined copy of square in sum_loop: %v", sites)
	}
	// square has only inlined copies: nothing to return from.
	_, err = b.Resolve(mustProbe(t, "square%return"))
	var nf *ProbeNotFoundError
	if !errors.As(err, &nf) || nf.InlinedCopies == 0 || !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "only inlined") {
		t.Errorf("square%%return: %v", err)
	}
	nm := nmFuncs(t, b.Path)
	hs, err := b.Resolve(mustProbe(t, "helper"))
	if err != nil || len(hs) != 1 || hs[0].Func != "helper.constprop.0" || hs[0].Addr != nm["helper.constprop.0"] {
		t.Fatalf("helper: %v, %v", hs, err)
	}
	bd, err := b.Bind(hs[0], mustExpr(t, "mode"))
	if c, ok := bd.Loc.Fetch.IsConst(); err != nil || !ok || c != 3 {
		t.Errorf("mode in the clone: %v, %v", bd, err)
	}
}

func findVar(vs []Var, name string) *Var {
	for i := range vs {
		if vs[i].Name == name && !vs[i].Shadowed {
			return &vs[i]
		}
	}
	return nil
}

func addrs(ss []Site) []uint64 {
	var out []uint64
	for _, s := range ss {
		out = append(out, s.Addr)
	}
	return out
}
