package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
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
		early := new([64]byte)
		hugeHeap()
		b := make([]byte, 16<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		fmt.Printf("flags %s\n", vmFlags(t, uintptr(unsafe.Pointer(&b[len(b)-1]))))
		fmt.Printf("early %s\n", vmFlags(t, uintptr(unsafe.Pointer(early))))
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
	// The heap below, which initialisation touched, is advised too (and
	// collapsed, which the kernel may not manage: not checked).
	_, early, ok := strings.Cut(string(out), "early ")
	if early, _, _ = strings.Cut(early, "\n"); !ok || !strings.Contains(" "+early+" ", " hg ") {
		t.Errorf("heap allocated before hugeHeap is in a mapping with VmFlags %q, want hg", early)
	}
}

// The heap run is the adjacent anonymous read-write mappings up to the
// address, not a file mapping or a gap before them.
func TestLowestContiguous(t *testing.T) {
	maps := []byte(`00400000-00800000 r-xp 00000000 08:01 12 /usr/bin/bpfcc
c000000000-c000200000 rw-p 00000000 00:00 0 
c000400000-c000600000 rw-p 00000000 00:00 0 
c000600000-c000800000 rw-p 00000000 00:00 0 
c000800000-c000a00000 r--p 00000000 00:00 0 
c000a00000-c008a00000 rw-p 00000000 00:00 0 
7f0000000000-7f0000100000 rw-p 00000000 00:00 0 
`)
	for _, c := range []struct{ addr, want uintptr }{
		{0xc000700000, 0xc000400000},                   // after a gap
		{0xc000600000, 0xc000400000},                   // at a mapping's end
		{0xc000900000, 0xc000900000},                   // in a read-only mapping: none
		{0xc004000000, 0xc000a00000},                   // one run
		{0xc000a00000 + 80<<20, 0xc000a00000 + 16<<20}, // bounded to 64 MiB
		{0x500000, 0x500000},                           // in the binary
	} {
		if got := lowestContiguous(maps, c.addr); got != c.want {
			t.Errorf("lowestContiguous(%#x) = %#x, want %#x", c.addr, got, c.want)
		}
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
	return parseRange([]byte(field))
}
