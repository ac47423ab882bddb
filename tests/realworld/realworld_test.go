package realworld

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
)

var (
	jsonOut = flag.String("json", "", "write the suite's per-file results as JSON to this file")
	only    = flag.String("only", "", "compile only files whose ID (\"1.5 selftests/NAME.c\") contains this text, or matches it as a regular expression (for debugging a few files)")
	update  = flag.Bool("update-known", false, "rewrite the known-failure lists to what fails now (review the diff: they should only shrink)")
)

// knownFailuresFile lists the files bpfcc does not compile yet, each with
// a reason. It is reviewed, and only shrinks: a file that newly fails, or a
// listed file that now compiles, fails the test.
const knownFailuresFile = "known_failures.txt"

// fileResult is the suite's verdict on one file.
type fileResult struct {
	ID    string        `json:"id"`
	Set   string        `json:"set"`
	Gen   string        `json:"libbpf"`
	File  string        `json:"file"`
	Clang compileResult `json:"clang"`
	Bpfcc compileResult `json:"bpfcc"`
	// Warm is bpfcc's second compile of the file, which reads the header
	// cache entry its first compile made (the normal case after a file's
	// first compile); WarmDiffers reports an object that is not
	// byte-identical to the first one.
	Warm        *compileResult `json:"bpfcc_warm,omitempty"`
	WarmDiffers bool           `json:"warm_differs,omitempty"`
	Known       string         `json:"known_failure,omitempty"`
	// OtherModes lists what -S (listing) and -E (preprocess only) printed
	// as errors for a file bpfcc compiles; empty when both work.
	OtherModes []string `json:"other_modes,omitempty"`
	src        sourceFile
}

// compileWarm compiles f again, now with the header cache entry its
// first compile (which wrote obj) made, and reports whether the object
// differs from obj: the cache must never change the output.
func compileWarm(f sourceFile, obj string) (*compileResult, bool) {
	warmObj := strings.TrimSuffix(obj, ".o") + ".warm.o"
	r := run(bpfccBin, bpfccFlags(f, warmObj), warmObj)
	defer os.Remove(warmObj)
	if !r.OK {
		return &r, true
	}
	a, errA := os.ReadFile(obj)
	b, errB := os.ReadFile(warmObj)
	return &r, errA != nil || errB != nil || !bytes.Equal(a, b)
}

// otherModes runs bpfcc -S and -E on a file it compiles: both must work
// too, with output.
func otherModes(f sourceFile) []string {
	var problems []string
	for _, mode := range []string{"-S", "-E"} {
		args := append([]string{mode}, f.Args...)
		args = append(args, f.Path)
		cmd := exec.Command(bpfccBin, args...)
		var out, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &stderr
		err := cmd.Run()
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("%s: %v: %s", mode, err, firstDiagnostic(stderr.String())))
		case out.Len() == 0 && mode == "-E":
			// (-S of a file with maps and no programs lists nothing.)
			problems = append(problems, mode+": no output")
		}
	}
	return problems
}

func inCI() bool { return os.Getenv("CI") == "true" }

func skipOrFail(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if inCI() {
		t.Fatalf("CI=true, so this is a failure and not a skip: %s", msg)
	}
	t.Skip("skipped: " + msg)
}

// suite is the compiled suite, shared by the compile and load tests.
type suite struct {
	tree    *tree
	results []*fileResult
	err     error
}

var (
	suiteOnce sync.Once
	theSuite  suite
	bpfccBin  string
)

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "bpfcc-realworld-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := func() int {
		defer os.RemoveAll(dir)
		bpfccBin = filepath.Join(dir, "bpfcc")
		// The header cache of the compiles under test is the run's own:
		// hermetic, and the suite compiles with it as a user does. The
		// suite's own cache (the extracted tree, clang's objects) stays
		// where it was: resolve it before XDG_CACHE_HOME changes.
		if root, err := cacheRoot(); err == nil {
			os.Setenv("BPFCC_TEST_CACHE", root)
		}
		os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "xdg-cache"))
		os.Unsetenv("BPFCC_CACHE")
		// The compiler under test runs as its own process, as a user runs
		// it, so that a hang or a crash is a verdict on one file.
		if out, err := exec.Command("go", "build", "-o", bpfccBin, "github.com/bpfcc/bpfcc/cmd/bpfcc").CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building bpfcc: %v\n%s", err, out)
			return 1
		}
		return m.Run()
	}()
	os.Exit(code)
}

// compiledSuite compiles every file of the suite with clang and bpfcc once
// per test process.
func compiledSuite(t *testing.T) *suite {
	t.Helper()
	clang, err := exec.LookPath("clang-19")
	if err != nil {
		skipOrFail(t, "clang-19 not installed (apt-get install clang-19)")
	}
	if _, err := os.Stat(tarballPath()); err != nil {
		skipOrFail(t, "%s missing (apt-get install linux-source-6.12)", tarballPath())
	}
	suiteOnce.Do(func() {
		theSuite.err = compileSuite(&theSuite, clang)
	})
	if theSuite.err != nil {
		t.Fatal(theSuite.err)
	}
	return &theSuite
}

