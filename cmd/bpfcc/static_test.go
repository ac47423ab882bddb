package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoCgo keeps bpfcc a static binary: a package that links cgo (net's
// resolver, os/user) makes every compile pay for ld.so and libc start-up.
func TestNoCgo(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "runtime/cgo" {
			t.Fatal("bpfcc links runtime/cgo: find the import with go list -deps -f '{{.ImportPath}} {{.CgoFiles}}'")
		}
	}
}
