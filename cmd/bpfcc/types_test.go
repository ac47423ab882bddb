package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// --types prints the named types with what they reach, and says which
// names the binary lacks.
func TestTypesFlag(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed")
	}
	bin := filepath.Join(t.TempDir(), "t_types")
	if out, err := exec.Command("gcc", "-g", "-O0", "-o", bin, "../../tests/dwarf/types/t_types.c").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var out, errb bytes.Buffer
	if rc := run([]string{"--types", "-x", bin, "State"}, &out, &errb); rc != exitOK {
		t.Fatalf("exit %d: %s", rc, errb.String())
	}
	for _, want := range []string{"typedef struct State State;", "struct State {", "struct Global {", "struct CallInfo {", "#include <bpfcc/read.h>"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
	out.Reset()
	errb.Reset()
	if rc := run([]string{"--types", "-x", bin, "Statex"}, &out, &errb); rc != exitInput || !strings.Contains(errb.String(), `no struct, union, enum or typedef named "Statex"`) {
		t.Errorf("unknown type: exit %d, %q", rc, errb.String())
	}
	if rc := run([]string{"--types", "State"}, &out, &errb); rc != exitUsage {
		t.Errorf("no -x: exit %d, want %d", rc, exitUsage)
	}
	// -E expands <bpfcc/target.h> as a compile does.
	out.Reset()
	errb.Reset()
	if rc := run([]string{"-E", "../../tests/dwarf/types/handler.c", "-x", bin}, &out, &errb); rc != exitOK || !strings.Contains(out.String(), "struct CallInfo {") {
		t.Errorf("-E -x: exit %d, %s; want the binary's struct CallInfo in the output", rc, errb.String())
	}
}
