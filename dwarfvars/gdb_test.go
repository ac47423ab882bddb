package dwarfvars

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The gdb oracle: stop at every probe site of the target builds, let gdb
// print each bound expression, and compare with our Binding evaluated in Go
// over the registers and memory gdb reports at that stop.

const gdbPath = "/usr/bin/gdb"

// gdbDriver runs inside gdb. Breakpoints collect registers, the value gdb
// computes for each expression, and requested memory, without stopping.
const gdbDriver = `
import gdb, json
cfg = json.load(open(CFG))
out = open(OUT, "w")
REGS = ["rax","rdx","rcx","rbx","rsi","rdi","rbp","rsp","r8","r9","r10","r11","r12","r13","r14","r15","rip"]
def regs():
    f = gdb.selected_frame()
    return [int(f.read_register(r)) & 0xffffffffffffffff for r in REGS]
last_entry = {}
class Entry(gdb.Breakpoint):
    def stop(self):
        last_entry[self.key] = regs()
        return False
class Site(gdb.Breakpoint):
    def stop(self):
        if self.done:
            return False
        self.done = True
        rec = {"id": self.sid, "regs": regs(), "entry": last_entry.get(self.key), "vals": [], "mem": {}}
        for e in self.exprs or []:
            try:
                v = gdb.parse_and_eval(e)
                if v.is_optimized_out:
                    rec["vals"].append("optimized out")
                    continue
                n = int(v)
                bits = v.type.strip_typedefs().sizeof * 8
                rec["vals"].append("%x" % (n & ((1 << bits) - 1)))
            except Exception as ex:
                rec["vals"].append("error: " + str(ex))
        inf = gdb.selected_inferior()
        for a in self.mem or []:
            try:
                rec["mem"][str(a)] = bytes(inf.read_memory(a, 8)).hex()
            except Exception:
                rec["mem"][str(a)] = ""
        out.write(json.dumps(rec) + "\n")
        out.flush()
        return False
for s in cfg["sites"]:
    if s["entry"] and s["entry"] != s["spec"]:
        b = Entry(s["entry"], internal=True)
        b.key = s["entry"]
    b = Site(s["spec"], internal=True)
    b.sid, b.exprs, b.mem, b.done, b.key = s["id"], s["exprs"], s["mem"], False, s["entry"]
    if s["entry"] == s["spec"]:
        b.key = None
gdb.execute("run")
out.close()
`

type gdbSite struct {
	ID    int      `json:"id"`
	Spec  string   `json:"spec"`
	Entry string   `json:"entry"`
	Exprs []string `json:"exprs"`
	Mem   []uint64 `json:"mem"`
}

type gdbRecord struct {
	ID    int               `json:"id"`
	Regs  []uint64          `json:"regs"`
	Entry []uint64          `json:"entry"`
	Vals  []string          `json:"vals"`
	Mem   map[string]string `json:"mem"`
}

// gdbRegOrder maps the driver's register list to DWARF numbers.
var gdbRegOrder = []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}

func runGDB(t *testing.T, bin string, sites []gdbSite) map[int]gdbRecord {
	t.Helper()
	dir := t.TempDir()
	cfg, out, script := filepath.Join(dir, "cfg.json"), filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "drv.py")
	data, _ := json.Marshal(map[string]any{"sites": sites})
	if err := os.WriteFile(cfg, data, 0o644); err != nil {
		t.Fatal(err)
	}
	drv := fmt.Sprintf("CFG = %q\nOUT = %q\n%s", cfg, out, gdbDriver)
	if err := os.WriteFile(script, []byte(drv), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(gdbPath, "-nx", "-batch", "-ex", "set pagination off", "-ex", "set confirm off",
		"-ex", "set breakpoint pending on", "-x", script, "--args", bin)
	b, err := cmd.CombinedOutput()
	if err != nil || os.Getenv("DWARFVARS_GDB_LOG") != "" {
		t.Logf("gdb: %v\n%s", err, b)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatalf("gdb wrote no results: %v", err)
	}
	defer f.Close()
	recs := map[int]gdbRecord{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r gdbRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("gdb output: %v", err)
		}
		recs[r.ID] = r
	}
	return recs
}

