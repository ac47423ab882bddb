package tests

// Target types in the handler (issue 13): tests/dwarf/types/handler.c takes
// a pointer to the traced program's State and reads through it, three and
// four levels deep (L->l_G->mainthread->ci->func), with BPFCC_READ and no
// declaration of its own: <bpfcc/target.h> declares the types from the
// traced binary's DWARF. Every value must equal gdb's at every call.

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc"
)

var dwTypesDir = filepath.Join("dwarf", "types")

// dwTypesExprs are, by the handler's tag, the expressions gdb prints for
// what handler.c records (raw bits where the handler reads a double or
// bytes of an __int128).
var dwTypesExprs = []string{
	0:  "L->status",
	1:  "L->l_G->total",
	2:  "L->l_G->mainthread->status",
	3:  "L->l_G->mainthread->ci->func",
	4:  "L->ci->previous->func",
	5:  "L->base_ci.nresults",
	6:  "L->base_ci.callstatus",
	7:  "L->base_ci.hooked",
	8:  "L->base_ci.delta",
	9:  "L->base_ci.extra",
	10: "L->base_ci.mode",
	11: "L->pk.c",
	12: "L->pk.i",
	13: "L->pk.s",
	14: "*(unsigned long *)&L->l_G->ratio",
	15: "L->l_G->u.i",
	16: "L->l_G->where.line",
	17: "L->l_G->counts[1]",
	18: "L->top",
	19: "L->l_G->name[1]",
	20: "L->ci->mode == M_RUN",
	21: "*(long *)(L->label + 8)",
	22: "((unsigned char *)&L->wide)[8]",
	23: "L->ci->callstatus",
	24: "L->base_ci.delta",
	25: "L->ci->previous->extra",
}

