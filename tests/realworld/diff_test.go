package realworld

import (
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cilium/ebpf/rlimit"
)

var diffJSON = flag.String("diff-json", "", "write the differential verdict of every program as JSON to this file")

// knownRunDifferencesFile lists the differences between clang's and
// bpfcc's runs that are not bugs, each with a reviewed reason
// (non-determinism: time, random numbers, kernel addresses, stack ids).
// A wrong-code bug is fixed, never listed.
const knownRunDifferencesFile = "known_run_differences.txt"

// TestRealWorldDiff runs every program of the suite that both objects load
// and BPF_PROG_TEST_RUN can run on the same inputs, and holds bpfcc's to
// clang's return values, output packets and contexts, maps and globals.
func TestRealWorldDiff(t *testing.T) {
	if os.Geteuid() != 0 {
		skipOrFail(t, "needs root to load and run BPF programs (euid %d)", os.Geteuid())
	}
	_ = rlimit.RemoveMemlock()
	s := compiledSuite(t)
	known, err := readKnownList(knownRunDifferencesFile)
	if err != nil {
		t.Fatal(err)
	}
	var files []*fileResult
	for _, r := range s.results {
		if r.Gen == loadGen && r.Clang.OK && r.Bpfcc.OK {
			files = append(files, r)
		}
	}
	start := time.Now()
	results := diffAll(files)
	elapsed := time.Since(start)
	for _, r := range results {
		reported := map[string]bool{}
		for _, d := range r.Diffs {
			id := knownRunID(r.File, r.Program, d.What)
			if _, ok := known.reasons[id]; ok {
				r.Known = append(r.Known, id)
				continue
			}
			if !reported[d.What] {
				reported[d.What] = true
				t.Errorf("%s: input %s: %s: %s", r.ID(), d.Input, d.What, d.Detail)
			}
		}
	}
	if *only == "" {
		// A listed difference need not show in every run (two random
		// numbers may agree), but its program must still run.
		ran := map[string]bool{}
		for _, r := range results {
			if r.Skipped == "" {
				ran[r.ID()] = true
			}
		}
		for _, k := range known.order {
			if f := strings.Fields(k); len(f) < 3 || !ran[f[0]+" "+f[1]] {
				t.Errorf("%s: %q names no program that runs; remove it", knownRunDifferencesFile, k)
			}
		}
	}
	t.Logf("%d files run in %v\n%s", len(files), elapsed.Round(time.Second), diffTable(results))
	if *diffJSON != "" {
		b, _ := json.MarshalIndent(results, "", "  ")
		if err := os.WriteFile(*diffJSON, b, 0o644); err != nil {
			t.Error(err)
		}
	}
}

// knownRunID is a known-differences line's ID: "SET/FILE PROGRAM WHAT".
func knownRunID(file, prog, what string) string { return strings.Join([]string{file, prog, what}, " ") }
