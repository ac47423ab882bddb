package tests

import (
	"errors"
	"testing"
)

// TestCorpusWithClang verifies the corpus itself, independently of bpfcc:
// every testdata program compiles with clang-19, loads with cilium/ebpf,
// passes its own EXPECT lines when run, and (where bpftool is installed)
// loads with libbpf. A failure here is a bug in the corpus, not in bpfcc.
func TestCorpusWithClang(t *testing.T) {
	clang := requireClang(t)
	requireKernel(t)
	bpftool := bpftoolPath()
	progs := loadCorpus(t)
	if len(progs) < 50 {
		t.Errorf("corpus has %d programs, want at least 50", len(progs))
	}
	for _, p := range progs {
		t.Run(p.Name, func(t *testing.T) {
			obj, err := compileClang(clang, p, t.TempDir())
			if errors.Is(err, errClangRejects) {
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			spec, err := parseObject(obj)
			if p.NoClangCilium != "" && err == nil {
				// Parsed: the directive holds if the load fails.
				_, err = runProgram(p, spec)
			}
			switch {
			case p.NoClangCilium != "" && err == nil:
				t.Errorf("%s says CLANG-CILIUM: skip (%s), but cilium/ebpf parses and runs clang's object", p.Path, p.NoClangCilium)
			case p.NoClangCilium != "":
				t.Logf("clang's object is not run: %s (%v)", p.NoClangCilium, err)
			case err != nil:
				t.Fatal(err)
			default:
				obs, err := runProgram(p, spec)
				if err != nil {
					t.Fatalf("%s: %v", p.Path, err)
				}
				reportErrors(t, checkObservations(p, spec, obs))
			}
			if bpftool == "" || p.NoBPFTool != "" {
				return
			}
			if err := bpftoolLoadAll(t, bpftool, p.Name+"_clang", obj); err != nil {
				t.Errorf("clang object does not load with libbpf: %v", err)
			}
		})
	}
}

// TestRejectCorpusWithClang checks that every reject/*.c is valid C as far
// as clang's front end is concerned (unless it says CLANG: error), so bpfcc's
// rejection tests the restriction named and not a typo.
func TestRejectCorpusWithClang(t *testing.T) {
	clang := requireClang(t)
	for _, r := range loadRejects(t) {
		t.Run(r.Name, func(t *testing.T) {
			err := clangSyntaxOnly(clang, r.Path)
			switch {
			case r.ClangError && err == nil:
				t.Errorf("%s says CLANG: error, but clang accepts it", r.Path)
			case !r.ClangError && err != nil:
				t.Errorf("%s is not valid C for clang: %v", r.Path, err)
			}
		})
	}
}
