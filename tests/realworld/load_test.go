package realworld

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/rlimit"
)

var loadJSON = flag.String("load-json", "", "write the load verdict of every program as JSON to this file")

// knownLoadFailuresFile lists the programs clang's object loads and
// bpfcc's does not, each with a reason; like the compile list it only
// shrinks.
const knownLoadFailuresFile = "known_load_failures.txt"

// loadGen is the header generation whose objects are loaded: libbpf 1.5's
// are a superset of what libbpf-dev 1.1's headers let compile.
const loadGen = "1.5"

// progVerdict is what the kernel made of one program of one object.
type progVerdict struct {
	Loaded bool `json:"loaded"`
	// Error is the load's first error line (the verifier's reason).
	Error string `json:"error,omitempty"`
	// Insns counts instructions, with the subprograms the program calls.
	Insns    int `json:"insns"`
	Verified int `json:"verified_insns"`
}

// progResult compares one program of clang's and bpfcc's objects.
type progResult struct {
	File    string       `json:"file"`
	Program string       `json:"program"`
	Clang   progVerdict  `json:"clang"`
	Bpfcc   *progVerdict `json:"bpfcc,omitempty"`
	Known   string       `json:"known_failure,omitempty"`
}

// ID names the program in the known-failures list.
func (p *progResult) ID() string { return p.File + " " + p.Program }

// TestRealWorldLoad loads every program of clang's and bpfcc's objects of
// the suite into the kernel, without attaching, and holds bpfcc's to every
// program clang's loads.
func TestRealWorldLoad(t *testing.T) {
	if os.Geteuid() != 0 {
		skipOrFail(t, "needs root to load BPF programs (euid %d)", os.Geteuid())
	}
	_ = rlimit.RemoveMemlock()
	s := compiledSuite(t)
	known, err := readKnownList(knownLoadFailuresFile)
	if err != nil {
		t.Fatal(err)
	}
	var files []*fileResult
	for _, r := range s.results {
		if r.Gen == loadGen && r.Clang.OK {
			files = append(files, r)
		}
	}
	results := loadAll(files)
	if *update && *only == "" {
		var lines []string
		for _, p := range results {
			if p.Clang.Loaded && p.Bpfcc != nil && !p.Bpfcc.Loaded {
				reason, ok := known.reasons[p.ID()]
				if !ok || generatedReason(reason) {
					reason = diagnosticShape(p.Bpfcc.Error)
				}
				lines = append(lines, p.ID()+": "+reason)
			}
		}
		writeKnownList(t, knownLoadFailuresFile, lines)
		known, _ = readKnownList(knownLoadFailuresFile)
	}
	used := map[string]bool{}
	for _, p := range results {
		if !p.Clang.Loaded || p.Bpfcc == nil {
			continue
		}
		reason, listed := known.reasons[p.ID()]
		if listed {
			used[p.ID()] = true
			p.Known = reason
		}
		switch {
		case p.Bpfcc.Loaded && listed:
			t.Errorf("%s loads now: remove it from %s", p.ID(), knownLoadFailuresFile)
		case !p.Bpfcc.Loaded && !listed:
			t.Errorf("%s: clang's program loads, bpfcc's does not: %s", p.ID(), p.Bpfcc.Error)
		}
	}
	if *only == "" {
		for _, k := range known.order {
			if !used[k] {
				t.Errorf("%s: %q matches no program that clang's object loads and bpfcc's does not; remove it", knownLoadFailuresFile, k)
			}
		}
	}
	t.Log("\n" + loadTable(results))
	if *loadJSON != "" {
		b, _ := json.MarshalIndent(results, "", "  ")
		if err := os.WriteFile(*loadJSON, b, 0o644); err != nil {
			t.Error(err)
		}
	}
}

// loadAll loads both objects of every file, a few files at a time.
func loadAll(files []*fileResult) []*progResult {
	out := make([][]*progResult, len(files))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				out[i] = loadFile(files[i])
			}
		}()
	}
	for i := range files {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	var all []*progResult
	for _, rs := range out {
		all = append(all, rs...)
	}
	return all
}