func dwTypesTargets(t testing.TB) []dwBuild {
	t.Helper()
	gcc := dwRequireGCC(t)
	src, err := filepath.Abs(filepath.Join(dwTypesDir, "t_types.c"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var builds []dwBuild
	add := func(name, cc string, flags ...string) {
		out := filepath.Join(dir, "types-"+name)
		args := append(append(append([]string{}, flags...), "-o", out), src)
		if b, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", cc, strings.Join(args, " "), err, b)
		}
		builds = append(builds, dwBuild{name: name, path: out})
	}
	add("gcc-O0", gcc, "-g", "-O0")
	add("gcc-O2", gcc, "-g", "-O2")
	if c := clangPath(); c != "" {
		add("clang19-O2", c, "-g", "-O2")
	} else {
		t.Logf("clang-19 not installed: only gcc builds are traced")
	}
	return builds
}

func TestDWARFTargetTypes(t *testing.T) {
	dwRequireE2E(t)
	handler := filepath.Join(dwTypesDir, "handler.c")
	cases, matched := 0, 0
	for _, bld := range dwTypesTargets(t) {
		t.Run(bld.name, func(t *testing.T) {
			res, err := bpfcc.Compile(handler, bpfcc.Options{Binary: bld.path})
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			cmd := []string{"env", "-i", "setarch", "-R", bld.path, dwArg}
			maps, errOut, err := dwRunMaps(res.Spec, cmd)
			if err != nil {
				t.Fatalf("run: %v\n%s", err, errOut)
			}
			got := map[[2]uint64]uint64{}
			for _, e := range maps["rec"] {
				var k struct{ N, Tag json.Number }
				if err := json.Unmarshal(e.Key, &k); err != nil {
					t.Fatalf("rec key %s: %v", e.Key, err)
				}
				n, _ := strconv.ParseUint(k.N.String(), 10, 64)
				tag, _ := strconv.ParseUint(k.Tag.String(), 10, 64)
				v, err := strconv.ParseInt(strings.TrimSpace(string(e.Value)), 10, 64)
				if err != nil {
					t.Fatalf("rec value %s: %v", e.Value, err)
				}
				got[[2]uint64{n, tag}] = uint64(v)
			}
			exprs := append([]string{"n"}, dwTypesExprs...)
			gdb, err := dwRunGDB(t, []string{bld.path, dwArg}, false, []dwGDBSite{{ID: "step", Loc: "step", Func: "step", Exprs: exprs}}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			hits := gdb["step"]
			if len(hits) != 8 {
				t.Fatalf("gdb stopped %d times at step, want 8", len(hits))
			}
			for _, h := range hits {
				n, err := strconv.ParseUint(h.Vals["n"], 16, 64)
				if err != nil {
					t.Fatalf("gdb's n: %q", h.Vals["n"])
				}
				for tag, e := range dwTypesExprs {
					cases++
					want, ok := h.Vals[e], true
					var w uint64
					if strings.HasPrefix(want, "error:") {
						// The read fails: BPFCC_READ gives 0.
						w = 0
					} else if w, err = strconv.ParseUint(want, 16, 64); err != nil {
						ok = false
					}
					g, hit := got[[2]uint64{n, uint64(tag)}]
					switch {
					case !ok:
						t.Errorf("n=%d %s: gdb printed %q", n, e, want)
					case !hit:
						t.Errorf("n=%d %s: the handler recorded nothing (gdb %s)", n, e, want)
					case g != w:
						t.Errorf("n=%d %s: handler %#x, gdb %s", n, e, g, want)
					default:
						matched++
					}
				}
			}
		})
	}
	t.Logf("%d (call, expression) cases, %d equal gdb's", cases, matched)
}

// <bpfcc/target.h> compiles for a program naming only the typedef State,
// and for one reading through l_G (which needs struct Global defined);
// without -x it is an #error saying so.
func TestDWARFTargetHeader(t *testing.T) {
	gcc := dwRequireGCC(t)
	bin := filepath.Join(t.TempDir(), "t_types")
	if b, err := exec.Command(gcc, "-g", "-O0", "-o", bin, filepath.Join(dwTypesDir, "t_types.c")).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	src := `#include <bpfcc.h>
#include <bpfcc/target.h>
SEC("uprobe") int h(struct pt_regs *ctx) { State *L = (State *)PT_REGS_PARM1(ctx); return BPFCC_READ(L, top) > 0; }
char LICENSE[] SEC("license") = "GPL";
`
	if _, err := bpfcc.Compile("h.c", bpfcc.Options{Source: []byte(src), Binary: bin}); err != nil {
		t.Fatalf("compile: %v", err)
	}
	// The same program reading through l_G, which it would not compile
	// without struct Global's definition.
	src2 := strings.Replace(src, "BPFCC_READ(L, top)", "BPFCC_READ(L, l_G, total)", 1)
	if _, err := bpfcc.Compile("h.c", bpfcc.Options{Source: []byte(src2), Binary: bin}); err != nil {
		t.Fatalf("compile through l_G: %v", err)
	}
	// A typedef the program declares itself keeps its meaning: the
	// binary's of that name (lu_byte, an unsigned char there) is renamed.
	src4 := "typedef int lu_byte;\ntypedef long (*hookfn)(int);\n" + strings.Replace(src, "> 0;", "> (lu_byte)-1;", 1)
	if _, err := bpfcc.Compile("h.c", bpfcc.Options{Source: []byte(src4), Binary: bin}); err != nil {
		t.Errorf("a program declaring typedef lu_byte: %v", err)
	}
	// A bit-field has no address: BPFCC_READ names BPFCC_READ_BITFIELD
	// (it used to read the unit's bytes unshifted, a wrong value).
	src3 := strings.Replace(src, "BPFCC_READ(L, top)", "BPFCC_READ(L, ci, callstatus)", 1)
	_, err := bpfcc.Compile("h.c", bpfcc.Options{Source: []byte(src3), Binary: bin})
	if want := "h.c:3:"; err == nil || !strings.Contains(fmt.Sprint(err), want) || !strings.Contains(fmt.Sprint(err), "callstatus is a bit-field, which has no address: read it with BPFCC_READ_BITFIELD") {
		t.Errorf("BPFCC_READ of a bit-field: got %v, want an error at %s naming BPFCC_READ_BITFIELD", err, want)
	}
	// Without -x the header says what it needs.
	_, err = bpfcc.Compile("h.c", bpfcc.Options{Source: []byte(src)})
	if err == nil || !strings.Contains(fmt.Sprint(err), "compile with -x BINARY") {
		t.Errorf("without -x: got %v, want the header's #error", err)
	}
}
