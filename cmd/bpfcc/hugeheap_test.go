package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

func TestTHPMadvise(t *testing.T) {
	for mode, want := range map[string]bool{
		"always [madvise] never\n": true,
		"[always] madvise never\n": false,
		"always madvise [never]\n": false,
		"":                         false,
	} {
		if got := thpMadvise([]byte(mode)); got != want {
			t.Errorf("thpMadvise(%q) = %v, want %v", mode, got, want)
		}
	}
}

// TestHugeHeapAdvisesCompileHeap checks, in a fresh process (the heap's
// layout must be a compile's, not the test binary's), that memory the
// program allocates after hugeHeap lies in a mapping advised for huge
// pages: the "hg" VmFlag in /proc/self/smaps.
func TestHugeHeapAdvisesCompileHeap(t *testing.T) {
	if os.Getenv("BPFCC_HUGEHEAP_CHILD") != "" {
		debug.SetGCPercent(-1)
		hugeHeap()
		b := make([]byte, 16<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		fmt.Printf("flags %s\n", vmFlags(t, uintptr(unsafe.Pointer(&b[len(b)-1]))))
		return
	}
	if !thpOnRequest() {
		t.Skip("transparent huge pages are not in madvise mode here: hugeHeap does nothing")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHugeHeapAdvisesCompileHeap$")
	cmd.Env = append(os.Environ(), "BPFCC_HUGEHEAP_CHILD=1", "GOGC=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	_, flags, ok := strings.Cut(string(out), "flags ")
	if !ok {
		t.Fatalf("child printed no flags:\n%s", out)
	}
	flags, _, _ = strings.Cut(flags, "\n")
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("heap allocated after hugeHeap is in a mapping with VmFlags %q, want hg (MADV_HUGEPAGE)", flags)
	}
}

// vmFlags returns the VmFlags line of the mapping holding addr.
func vmFlags(t *testing.T, addr uintptr) string {
	data, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	in := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := mappingRange(line); ok {
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:"))
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return ""
}

// mappingRange parses a smaps header line ("7f00-7f10 rw-p ...").
func mappingRange(line string) (lo, hi uintptr, ok bool) {
	field, _, _ := strings.Cut(line, " ")
	a, b, ok := strings.Cut(field, "-")
	if !ok {
		return 0, 0, false
	}
	x, err1 := strconv.ParseUint(a, 16, 64)
	y, err2 := strconv.ParseUint(b, 16, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return uintptr(x), uintptr(y), true
}
