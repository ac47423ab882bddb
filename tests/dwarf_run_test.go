package tests

// The DWARF end-to-end tests (dwarf_e2e_test.go): running the handlers with bpfcc's runtime and the same sites under gdb.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bpfcc/bpfcc"
	"github.com/bpfcc/bpfcc/dwarfvars"
	bpfrt "github.com/bpfcc/bpfcc/runtime"
	"github.com/cilium/ebpf"
)

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
