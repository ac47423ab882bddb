package tests

// Real software against gdb (issue 13): programs from Debian source
// packages (apt-get source, fetched and built at test time into the user
// cache, never committed) — the Lua interpreter running
// tests/dwarf/realworld/work.lua, zlib's minigzip and bzip2 compressing
// that file — each built with gcc -O0, gcc -O2 and clang-19 -O2. The
// probes are chosen from what the workload executes: gdb counts the calls
// of the program's own functions, a deterministic sample of those called
// at most dwRWMaxHits times is probed, and every scalar variable in scope
// at each function's entry and the scalar members of the structs its
// pointer variables point to are bound and compared with gdb's values at
// every call.

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bpfcc/bpfcc"
	"github.com/bpfcc/bpfcc/dwarfvars"
)

const (
	// dwRWProbes bounds the functions probed per build, dwRWMaxHits the
	// calls of each (gdb stops at every one).
	dwRWProbes  = 16
	dwRWMaxHits = 40
)

// dwDebianSource returns the unpacked source of a Debian package in the
// test cache, fetching it with apt-get source the first time; it skips
// when that is not possible (no deb-src entry, no network).
func dwDebianSource(t *testing.T, pkg string) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skipf("no cache directory: %v", err)
	}
	dir := filepath.Join(cache, "bpfcc-tests", "dwarf-realworld")
	find := func() string {
		ms, _ := filepath.Glob(filepath.Join(dir, pkg+"-*", "debian"))
		if len(ms) == 0 {
			return ""
		}
		return filepath.Dir(ms[0])
	}
	if d := find(); d != "" {
		return d
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := dwAptSource(dir, pkg); err != nil {
		t.Skipf("apt-get source %s failed (enable deb-src in the apt sources and run apt-get update): %v\n%s", pkg, err, out)
	}
	d := find()
	if d == "" {
		t.Skipf("apt-get source %s left no source tree in %s", pkg, dir)
	}
	return d
}

// dwAptSource fetches a source package into dir. When the newest version
// cannot be fetched (a security update's files answer 404 on some
// mirrors), every version apt knows is tried in turn.
func dwAptSource(dir, pkg string) ([]byte, error) {
	fetch := func(spec string) ([]byte, error) {
		cmd := exec.Command("apt-get", "source", spec)
		cmd.Dir = dir
		return cmd.CombinedOutput()
	}
	out, err := fetch(pkg)
	if err == nil {
		return out, nil
	}
	show, serr := exec.Command("apt-cache", "showsrc", pkg).Output()
	if serr != nil {
		return out, err
	}
	var versions []string
	for _, line := range strings.Split(string(show), "\n") {
		if v, ok := strings.CutPrefix(line, "Version: "); ok && !slices.Contains(versions, v) {
			versions = append(versions, v)
		}
	}
	// Any version serves: the tests compare bpfcc with gdb on the same build.
	for _, v := range versions {
		more, verr := fetch(pkg + "=" + v)
		if verr == nil {
			return more, nil
		}
		out = append(out, more...)
	}
	return out, err
}

// dwRWPackage is a Debian source package built into one program.
type dwRWPackage struct {
	// name is the source package; dir holds the program's own sources
	// (relative to the tree; probes are chosen among their functions).
	name, dir string
	// srcs are the C files (globs relative to the tree), less skip.
	srcs, skip []string
	// flags are extra compiler flags; prepare may add generated headers.
	flags   []string
	prepare func(t *testing.T, tree string) []string
	libs    []string
	// args are the workload's arguments, given the workload file.
	args func(work string) []string
}

