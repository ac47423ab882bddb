package dwarfvars

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A binary of several compile units: functions of the second and third
// are resolved with their variables, at -O0 and -O2, in DWARF 4 and 5
// (debug/dwarf's Reader.Seek refuses a unit's header offset for every unit
// but the first, so a CU must be entered at its first DIE).
func TestMultipleCompileUnits(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("skipped: gcc not installed")
	}
	dir := t.TempDir()
	files := map[string]string{
		"a.c": "int second(int x, long y);\nint third(char *s);\nint main(int argc, char **argv) { return second(argc, 7) + third(argv[0]); }\n",
		"b.c": "struct pair { int a; long b; };\n__attribute__((noinline)) int second(int x, long y) {\n\tstruct pair p = { x, y };\n\treturn p.a * 3 + (int)p.b;\n}\n",
		"c.c": "__attribute__((noinline)) int third(char *s) {\n\tint n = 0;\n\twhile (s[n]) n++;\n\treturn n;\n}\n",
	}
	var srcs []string
	for _, name := range []string{"a.c", "b.c", "c.c"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, p)
	}
	for _, flags := range [][]string{{"-O0", "-gdwarf-5"}, {"-O2", "-gdwarf-5"}, {"-O2", "-gdwarf-4"}} {
		bin := filepath.Join(dir, "multi"+flags[0]+flags[1])
		args := append(append([]string{"-g", "-o", bin}, flags...), srcs...)
		if out, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
			t.Fatalf("gcc %v: %v\n%s", args, err, out)
		}
		b := open(t, bin)
		for probe, vars := range map[string][]string{"second": {"x", "y"}, "third": {"s"}, "main": {"argc", "argv"}} {
			sites, err := b.Resolve(mustProbe(t, probe))
			if err != nil || len(sites) == 0 {
				t.Errorf("%v: resolve %s: %v", flags, probe, err)
				continue
			}
			vs, err := b.Vars(sites[0])
			if err != nil {
				t.Errorf("%v: vars at %s: %v", flags, probe, err)
				continue
			}
			have := map[string]bool{}
			for _, v := range vs {
				have[v.Name] = true
			}
			for _, want := range vars {
				if !have[want] {
					t.Errorf("%v: %s has no variable %s (has %v)", flags, probe, want, have)
				}
			}
		}
	}
}

