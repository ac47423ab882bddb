package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cilium/ebpf"

	"github.com/bpfcc/bpfcc"
	"github.com/bpfcc/bpfcc/diag"
)

// An internal error exits 3 and shows its first line; the stack trace
// only with BPFCC_DEBUG. Input errors exit 1 with source and caret.
func TestReportError(t *testing.T) {
	ice := fmt.Errorf("%w in lowering: boom\ngoroutine 1 [running]:\nmain.main()", bpfcc.ErrInternal)
	var out bytes.Buffer
	t.Setenv("BPFCC_DEBUG", "")
	if code := reportError(ice, &config{}, &out); code != exitInternal {
		t.Errorf("internal error exits %d, want %d", code, exitInternal)
	}
	if s := out.String(); !strings.Contains(s, "internal compiler error in lowering: boom") || strings.Contains(s, "goroutine") {
		t.Errorf("internal error printed %q", s)
	}
	out.Reset()
	t.Setenv("BPFCC_DEBUG", "1")
	reportError(ice, &config{}, &out)
	if !strings.Contains(out.String(), "goroutine 1") {
		t.Errorf("BPFCC_DEBUG=1 did not print the stack: %q", out.String())
	}

	out.Reset()
	dl := diag.List{{File: "missing.c", Line: 3, Col: 2, Msg: "bad thing"}}
	if code := reportError(dl, &config{}, &out); code != exitInput {
		t.Errorf("input error exits %d, want %d", code, exitInput)
	}
	if !strings.Contains(out.String(), "missing.c:3:2: error: bad thing") {
		t.Errorf("input error printed %q", out.String())
	}
}

// A failed compile leaves an existing -o file as it was; a good one
// replaces it, with no temporary file left behind.
func TestOutputKeptOnFailure(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.o")
	if err := os.WriteFile(out, []byte("previous"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.c")
	os.WriteFile(bad, []byte("int f(void) { return undefined_name; }\n"), 0o644)
	var so, se bytes.Buffer
	if code := run([]string{bad, "-o", out}, &so, &se); code != exitInput {
		t.Fatalf("bad input exits %d, want %d: %s", code, exitInput, se.String())
	}
	if b, _ := os.ReadFile(out); string(b) != "previous" {
		t.Errorf("failed compile changed -o to %q", b)
	}
	good := filepath.Join(dir, "good.c")
	os.WriteFile(good, []byte("int x;\n"), 0o644)
	if code := run([]string{good, "-o", out}, &so, &se); code != exitOK {
		t.Fatalf("good input exits %d: %s", code, se.String())
	}
	if b, _ := os.ReadFile(out); !bytes.HasPrefix(b, []byte("\x7fELF")) {
		t.Errorf("-o is not an ELF object after a good compile")
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

// Entry-value helpers become explicit targets, so the runtime attaches them
// before the probes that read what they save.
func TestEntryHelpersFirst(t *testing.T) {
	spec := &ebpf.CollectionSpec{Programs: map[string]*ebpf.ProgramSpec{
		"h_2__entry": {SectionName: "uprobe//bin/app:work+0x0"},
		"h_1__entry": {SectionName: "uprobe//bin/app:work+0x0"},
		"h_1":        {SectionName: "uprobe//bin/app:work+0x25"},
		"other":      {SectionName: "xdp"},
	}}
	got := entryHelpersFirst(spec)
	if len(got) != 2 || got[0].Program != "h_1__entry" || got[1].Program != "h_2__entry" || got[0].Probe != "/bin/app:work+0x0" {
		t.Errorf("entryHelpersFirst = %+v", got)
	}
}
