package dwarfvars

import (
	"os"
	"os/exec"
	"path/filepath"
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
