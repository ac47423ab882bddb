package main

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugeHeapBytes is how much of the heap hugeHeap backs with huge pages:
// an XDP parser with libbpf and uapi headers allocates ~12 MB from a warm
// header cache, a vmlinux.h CO-RE program ~40 MB, and both several times
// that cold. It stays under gcFromHeap, since freed but mapped memory
// counts against the memory limit; untouched, it costs nothing.
const hugeHeapBytes = 96 << 20

// hugeHeap asks the kernel to back the next hugeHeapBytes of the heap with
// transparent huge pages, when the system grants them only on request
// (THP "madvise", the common default).
//
// Why: a compile touches its heap once, and on a VM each first touch of a
// 4 KiB page is a fault costing 10-20 µs (shadow page tables): 3,000 of
// them were half of a 55 ms warm compile. One 2 MiB fault replaces 512.
// The Go runtime no longer advises its heap itself, and it maps the heap in
// 4 MiB steps whose fresh mappings would not inherit advice. So: grow the
// heap by one large allocation, advise that range, and free it with a
// collection while the heap is still small (~1 ms, ~160 faults); the
// compile's allocations then reuse those pages.
//
// It must run with the collector off (or the large allocation triggers a
// cycle of its own) and before anything registers a finalizer that the
// collection would run.
func hugeHeap() {
	if !thpOnRequest() {
		return
	}
	b := make([]byte, hugeHeapBytes)
	// Advise the whole huge pages inside b.
	const huge = 2 << 20
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := int((start+huge-1)&^(huge-1) - start)
	hi := int((start+uintptr(len(b)))&^(huge-1) - start)
	if unix.Madvise(b[lo:hi], unix.MADV_HUGEPAGE) != nil {
		return
	}
	b = nil
	runtime.GC()
	collapseBelow(start + uintptr(lo))
}

// collapseBelow turns the heap below addr into huge pages now
// (MADV_COLLAPSE, Linux 6.1). The page allocator places first fit, so the
// compile's first megabytes land there, among what the runtime and
// package initialisation touched: with page tables already present, those
// 2 MiB ranges take 4 KiB faults whatever their advice (500 of a warm
// compile's 1,000 faults).
func collapseBelow(addr uintptr) {
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return
	}
	const huge = 2 << 20
	low := lowestContiguous(maps, addr)
	for p := (low + huge - 1) &^ (huge - 1); p+huge <= addr; p += huge {
		// By address: the range is the runtime's, no Go value.
		if _, _, errno := unix.Syscall(unix.SYS_MADVISE, p, huge, unix.MADV_HUGEPAGE); errno == 0 {
			unix.Syscall(unix.SYS_MADVISE, p, huge, unix.MADV_COLLAPSE)
		}
	}
}

// lowestContiguous returns the start of the run of adjacent private
// anonymous read-write mappings (the heap arena's) that ends at or spans
// addr, as /proc/self/maps lists them (in address order); addr if none
// does. The run is bounded to one 64 MiB heap arena.
func lowestContiguous(maps []byte, addr uintptr) uintptr {
	low, end := addr, uintptr(0)
	for _, line := range bytes.Split(maps, []byte("\n")) {
		f := bytes.Fields(line)
		if len(f) < 5 {
			continue
		}
		from, to, ok := parseRange(f[0])
		if !ok || from >= addr {
			break
		}
		anon := string(f[1]) == "rw-p" && string(f[4]) == "0" && len(f) == 5
		switch {
		case !anon:
			end = 0
		case end == 0 || from != end:
			low = from // a new run
		}
		if anon {
			end = to
		}
		if to >= addr && anon {
			return max(low, addr-min(addr, 64<<20))
		}
	}
	return addr
}

// parseRange parses /proc/self/maps's "from-to" (hexadecimal).
func parseRange(f []byte) (from, to uintptr, ok bool) {
	a, b, found := bytes.Cut(f, []byte("-"))
	x, err1 := strconv.ParseUint(string(a), 16, 64)
	y, err2 := strconv.ParseUint(string(b), 16, 64)
	return uintptr(x), uintptr(y), found && err1 == nil && err2 == nil
}

// thpOnRequest reports whether transparent huge pages are in "madvise"
// mode. Under "always" the heap gets them without asking; under "never",
// or without the file, asking is wasted work.
func thpOnRequest() bool {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && thpMadvise(mode)
}

// thpMadvise reads the enabled file's contents ("always [madvise] never":
// the selected mode is bracketed).
func thpMadvise(mode []byte) bool {
	return bytes.Contains(mode, []byte("[madvise]"))
}