// exprsFor lists the readable scalar paths below a variable; arrays and
// pointers to scalars are also indexed by each of idx, integer variables
// visible at the site.
func exprsFor(prefix string, t *Type, depth int, idx []string) []string {
	switch {
	case t == nil || depth > 2:
		return nil
	case t.Scalar() && !t.Float:
		out := []string{prefix}
		if t.Kind == KindPointer && t.Elem != nil && depth < 2 {
			if t.Elem.Kind == KindStruct {
				for _, m := range t.Elem.Members {
					if m.Type.Kind != KindPointer || depth == 0 {
						out = append(out, exprsFor(prefix+"->"+m.Name, m.Type, depth+1, idx)...)
					}
				}
			} else if t.Elem.Scalar() && !t.Elem.Float {
				out = append(out, "*"+prefix)
				for _, ix := range idx {
					out = append(out, fmt.Sprintf("%s[%s]", prefix, ix))
				}
			}
		}
		return out
	case t.Kind == KindStruct:
		var out []string
		for _, m := range t.Members {
			out = append(out, exprsFor(prefix+"."+m.Name, m.Type, depth+1, idx)...)
		}
		return out
	case t.Kind == KindArray && t.Count > 0 && t.Elem.Scalar():
		out := []string{fmt.Sprintf("%s[0]", prefix), fmt.Sprintf("%s[%d]", prefix, t.Count-1)}
		for _, ix := range idx {
			out = append(out, fmt.Sprintf("%s[%s]", prefix, ix))
		}
		return out
	}
	return nil
}

// oracleCase is one (site, expression) pair.
type oracleCase struct {
	site Site
	expr string
	bd   *Binding
	err  error
}

func TestAgainstGDB(t *testing.T) {
	if _, err := os.Stat(gdbPath); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("gdb is required in CI: %v", err)
		}
		t.Skipf("gdb not installed (%v): skipping the gdb oracle", err)
	}
	total := map[string]int{}
	for _, tg := range targets(t) {
		t.Run(tg.name(), func(t *testing.T) {
			t.Parallel()
			st := oracle(t, build(t, tg))
			t.Logf("%s: %d pairs checked, %d matched gdb, %d entry values, %d we cannot read but gdb can, %d gdb cannot read",
				tg.name(), st["checked"], st["matched"], st["entry"], st["weMiss"], st["gdbMiss"])
			if st["matched"] < 40 {
				t.Errorf("only %d values matched gdb", st["matched"])
			}
			buildMu.Lock()
			for k, v := range st {
				total[k] += v
			}
			buildMu.Unlock()
		})
	}
	t.Cleanup(func() { t.Logf("all builds: %v", total) })
}

// oracle checks every bindable expression at every line of target.c.
func oracle(t *testing.T, bin string) map[string]int {
	b := open(t, bin)
	var cases []oracleCase
	var gsites []gdbSite
	seen := map[uint64]bool{}
	for line := 20; line <= 140; line++ {
		sites, err := b.Resolve(mustProbe(t, fmt.Sprintf("target.c:%d", line)))
		if err != nil {
			continue
		}
		for _, s := range sites {
			if seen[s.Addr] || s.Func == "opaque" {
				continue
			}
			seen[s.Addr] = true
			vs, err := b.Vars(s)
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			gs := gdbSite{ID: len(gsites), Spec: fmt.Sprintf("*'%s'+%d", s.Func, s.FuncOffset)}
			if sym, ok := b.symbolAt(s.EntryAddr); ok {
				gs.Entry = fmt.Sprintf("*'%s'+%d", sym.Name, s.EntryAddr-sym.Value)
			}
			var idx []string
			for _, v := range vs {
				if !v.Shadowed && v.Err == nil && v.Type.Kind == KindBase && !v.Type.Float && len(idx) < 2 {
					idx = append(idx, v.Name)
				}
			}
			for _, v := range vs {
				if v.Shadowed || v.Err != nil && !errors.Is(v.Err, ErrOptimizedOut) {
					continue
				}
				for _, x := range exprsFor(v.Name, v.Type, 0, idx) {
					bd, err := b.Bind(s, mustExpr(t, x))
					cases = append(cases, oracleCase{site: s, expr: x, bd: bd, err: err})
					gs.Exprs = append(gs.Exprs, x)
				}
			}
			gsites = append(gsites, gs)
		}
	}
	st := map[string]int{}
	var recs map[int]gdbRecord
	for round := 0; round < 5; round++ {
		recs = runGDB(t, bin, gsites)
		need := false
		for si := range gsites {
			r, ok := recs[si]
			if !ok {
				continue
			}
			for _, c := range casesOf(cases, gsites, si) {
				if c.bd == nil {
					continue
				}
				if _, missing, _ := evalBinding(c.bd, r); missing != 0 && !hasAddr(gsites[si].Mem, missing) {
					gsites[si].Mem = append(gsites[si].Mem, missing)
					need = true
				}
			}
		}
		if !need {
			break
		}
	}
	for si := range gsites {
		r, ok := recs[si]
		if !ok {
			continue // never reached
		}
		for j, c := range casesOf(cases, gsites, si) {
			gv := r.Vals[j]
			gdbHas := !strings.HasPrefix(gv, "error") && gv != "optimized out"
			if c.err != nil {
				if gdbHas {
					st["weMiss"]++
					var oo *OptimizedOutError
					if errors.As(c.err, &oo) && oo.Reason != "" {
						st["prologue"]++
						continue
					}
					t.Logf("gdb reads %s at %s (%s), we do not: %v", c.expr, c.site, gv, c.err)
					if !errors.Is(c.err, ErrOptimizedOut) && !errors.Is(c.err, ErrUnsupported) {
						t.Errorf("%s: %s: unexpected error %v (gdb: %s)", c.site, c.expr, c.err, gv)
					}
				}
				continue
			}
			v, _, err := evalBinding(c.bd, r)
			if err != nil {
				st["unreadable"]++
				if os.Getenv("DWARFVARS_GDB_LOG") != "" {
					t.Logf("unreadable %s at %s: %v", c.expr, c.site, err)
				}
				continue // memory gdb could not read either
			}
			if !gdbHas {
				st["gdbMiss"]++
				continue
			}
			if gdbMisreads(b, c) {
				st["gdbWrong"]++
				continue
			}
			st["checked"]++
			if c.bd.Entry != nil {
				st["entry"]++
			}
			if got := fmt.Sprintf("%x", v); got != gv {
				t.Errorf("%s: %s = %s: we read %s, gdb %s", c.site, c.expr, c.bd.Loc.Describe(c.bd.Type), got, gv)
				continue
			}
			st["matched"]++
		}
	}
	return st
}