// Static functions of one name in two compile units: FUNC probes both (each
// site names its unit and is marked ambiguous, so that it is attached by
// file offset), FUNC@SRC picks one, FUNC+OFF without @SRC is refused with
// both alternatives, and a static global of one name in both units binds
// to the site's own.
func TestStaticFunctionsOfOneName(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("skipped: gcc not installed")
	}
	dir := t.TempDir()
	files := map[string]string{
		"main.c": "int fa(int); long fb(long);\nint main(int argc, char **argv) { return fa(argc) + (int)fb(argc); }\n",
		"a.c":    "static int tally = 1;\nstatic __attribute__((noinline)) int helper(int x)\n{\n\ttally += x;\n\treturn tally * 2;\n}\nint fa(int x) { return helper(x) + 1; }\n",
		"b.c":    "static long tally = 2;\nstatic __attribute__((noinline)) long helper(long y, int z)\n{\n\tlong v = y * z;\n\ttally += v;\n\treturn tally;\n}\nlong fb(long y) { return helper(y, 3) + 1; }\n",
	}
	var srcs []string
	for _, name := range []string{"main.c", "a.c", "b.c"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, p)
	}
	bin := filepath.Join(dir, "dup")
	if out, err := exec.Command("gcc", append([]string{"-g", "-O0", "-o", bin}, srcs...)...).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	b := open(t, bin)
	sites, err := b.Resolve(mustProbe(t, "helper"))
	if err != nil || len(sites) != 2 {
		t.Fatalf("helper: %d sites, %v; want one in each unit", len(sites), err)
	}
	for i, want := range []string{"a.c", "b.c"} {
		s := sites[i]
		if filepath.Base(s.CU) != want || filepath.Base(s.File) != want || !s.FuncAmbiguous {
			t.Errorf("site %d: CU %q file %q ambiguous %v; want %s, ambiguous", i, s.CU, s.File, s.FuncAmbiguous, want)
		}
		if got, wantSpec := s.OffsetSpec(), fmt.Sprintf("helper@%s+%#x", want, s.FuncOffset); got != wantSpec {
			t.Errorf("OffsetSpec %q, want %q", got, wantSpec)
		}
		// The spec names that copy only.
		again, err := b.Resolve(mustProbe(t, s.OffsetSpec()))
		if err != nil || len(again) != 1 || again[0].Addr != s.Addr {
			t.Errorf("%s: %v %v; want the site at %#x", s.OffsetSpec(), again, err, s.Addr)
		}
		// tally is the unit's own static (int in a.c, long in b.c).
		bd, err := b.Bind(s, mustExpr(t, "tally"))
		if err != nil {
			t.Errorf("%s: tally: %v", s, err)
			continue
		}
		if size := map[string]int{"a.c": 4, "b.c": 8}[want]; bd.Type.Size != size {
			t.Errorf("%s: tally has size %d, want %d (the unit's own static)", s, bd.Type.Size, size)
		}
	}
	if sites, err := b.Resolve(mustProbe(t, "helper@b.c%return")); err != nil || len(sites) != 1 || filepath.Base(sites[0].CU) != "b.c" {
		t.Errorf("helper@b.c%%return: %v %v", sites, err)
	}
	if sites, err := b.Resolve(mustProbe(t, "helper@a.c:2")); err != nil || len(sites) == 0 || sites[0].Line != 4 {
		t.Errorf("helper@a.c:2: %v %v; want line 4 of a.c", sites, err)
	}
	_, err = b.Resolve(mustProbe(t, "helper+0"))
	var amb *AmbiguousFuncError
	if !errors.As(err, &amb) || !strings.Contains(err.Error(), "helper@a.c+0x0 or helper@b.c+0x0") {
		t.Errorf("helper+0: %v; want an ambiguity listing helper@a.c+0x0 or helper@b.c+0x0", err)
	}
	if _, err := b.Resolve(mustProbe(t, "helper@c.c")); err == nil || !strings.Contains(err.Error(), "helper@a.c, helper@b.c") {
		t.Errorf("helper@c.c: %v; want not found, suggesting helper@a.c, helper@b.c", err)
	}
	// Functions of one name only are not ambiguous.
	if sites, err := b.Resolve(mustProbe(t, "fa")); err != nil || sites[0].FuncAmbiguous || sites[0].OffsetSpec() != fmt.Sprintf("fa+%#x", sites[0].FuncOffset) {
		t.Errorf("fa: %v %v", sites, err)
	}
}

func TestParseProbeSrc(t *testing.T) {
	for spec, want := range map[string]Probe{
		"helper@a.c":          {Kind: ProbeFunc, Func: "helper", Src: "a.c"},
		"helper@dir/a.c+0x10": {Kind: ProbeFuncOffset, Func: "helper", Src: "dir/a.c", Offset: 16},
		"helper@a.c:3":        {Kind: ProbeFuncLine, Func: "helper", Src: "a.c", Line: 3},
		"helper@a.c%return":   {Kind: ProbeFunc, Func: "helper", Src: "a.c", Return: true},
		"/bin/x:helper@a.c:3": {Kind: ProbeFuncLine, Func: "helper", Src: "a.c", Line: 3, Binary: "/bin/x"},
	} {
		p, err := ParseProbe(spec)
		if err != nil {
			t.Errorf("%s: %v", spec, err)
			continue
		}
		want.Spec = spec
		if p != want {
			t.Errorf("%s: %+v, want %+v", spec, p, want)
		}
		if s := p.String(); "/bin/x:"+s != spec && s != spec {
			t.Errorf("%s: String() %q", spec, s)
		}
	}
	for _, bad := range []string{"helper@", "@a.c", "helper@a.c:x", "a.c@b.c:3"} {
		if p, err := ParseProbe(bad); err == nil {
			t.Errorf("%s: parsed as %+v", bad, p)
		}
	}
}