// loadFile loads clang's object and, where it compiled, bpfcc's, and pairs
// their programs by name.
func loadFile(r *fileResult) []*progResult {
	name := r.Set + "/" + baseName(r.File)
	clang, err := loadObject(r.Clang.Object)
	if err != nil {
		return nil // cilium/ebpf cannot read clang's object: out of the denominator
	}
	var bpfcc map[string]progVerdict
	var bpfccErr error
	if r.Bpfcc.OK {
		bpfcc, bpfccErr = loadObject(r.Bpfcc.Object)
	}
	var results []*progResult
	for prog, v := range clang {
		p := &progResult{File: name, Program: prog, Clang: v}
		if r.Bpfcc.OK {
			bv, ok := bpfcc[prog]
			switch {
			case bpfccErr != nil:
				bv = progVerdict{Error: "object: " + bpfccErr.Error()}
			case !ok:
				bv = progVerdict{Error: "no such program in bpfcc's object"}
			}
			p.Bpfcc = &bv
		}
		results = append(results, p)
	}
	sort.Slice(results, func(i, j int) bool { return results[i].Program < results[j].Program })
	return results
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// loadObject loads an object's programs, each with its own verdict: the
// whole collection when it loads, otherwise its maps and then each program
// alone against them.
func loadObject(path string) (map[string]progVerdict, error) {
	spec, err := ebpf.LoadCollectionSpec(path)
	if err != nil {
		return nil, err
	}
	sizeMaps(spec)
	verdicts := map[string]progVerdict{}
	if coll, err := ebpf.NewCollection(spec); err == nil {
		for name, p := range coll.Programs {
			verdicts[name] = loadedVerdict(spec.Programs[name], p)
		}
		coll.Close()
		return verdicts, nil
	}
	maps := mapsOnly(spec)
	mapColl, mapsErr := ebpf.NewCollection(maps)
	for name, ps := range spec.Programs {
		if mapsErr != nil {
			verdicts[name] = progVerdict{Error: "maps: " + firstLine(mapsErr), Insns: insnCount(ps)}
			continue
		}
		one := maps.Copy()
		one.Programs = map[string]*ebpf.ProgramSpec{name: ps.Copy()}
		coll, err := ebpf.NewCollectionWithOptions(one, ebpf.CollectionOptions{MapReplacements: mapColl.Maps})
		if err != nil {
			verdicts[name] = progVerdict{Error: firstLine(err), Insns: insnCount(ps)}
			continue
		}
		verdicts[name] = loadedVerdict(ps, coll.Programs[name])
		coll.Close()
	}
	if mapColl != nil {
		mapColl.Close()
	}
	return verdicts, nil
}

// sizeMaps gives maps that user space sizes at run time a default size.
func sizeMaps(spec *ebpf.CollectionSpec) {
	for _, m := range spec.Maps {
		if m.MaxEntries != 0 {
			continue
		}
		switch m.Type {
		case ebpf.RingBuf, ebpf.UserRingbuf:
			m.MaxEntries = 64 * 1024
		case ebpf.Hash, ebpf.Array, ebpf.LRUHash, ebpf.PerCPUHash, ebpf.PerCPUArray, ebpf.LRUCPUHash,
			ebpf.ProgramArray, ebpf.ArrayOfMaps, ebpf.HashOfMaps, ebpf.Queue, ebpf.Stack,
			ebpf.StackTrace, ebpf.DevMap, ebpf.DevMapHash, ebpf.CPUMap, ebpf.XSKMap, ebpf.SockMap,
			ebpf.SockHash, ebpf.LPMTrie, ebpf.ReusePortSockArray, ebpf.BloomFilter:
			m.MaxEntries = 1
		}
	}
}

// mapsOnly is the spec without programs, and without program-array
// contents, which name programs.
func mapsOnly(spec *ebpf.CollectionSpec) *ebpf.CollectionSpec {
	maps := spec.Copy()
	maps.Programs = map[string]*ebpf.ProgramSpec{}
	for _, m := range maps.Maps {
		if m.Type == ebpf.ProgramArray {
			m.Contents = nil
		}
	}
	return maps
}

func loadedVerdict(ps *ebpf.ProgramSpec, p *ebpf.Program) progVerdict {
	v := progVerdict{Loaded: true, Insns: insnCount(ps)}
	if info, err := p.Info(); err == nil {
		if n, ok := info.VerifiedInstructions(); ok {
			v.Verified = int(n)
		}
	}
	return v
}

func insnCount(ps *ebpf.ProgramSpec) int {
	n := 0
	for _, ins := range ps.Instructions {
		n += int(ins.Size() / 8)
	}
	return n
}

func firstLine(err error) string {
	var ve *ebpf.VerifierError
	if errors.As(err, &ve) && len(ve.Log) > 0 {
		// The verifier's reason is the last line before its statistics.
		for i := len(ve.Log) - 1; i >= 0; i-- {
			l := strings.TrimSpace(ve.Log[i])
			if l != "" && !strings.HasPrefix(l, "processed ") && !strings.HasPrefix(l, "verification time") &&
				!strings.HasPrefix(l, "stack depth") {
				return l
			}
		}
	}
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// loadTable summarises the load verdicts: programs clang's objects load,
// how many of those bpfcc's load, failures by reason, and the size and
// verifier-work ratios over programs both load.
func loadTable(results []*progResult) string {
	var clangLoads, compiled, bpfccLoads, clangRefused int
	var logInsns, logVerified float64
	var paired, verifiedPaired int
	var worst []*progResult
	reasons := map[string]int{}
	for _, p := range results {
		if !p.Clang.Loaded {
			clangRefused++
			continue
		}
		clangLoads++
		if p.Bpfcc == nil {
			continue
		}
		compiled++
		if !p.Bpfcc.Loaded {
			reasons[diagnosticShape(p.Bpfcc.Error)]++
			continue
		}
		bpfccLoads++
		if p.Clang.Insns > 0 && p.Bpfcc.Insns > 0 {
			logInsns += math.Log(float64(p.Bpfcc.Insns) / float64(p.Clang.Insns))
			paired++
			worst = append(worst, p)
		}
		if p.Clang.Verified > 0 && p.Bpfcc.Verified > 0 {
			logVerified += math.Log(float64(p.Bpfcc.Verified) / float64(p.Clang.Verified))
			verifiedPaired++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "programs clang's objects load: %d (%d more refused for clang's object too, left out)\n", clangLoads, clangRefused)
	fmt.Fprintf(&b, "  of those, in files bpfcc compiles: %d; bpfcc's load: %d (%.1f%% of compiled, %.1f%% of all)\n",
		compiled, bpfccLoads, 100*float64(bpfccLoads)/float64(max(compiled, 1)), 100*float64(bpfccLoads)/float64(max(clangLoads, 1)))
	if paired > 0 {
		fmt.Fprintf(&b, "  instructions bpfcc/clang (geomean over %d): %.3f\n", paired, math.Exp(logInsns/float64(paired)))
	}
	if verifiedPaired > 0 {
		fmt.Fprintf(&b, "  verified instructions bpfcc/clang (geomean over %d): %.3f\n", verifiedPaired, math.Exp(logVerified/float64(verifiedPaired)))
	}
	sort.Slice(worst, func(i, j int) bool { return insnRatio(worst[i]) > insnRatio(worst[j]) })
	over2 := 0
	for _, p := range worst {
		if insnRatio(p) > 2 {
			over2++
		}
	}
	fmt.Fprintf(&b, "  programs over 2x clang's instructions: %d\n", over2)
	for _, p := range worst[:min(len(worst), 10)] {
		fmt.Fprintf(&b, "    %.2f  %s (%d vs %d insns, %d vs %d verified)\n", insnRatio(p), p.ID(), p.Bpfcc.Insns, p.Clang.Insns, p.Bpfcc.Verified, p.Clang.Verified)
	}
	if len(reasons) > 0 {
		b.WriteString("bpfcc's load failures by verifier reason:\n")
		var keys []string
		for k := range reasons {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			return reasons[keys[i]] > reasons[keys[j]] || reasons[keys[i]] == reasons[keys[j]] && keys[i] < keys[j]
		})
		for _, k := range keys {
			fmt.Fprintf(&b, "%5d  %s\n", reasons[k], k)
		}
	}
	return b.String()
}

func insnRatio(p *progResult) float64 { return float64(p.Bpfcc.Insns) / float64(p.Clang.Insns) }

// knownList is a reviewed list of "ID: reason" lines.
type knownList struct {
	reasons map[string]string
	order   []string
}

func readKnownList(path string) (*knownList, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	k := &knownList{reasons: map[string]string{}}
	for n, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, reason, ok := strings.Cut(line, ": ")
		if !ok || strings.TrimSpace(reason) == "" {
			return nil, fmt.Errorf("%s:%d: want \"ID: reason\", got %q", path, n+1, line)
		}
		if _, dup := k.reasons[id]; dup {
			return nil, fmt.Errorf("%s:%d: %q listed twice", path, n+1, id)
		}
		k.reasons[id] = reason
		k.order = append(k.order, id)
	}
	return k, nil
}

// generatedReason reports a reason -update-known wrote (the first
// diagnostic's shape), which it refreshes; a reviewer's own words are kept.
func generatedReason(r string) bool {
	return strings.HasPrefix(r, "error: ") || strings.HasPrefix(r, "bpfcc: ") || strings.HasPrefix(r, "timeout") ||
		strings.Contains(r, "…")
}

// writeKnownList rewrites a known-failures file: its header comments, then
// the given entries sorted.
func writeKnownList(t *testing.T, path string, entries []string) {
	t.Helper()
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, l := range strings.Split(string(old), "\n") {
		if strings.HasPrefix(l, "#") {
			b.WriteString(l + "\n")
		}
	}
	sort.Strings(entries)
	for _, e := range entries {
		b.WriteString(e + "\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