func compileSuite(s *suite, clang string) error {
	tr, err := prepareTree()
	if err != nil {
		return err
	}
	s.tree = tr
	version, err := clangIdentity(clang)
	if err != nil {
		return err
	}
	files, err := suiteFiles(tr)
	if err != nil {
		return err
	}
	// Beside the built bpfcc, so that TestMain removes the objects too.
	objDir, err := os.MkdirTemp(filepath.Dir(bpfccBin), "obj-")
	if err != nil {
		return err
	}
	jobs := make(chan *fileResult)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range jobs {
				r.Clang = compileClang(clang, version, tr, r.src)
				r.Clang.FirstError = strings.ReplaceAll(r.Clang.FirstError, filepath.Dir(tr.Root)+"/", "")
				if !r.Clang.OK {
					continue
				}
				obj := filepath.Join(objDir, strings.NewReplacer(" ", "_", "/", "_").Replace(r.ID)+".o")
				r.Bpfcc = run(bpfccBin, bpfccFlags(r.src, obj), obj)
				r.Bpfcc.FirstError = strings.ReplaceAll(r.Bpfcc.FirstError, filepath.Dir(tr.Root)+"/", "")
				if r.Bpfcc.OK {
					r.Warm, r.WarmDiffers = compileWarm(r.src, obj)
				}
				if r.Bpfcc.OK && r.Gen == loadGen {
					r.OtherModes = otherModes(r.src)
				}
			}
		}()
	}
	onlyRE, _ := regexp.Compile(*only)
	for _, f := range files {
		if *only != "" && !strings.Contains(f.ID(), *only) && (onlyRE == nil || !onlyRE.MatchString(f.ID())) {
			continue
		}
		r := &fileResult{ID: f.ID(), Set: f.Set, Gen: f.Gen, File: tr.shortPath(f.Path), src: f}
		s.results = append(s.results, r)
		jobs <- r
	}
	close(jobs)
	wg.Wait()
	return nil
}

// TestRealWorldCompile compiles the kernel's BPF selftests and samples with
// clang-19 and bpfcc, with libbpf 1.5's and libbpf-dev 1.1's headers, and
// holds bpfcc to every file clang compiles except the reviewed known
// failures.
func TestRealWorldCompile(t *testing.T) {
	s := compiledSuite(t)
	known, err := readKnownFailures(knownFailuresFile)
	if err != nil {
		t.Fatal(err)
	}
	if *update && *only == "" {
		var lines []string
		for _, r := range s.results {
			if r.Clang.OK && !r.Bpfcc.OK {
				reason, ok := known.lookup(r)
				if !ok || generatedReason(reason) {
					reason = diagnosticShape(r.Bpfcc.FirstError)
				}
				lines = append(lines, r.Gen+" "+r.Set+"/"+filepath.Base(r.src.Path)+": "+reason)
			}
		}
		writeKnownList(t, knownFailuresFile, lines)
		known, _ = readKnownFailures(knownFailuresFile)
	}
	used := map[string]bool{}
	for _, r := range s.results {
		if !r.Clang.OK {
			continue
		}
		reason, listed := known.lookup(r)
		if listed {
			used[known.keyFor(r)] = true
			r.Known = reason
		}
		switch {
		case r.Bpfcc.OK && listed:
			t.Errorf("%s compiles now: remove it from %s", r.ID, knownFailuresFile)
		case !r.Bpfcc.OK && !listed:
			t.Errorf("%s: clang compiles it, bpfcc does not (exit %d): %s", r.ID, r.Bpfcc.Status, r.Bpfcc.FirstError)
		}
		for _, p := range r.OtherModes {
			t.Errorf("%s compiles, but bpfcc %s", r.ID, p)
		}
		if r.WarmDiffers {
			t.Errorf("%s: compiled again with the header cache entry of its first compile, bpfcc wrote a different object (or failed: %s)", r.ID, r.Warm.FirstError)
		}
	}
	if *only == "" {
		for _, k := range known.order {
			if !used[k] {
				t.Errorf("%s: %q matches no file that clang compiles and bpfcc does not; remove it", knownFailuresFile, k)
			}
		}
	}
	table := compileTable(s.results)
	t.Log("\n" + table)
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(s.results, "", "  ")
		if err := os.WriteFile(*jsonOut, b, 0o644); err != nil {
			t.Error(err)
		}
	}
}

// knownFailures is the parsed known-failures file: "GEN SET/FILE: reason",
// GEN being 1.5, 1.1 or * for both.
type knownFailures struct{ *knownList }

