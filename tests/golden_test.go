package tests

import (
	"flag"
	"github.com/bpfcc/bpfcc/internal/filecheck"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc/tests/internal/objsums"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden (of LISTING: whole programs) and testdata/objects.sha256 from bpfcc's output")

// TestGolden compiles every corpus program with bpfcc and checks its -S
// listing against what the program says it is about:
//
//   - its CHECK, CHECK-NEXT, CHECK-SAME, CHECK-NOT and CHECK-EMPTY lines
//     (package filecheck) pin the lines that show the behaviour the program
//     tests, and nothing incidental (registers, offsets and branch targets
//     are {{RE}} or [[VAR]] where they do not matter);
//   - its ASM: directives (substrings the listing must or must not contain);
//   - only a program with "// LISTING: whole REASON" (the whole listing is
//     the point, e.g. of a test of the listing format) is compared line for
//     line with testdata/NAME.golden, which go test ./tests -run TestGolden
//     -update rewrites.
//
// CHECK lines go at the end of NAME.c, after the code: a line added above
// it would move the code's line numbers and so change the object.
//
// A program with neither CHECK lines nor LISTING: whole fails: every
// program says what it checks. A testdata/NAME.golden of a program without
// LISTING: whole fails too (-update deletes it), so the set of whole
// listings cannot drift.
//
// It also holds the objects to testdata/objects.sha256 (rewritten by
// -update too): a refactoring must leave every object byte-identical, and
// an intended codegen change shows as the list of objects it changes.
func TestGolden(t *testing.T) {
	var sums objsums.Sums
	corpus := loadCorpus(t)
	for _, p := range corpus {
		t.Run(p.Name, func(t *testing.T) {
			res, err := compileBPFCC(p)
			if err != nil {
				t.Fatal(err)
			}
			if res.Listing == "" {
				t.Fatal("empty listing")
			}
			sums.Add(p.Name, res.Object)
			if len(p.Checks) == 0 && p.WholeListing == "" {
				t.Errorf("%s says nothing to check: give it CHECK lines for the listing lines its test is about, or // LISTING: whole REASON if the whole listing is the point", p.Path)
			}
			checkASM(t, p, res.Listing)
			if !checkWholeListing(t, p, res.Listing) {
				return
			}
			again, err := compileWith(p, roundTrip(t, bpfccOptions(p)))
			if err != nil {
				t.Fatal(err)
			}
			if string(again.Object) != string(res.Object) {
				t.Error("two compilations of the same input gave different objects")
			}
		})
	}
	checkObjectSums(t, &sums, sums.Len() == len(corpus))
}

// checkWholeListing compares the listing of a LISTING: whole program with
// testdata/NAME.golden and makes sure no other program has one; with
// -update it writes (or deletes) the file instead and returns false.
func checkWholeListing(t *testing.T, p *program, listing string) bool {
	t.Helper()
	golden := filepath.Join("testdata", p.Name+".golden")
	if p.WholeListing == "" {
		if *update {
			if err := os.Remove(golden); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			return false
		}
		if _, err := os.Stat(golden); err == nil {
			t.Errorf("%s exists but %s has no LISTING: whole: its CHECK lines are its test (go test ./tests -run TestGolden -update deletes the file)", golden, p.Path)
		}
		return true
	}
	if *update {
		if err := os.WriteFile(golden, []byte(listing), 0o644); err != nil {
			t.Fatal(err)
		}
		return false
	}
	want, err := os.ReadFile(golden)
	if os.IsNotExist(err) {
		t.Fatalf("%s is missing; run go test ./tests -run TestGolden -update and review it", golden)
	}
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != listing {
		t.Errorf("listing differs from %s (go test ./tests -run TestGolden -update rewrites it):\n%s", golden, lineDiff(string(want), listing))
	}
	return true
}

// objectSums is the manifest of the corpus's objects.
const objectSums = "testdata/objects.sha256"

// checkObjectSums compares the objects with the manifest; all: every
// program compiled (not a -run subset, no failure).
func checkObjectSums(t *testing.T, sums *objsums.Sums, all bool) {
	if *update && all {
		if err := sums.Write(objectSums, "sha256 (first 16 bytes) of each corpus program's object, as TestGolden compiles it;",
			"go test ./tests -run TestGolden -update rewrites it: review its diff as a list of changed objects"); err != nil {
			t.Fatal(err)
		}
		return
	}
	m, err := objsums.Read(objectSums)
	if os.IsNotExist(err) {
		t.Skipf("%s is missing: objects are not compared (go test ./tests -run TestGolden -update writes it)", objectSums)
	}
	if err != nil {
		t.Fatal(err)
	}
	if d := m.Compare(sums, all); len(d) > 0 {
		t.Errorf("objects differ from %s (go test ./tests -run TestGolden -update rewrites it if the change is meant):\n%s", objectSums, strings.Join(d, "\n"))
	}
}

// checkASM applies a program's ASM: and CHECK directives to a listing.
// CHECK lines see the listing without its source-line annotations
// ("; NAME.c:LINE: text"), so CHECK-NEXT means the next instruction (or
// the next helper-name or CO-RE annotation) whatever statement it is in.
func checkASM(t *testing.T, p *program, listing string) {
	t.Helper()
	for _, err := range filecheck.Match(sourceLineRE.ReplaceAllString(listing, ""), p.Checks) {
		t.Errorf("%s:%v", p.Path, err)
	}
	for _, a := range p.ASM {
		has := strings.Contains(listing, a.Text)
		switch {
		case !a.Negate && !has:
			t.Errorf("%s:%d: listing lacks %q", p.Path, a.Line, a.Text)
		case a.Negate && has:
			t.Errorf("%s:%d: listing contains %q, which it must not", p.Path, a.Line, a.Text)
		}
	}
}

// sourceLineRE matches a listing's source-line annotations, newline
// included.
var sourceLineRE = regexp.MustCompile(`(?m)^; [^ :]+:[0-9]+:.*\n`)

// lineDiff shows the first differing lines of two texts with context.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	var b strings.Builder
	from := max(0, i-3)
	for j := from; j < i; j++ {
		b.WriteString("  " + w[j] + "\n")
	}
	for j := i; j < min(len(w), i+10); j++ {
		b.WriteString("- " + w[j] + "\n")
	}
	for j := i; j < min(len(g), i+10); j++ {
		b.WriteString("+ " + g[j] + "\n")
	}
	return b.String()
}