// dwRWPackages are the programs of the real-software tests: the Lua
// interpreter running work.lua, and zlib's minigzip and bzip2 compressing
// it.
var dwRWPackages = []dwRWPackage{
	{name: "lua5.4", dir: "src", srcs: []string{"src/*.c"}, skip: []string{"luac.c"},
		flags: []string{"-std=gnu99", "-DLUA_COMPAT_5_3", "-DLUA_USE_LINUX"}, libs: []string{"-lm", "-ldl"},
		prepare: func(t *testing.T, tree string) []string {
			// Debian's luaconf.h includes a header its build generates.
			inc := filepath.Join(tree, "bpfcc-include")
			if err := os.MkdirAll(inc, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(inc, "lua5.4-deb-multiarch.h"), []byte("#define DEB_HOST_MULTIARCH \"x86_64-linux-gnu\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return []string{"-I" + inc}
		},
		args: func(work string) []string { return []string{work} }},
	{name: "zlib", dir: ".", srcs: []string{"*.c", "test/minigzip.c"}, flags: []string{"-DHAVE_UNISTD_H", "-DHAVE_STDARG_H", "-D_LARGEFILE64_SOURCE=1"},
		args: func(work string) []string { return []string{"-c", "-9", work} }},
	{name: "bzip2", dir: ".", srcs: []string{"*.c"}, skip: []string{"bzip2recover.c", "dlltest.c", "mk251.c", "spewG.c", "unzcrash.c"},
		flags: []string{"-D_FILE_OFFSET_BITS=64"},
		args:  func(work string) []string { return []string{"-c", "-k", "-1", work} }},
	// lz4's command-line program compressing work.lua at level 9 (lz4hc);
	// the probes are the library's functions.
	{name: "lz4", dir: "lib", srcs: []string{"lib/*.c", "programs/*.c"},
		prepare: func(t *testing.T, tree string) []string { return []string{"-I" + filepath.Join(tree, "lib")} },
		args:    func(work string) []string { return []string{"-c", "-9", work} }},
	// cJSON's test program: builds, parses and prints JSON documents.
	{name: "cjson", dir: ".", srcs: []string{"cJSON.c", "test.c"}, libs: []string{"-lm"},
		args: func(string) []string { return []string{} }},
	// libyaml's parser printing the event stream of work.yaml.
	{name: "libyaml", dir: "src", srcs: []string{"src/*.c", "tests/run-parser-test-suite.c"},
		flags:   []string{"-DYAML_VERSION_MAJOR=0", "-DYAML_VERSION_MINOR=2", "-DYAML_VERSION_PATCH=5", `-DYAML_VERSION_STRING="0.2.5"`},
		prepare: func(t *testing.T, tree string) []string { return []string{"-I" + filepath.Join(tree, "include")} },
		args:    func(work string) []string { return []string{filepath.Join(filepath.Dir(work), "work.yaml")} }},
	// jq 1.6 (without oniguruma) running work.jq on work.lua read as one
	// string.
	{name: "jq", dir: "src", srcs: []string{"src/*.c"}, skip: []string{"inject_errors.c"},
		flags: []string{"-DIEEE_8087", "-DHAVE_MEMMEM"}, libs: []string{"-lm"},
		prepare: func(t *testing.T, tree string) []string {
			// The headers its Makefile generates: builtin.jq as a C string,
			// and the version.
			gen := filepath.Join(tree, "bpfcc-include")
			if err := os.MkdirAll(filepath.Join(gen, "src"), 0o755); err != nil {
				t.Fatal(err)
			}
			jq, err := os.ReadFile(filepath.Join(tree, "src", "builtin.jq"))
			if err != nil {
				t.Fatal(err)
			}
			var inc strings.Builder
			for _, l := range strings.Split(strings.TrimSuffix(string(jq), "\n"), "\n") {
				l = strings.ReplaceAll(strings.ReplaceAll(l, `\`, `\\`), `"`, `\"`)
				inc.WriteString(`"` + l + `\n"` + "\n")
			}
			for f, data := range map[string]string{"builtin.inc": inc.String(), "version.h": "#define JQ_VERSION \"1.6\"\n"} {
				if err := os.WriteFile(filepath.Join(gen, "src", f), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			return []string{"-I" + gen, "-I" + filepath.Join(gen, "src")}
		},
		// The filter is in a file: gdb run with startup-with-shell off
		// splits an argument at its spaces and keeps the backslashes it
		// escaped quotes and parentheses with.
		args: func(work string) []string {
			return []string{"-Rs", "-f", filepath.Join(filepath.Dir(work), "work.jq"), work}
		}},
}

// dwRWBuilds builds a package's program per configuration (gcc -O0,
// gcc -O2, clang-19 -O2), cached beside its source.
func dwRWBuilds(t *testing.T, pkg dwRWPackage, tree string) []dwBuild {
	t.Helper()
	gcc := dwRequireGCC(t)
	var cs []string
	for _, g := range pkg.srcs {
		ms, _ := filepath.Glob(filepath.Join(tree, g))
		for _, f := range ms {
			if !slices.Contains(pkg.skip, filepath.Base(f)) {
				cs = append(cs, f)
			}
		}
	}
	flags := pkg.flags
	if pkg.prepare != nil {
		flags = append(append([]string{}, flags...), pkg.prepare(t, tree)...)
	}
	work, err := filepath.Abs(filepath.Join("dwarf", "realworld", "work.lua"))
	if err != nil {
		t.Fatal(err)
	}
	var builds []dwBuild
	add := func(name, cc, opt string) {
		args := append(append([]string{"-g", opt}, flags...), cs...)
		args = append(args, pkg.libs...)
		// The cached build is named after its command line.
		h := fnv.New32a()
		h.Write([]byte(cc + " " + strings.Join(args, " ")))
		out := filepath.Join(tree, fmt.Sprintf("bpfcc-%s-%s-%08x", pkg.name, name, h.Sum32()))
		if _, err := os.Stat(out); err != nil {
			args = append(args, "-o", out+".tmp")
			if b, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
				t.Fatalf("%s %s: %v\n%s", cc, strings.Join(args, " "), err, b)
			}
			if err := os.Rename(out+".tmp", out); err != nil {
				t.Fatal(err)
			}
		}
		builds = append(builds, dwBuild{name: pkg.name + "-" + name, path: out, args: pkg.args(work), nullReads: true})
	}
	add("gcc-O0", gcc, "-O0")
	add("gcc-O2", gcc, "-O2")
	if c := clangPath(); c != "" {
		add("clang19-O2", c, "-O2")
	}
	return builds
}

// dwRWDriver runs the program under gdb with a breakpoint on each
// candidate function and writes how often each was called (up to a cap:
// a function called more often is dropped from its breakpoint's list).
const dwRWDriver = `
import gdb, json
fns = json.loads(FNS)
hits = {}
class B(gdb.Breakpoint):
    def stop(self):
        hits[self.fn] = hits.get(self.fn, 0) + 1
        if hits[self.fn] > CAP:
            self.enabled = False
        return False
for f in fns:
    try:
        b = B(f, internal=True)
        b.fn = f
    except Exception:
        pass
gdb.execute("run")
json.dump(hits, open(OUT, "w"))
`

// dwRWCandidates lists the functions of the binary's own sources with a
// symbol of their own name (not clones), each defined once.
func dwRWCandidates(t *testing.T, path, srcDir string) []string {
	out, err := exec.Command("nm", "--defined-only", path).Output()
	if err != nil {
		t.Skipf("nm: %v", err)
	}
	count := map[string]int{}
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) == 3 && (f[1] == "T" || f[1] == "t") && !strings.Contains(f[2], ".") {
			count[f[2]]++
		}
	}
	b, err := dwarfvars.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var fns []string
	for n, c := range count {
		if c != 1 || n == "main" || strings.HasPrefix(n, "_") {
			continue
		}
		p, err := dwarfvars.ParseProbe(n)
		if err != nil {
			continue
		}
		sites, err := b.Resolve(p)
		if err != nil || len(sites) != 1 || sites[0].File == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(srcDir, filepath.Base(sites[0].File))); err != nil {
			continue // not the program's own source (the C library's, say)
		}
		fns = append(fns, n)
	}
	sort.Strings(fns)
	return fns
}

// dwRWCalls counts the workload's calls of fns under gdb (capped).
func dwRWCalls(t *testing.T, bld dwBuild, fns []string) map[string]int {
	dir := t.TempDir()
	js, _ := json.Marshal(fns)
	outPath := filepath.Join(dir, "calls.json")
	script := fmt.Sprintf("FNS = %q\nOUT = %q\nCAP = %d\n", js, outPath, dwRWMaxHits) + dwRWDriver
	sp := filepath.Join(dir, "calls.py")
	if err := os.WriteFile(sp, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-i", dwGDB, "-batch", "-nx", "-ex", "set startup-with-shell off", "-x", sp, "--args"}, bld.argv()...)
	cmd := exec.Command("env", args...)
	cmd.WaitDelay = time.Minute
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("gdb: %v\n%s", err, b)
	}
	data, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatalf("gdb wrote no call counts: %v\n%s", err, b)
	}
	calls := map[string]int{}
	if err := json.Unmarshal(data, &calls); err != nil {
		t.Fatal(err)
	}
	return calls
}

// dwRWProbes picks the probes: a deterministic spread over the functions
// the workload calls at most dwRWMaxHits times, each with the scalar
// members of the structs its pointer variables point to.
func dwRWProbesFor(t *testing.T, bld dwBuild, srcDir string) func(testing.TB, *dwarfvars.Binary) []dwProbe {
	fns := dwRWCandidates(t, bld.path, srcDir)
	calls := dwRWCalls(t, bld, fns)
	var called []string
	for _, f := range fns {
		if n := calls[f]; n > 0 && n <= dwRWMaxHits {
			called = append(called, f)
		}
	}
	t.Logf("%s: %d functions, %d called by the workload at most %d times", bld.name, len(fns), len(called), dwRWMaxHits)
	step := max(1, (len(called)+dwRWProbes-1)/dwRWProbes)
	var pick []string
	for i := 0; i < len(called); i += step {
		pick = append(pick, called[i])
	}
	return func(tb testing.TB, b *dwarfvars.Binary) []dwProbe {
		var ps []dwProbe
		for _, f := range pick {
			p, _ := dwarfvars.ParseProbe(f)
			sites, err := b.Resolve(p)
			if err != nil || len(sites) == 0 {
				continue
			}
			vs, _ := b.Vars(sites[0])
			var extras []string
			for _, v := range vs {
				if v.Type == nil || v.Type.Kind != dwarfvars.KindPointer || v.Type.Elem == nil {
					continue
				}
				n := 0
				for _, m := range v.Type.Elem.Members {
					if _, ok := dwCType(m.Type); ok && m.Name != "" && n < 4 {
						extras = append(extras, v.Name+"->"+m.Name)
						n++
					}
				}
			}
			ps = append(ps, dwProbe{f, extras})
		}
		return ps
	}
}

func TestDWARFRealWorld(t *testing.T) {
	dwRequireE2E(t)
	if testing.Short() {
		t.Skip("builds Debian packages from source")
	}
	var rows []string
	for _, pkg := range dwRWPackages {
		// One package that cannot be fetched skips alone.
		t.Run(pkg.name, func(t *testing.T) {
			tree := dwDebianSource(t, pkg.name)
			for _, bld := range dwRWBuilds(t, pkg, tree) {
				t.Run(bld.name, func(t *testing.T) {
					bld.probes = dwRWProbesFor(t, bld, filepath.Join(tree, pkg.dir))
					f := dwCheckBuild(t, bld)
					row := fmt.Sprintf("%-20s %4d triples, %4d equal gdb; %4d comparisons, %4d equal, %3d unverified (gdb has no value: members through NULL, or clang's rsp frame base at a first instruction); %3d refused where gdb prints a value, %3d refused where gdb has none",
						bld.name, f.unique, f.uniqueMatched, f.compared, f.matched, f.unverified, f.gaps, f.refusedOK)
					rows = append(rows, row)
					t.Log(row)
				})
			}
		})
	}
	if len(rows) == 0 {
		t.Skip("no package could be fetched and built")
	}
	t.Logf("real software vs gdb:\n%s", strings.Join(rows, "\n"))
}

// dwLuaTypesExprs are gdb's expressions for what lua_types.c records, by
// tag.
var dwLuaTypesExprs = []string{
	"L->status", "L->l_G->GCdebt", "L->l_G->mainthread->status", "L->l_G->mainthread->nCcalls",
	"L->ci->callstatus", "(long)L->ci->func", "L->l_G->strt.nuse", "L->l_G->strt.size",
	"L->top->val.tt_", "L->l_G->currentwhite", "L->nCcalls", "L->ci->previous->callstatus",
}

// TestDWARFRealWorldTargetTypes: a handler taking lua's lua_State *L and
// reading up to three pointers deep with BPFCC_READ, its types generated
// from each lua build's DWARF, records gdb's values at every call.
func TestDWARFRealWorldTargetTypes(t *testing.T) {
	dwRequireE2E(t)
	if testing.Short() {
		t.Skip("builds a Debian package from source")
	}
	src := dwDebianSource(t, "lua5.4")
	handler := filepath.Join("dwarf", "realworld", "lua_types.c")
	cases, matched, noMem := 0, 0, 0
	for _, bld := range dwRWBuilds(t, dwRWPackages[0], src) {
		t.Run(bld.name, func(t *testing.T) {
			res, err := bpfcc.Compile(handler, bpfcc.Options{Binary: bld.path})
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			maps, errOut, err := dwRunMaps(res.Spec, append([]string{"env", "-i", "setarch", "-R"}, bld.argv()...))
			if err != nil {
				t.Fatalf("run: %v\n%s", err, errOut)
			}
			got := map[[2]uint64]uint64{}
			for _, e := range maps["rec"] {
				var k struct{ Seq, Tag json.Number }
				if err := json.Unmarshal(e.Key, &k); err != nil {
					t.Fatalf("rec key %s: %v", e.Key, err)
				}
				n, _ := strconv.ParseUint(k.Seq.String(), 10, 64)
				tag, _ := strconv.ParseUint(k.Tag.String(), 10, 64)
				v, err := strconv.ParseInt(strings.TrimSpace(string(e.Value)), 10, 64)
				if err != nil {
					t.Fatalf("rec value %s: %v", e.Value, err)
				}
				got[[2]uint64{n, tag}] = uint64(v)
			}
			gdb, err := dwRunGDB(t, bld.argv(), false, []dwGDBSite{{ID: "luaH_new", Loc: "luaH_new", Func: "luaH_new", Exprs: dwLuaTypesExprs}}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			hits := gdb["luaH_new"]
			if len(hits) == 0 || len(got) != len(hits)*len(dwLuaTypesExprs) {
				t.Fatalf("gdb stopped %d times, the handler recorded %d values (want %d per call)", len(hits), len(got), len(dwLuaTypesExprs))
			}
			for j, h := range hits {
				for tag, e := range dwLuaTypesExprs {
					cases++
					want := h.Vals[e]
					g := got[[2]uint64{uint64(j), uint64(tag)}]
					if strings.HasPrefix(want, "error: Cannot access memory") {
						if g != 0 {
							t.Errorf("call %d %s: gdb cannot read it, the handler read %#x", j, e, g)
						} else {
							noMem++
						}
						continue
					}
					w, err := strconv.ParseUint(want, 16, 64)
					switch {
					case err != nil:
						t.Errorf("call %d %s: gdb printed %q", j, e, want)
					case g != w:
						t.Errorf("call %d %s: handler %#x, gdb %s", j, e, g, want)
					default:
						matched++
					}
				}
			}
		})
	}
	t.Logf("%d (call, expression) cases: %d equal gdb's, %d where neither can read the memory (NULL)", cases, matched, noMem)
}