func readKnownFailures(path string) (*knownFailures, error) {
	k, err := readKnownList(path)
	if err != nil {
		return nil, err
	}
	for _, id := range k.order {
		if f := strings.Fields(id); len(f) != 2 || (f[0] != "1.5" && f[0] != "1.1" && f[0] != "*") {
			return nil, fmt.Errorf("%s: want \"GEN SET/FILE: reason\" with GEN 1.5, 1.1 or *, got %q", path, id)
		}
	}
	return &knownFailures{k}, nil
}

func (k *knownFailures) keyFor(r *fileResult) string {
	name := r.Set + "/" + filepath.Base(r.src.Path)
	if _, ok := k.reasons[r.Gen+" "+name]; ok {
		return r.Gen + " " + name
	}
	return "* " + name
}

func (k *knownFailures) lookup(r *fileResult) (string, bool) {
	reason, ok := k.reasons[k.keyFor(r)]
	return reason, ok
}

// diagnosticShape groups first diagnostics: positions, quoted names and
// numbers differ between files that fail for one reason.
var (
	positionRE = regexp.MustCompile(`^\S+?:\d+:\d+: `)
	quotedRE   = regexp.MustCompile(`"[^"]*"|'[^']*'`)
	numberRE   = regexp.MustCompile(`\d+`)
)

func diagnosticShape(s string) string {
	s = positionRE.ReplaceAllString(s, "")
	s = quotedRE.ReplaceAllString(s, `"…"`)
	s = numberRE.ReplaceAllString(s, "N")
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return s
}

// compileTable prints per set and header generation: files, clang's and
// bpfcc's compiled counts, the failures grouped by first diagnostic, and the
// compile-time ratio (CPU time, geometric mean and worst file).
func compileTable(results []*fileResult) string {
	type group struct {
		files, clang, bpfcc int
		logRatio            float64
		timed               int
		worst               float64
		worstID             string
		warmLog             float64
		warmTimed           int
		warmWorst           float64
		warmWorstID         string
		failures            map[string]int
	}
	groups := map[string]*group{}
	var keys []string
	for _, r := range results {
		key := r.Set + " (libbpf " + r.Gen + ")"
		g := groups[key]
		if g == nil {
			g = &group{failures: map[string]int{}}
			groups[key] = g
			keys = append(keys, key)
		}
		g.files++
		if !r.Clang.OK {
			continue
		}
		g.clang++
		if !r.Bpfcc.OK {
			g.failures[diagnosticShape(r.Bpfcc.FirstError)]++
			continue
		}
		g.bpfcc++
		if r.Clang.CPUSeconds > 0 && r.Bpfcc.CPUSeconds > 0 {
			ratio := r.Bpfcc.CPUSeconds / r.Clang.CPUSeconds
			g.logRatio += math.Log(ratio)
			g.timed++
			if ratio > g.worst {
				g.worst, g.worstID = ratio, r.ID
			}
		}
		if w := r.Warm; w != nil && w.OK && r.Clang.CPUSeconds > 0 && w.CPUSeconds > 0 {
			ratio := w.CPUSeconds / r.Clang.CPUSeconds
			g.warmLog += math.Log(ratio)
			g.warmTimed++
			if ratio > g.warmWorst {
				g.warmWorst, g.warmWorstID = ratio, r.ID
			}
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	// Times are CPU-time ratios to clang: "first" is bpfcc's first compile
	// of the file (it makes the header cache entry), "again" the second,
	// which reads it.
	fmt.Fprintf(&b, "%-26s %6s %6s %6s %7s %11s %11s  %s\n", "set", "files", "clang", "bpfcc", "bpfcc%", "first×clang", "again×clang", "worst first / again")
	geo := func(sum float64, n int) float64 {
		if n == 0 {
			return 0
		}
		return math.Exp(sum / float64(n))
	}
	for _, k := range keys {
		g := groups[k]
		fmt.Fprintf(&b, "%-26s %6d %6d %6d %6.1f%% %11.2f %11.2f  %.2f %s / %.2f %s\n", k, g.files, g.clang, g.bpfcc,
			100*float64(g.bpfcc)/float64(max(g.clang, 1)), geo(g.logRatio, g.timed), geo(g.warmLog, g.warmTimed),
			g.worst, g.worstID, g.warmWorst, g.warmWorstID)
	}
	for _, k := range keys {
		g := groups[k]
		if len(g.failures) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s: bpfcc failures by first diagnostic (%d files clang rejects are left out)\n", k, g.files-g.clang)
		var shapes []string
		for s := range g.failures {
			shapes = append(shapes, s)
		}
		sort.Slice(shapes, func(i, j int) bool {
			if g.failures[shapes[i]] != g.failures[shapes[j]] {
				return g.failures[shapes[i]] > g.failures[shapes[j]]
			}
			return shapes[i] < shapes[j]
		})
		for _, s := range shapes {
			fmt.Fprintf(&b, "%5d  %s\n", g.failures[s], s)
		}
	}
	return b.String()
}