// gdbMisreads reports bindings gdb gets wrong: with a register frame base
// (clang), gdb uses the register before the prologue has set it up, while
// we rebase the frame on the CFA.
func gdbMisreads(b *Binary, c oracleCase) bool {
	ft, err := b.funcAt(c.site.Addr)
	if err != nil {
		return false
	}
	pe := b.prologueEnd(ft)
	uses := c.bd.Loc.walk(func(f *Fetch) bool { return f.Start.Kind == SrcCFA })
	return uses && pe != 0 && c.site.Addr < pe && !strings.HasPrefix(ft.cu.producer, "GNU")
}

// casesOf returns the cases of one gdb site, in the order of its Exprs.
func casesOf(cases []oracleCase, gsites []gdbSite, si int) []oracleCase {
	start := 0
	for i := 0; i < si; i++ {
		start += len(gsites[i].Exprs)
	}
	return cases[start : start+len(gsites[si].Exprs)]
}

// evalBinding runs a Binding over a gdb record. missing is an address
// whose memory the record lacks (0: none).
func evalBinding(bd *Binding, r gdbRecord) (v uint64, missing uint64, err error) {
	regs, entry := map[int]uint64{}, map[int]uint64{}
	for i, n := range gdbRegOrder {
		if i < len(r.Regs) {
			regs[n] = r.Regs[i]
		}
		if i < len(r.Entry) {
			entry[n] = r.Entry[i]
		}
	}
	if r.Entry == nil {
		entry = regs // the site is the entry
	}
	mem := func(a uint64, size int) (uint64, error) {
		h, ok := r.Mem[fmt.Sprint(a)]
		if !ok {
			missing = a
			return 0, fmt.Errorf("no memory at %#x", a)
		}
		if len(h) < 2*size {
			return 0, errors.New("unreadable")
		}
		var x uint64
		for i := size - 1; i >= 0; i-- {
			var c byte
			fmt.Sscanf(h[2*i:2*i+2], "%02x", &c)
			x = x<<8 | uint64(c)
		}
		return x, nil
	}
	if bd.Loc.Kind != LocValue {
		return 0, 0, errors.New("not a value")
	}
	x, err := bd.Loc.Fetch.Eval(regs, entry, regs[16], mem)
	if err != nil {
		return 0, missing, err
	}
	if bd.Type.Size < 8 {
		x &= 1<<(8*bd.Type.Size) - 1
	}
	return x, 0, nil
}

func hasAddr(as []uint64, a uint64) bool {
	for _, x := range as {
		if x == a {
			return true
		}
	}
	return false
}
