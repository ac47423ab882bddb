package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync/atomic"
)

// A compile's heap (mostly cc's AST) stays live until the object is
// written, so collecting a small compile's heap only costs time (GC was
// ~40% of one). A large compile is another matter: each page the heap
// grows by is a page fault, which on a VM costs more than collecting and
// reusing the garbage (core_kern.c's unrolled program allocates 400 MB).
// So the collector stays off until the heap reaches gcFromHeap, then runs
// with GOGC=gcPercent; the soft memory limit is a safety net.
const (
	gcFromHeap = 128 << 20
	gcPercent  = 400
	gcLimit    = 1 << 30
)

// compileGCOff, once set, keeps compileGC's finalizer from changing the
// collector's settings (--load sets its own).
var compileGCOff atomic.Bool

// compileGC sets the collector up for a compile, unless GOGC is set;
// with compiling, the heap is backed by huge pages first (hugeHeap).
func compileGC(compiling bool) {
	if os.Getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(-1)
	if compiling {
		hugeHeap()
	}
	debug.SetMemoryLimit(gcFromHeap)
	// The first collection, forced by the limit, finds the sentinel
	// unreachable and runs its finalizer, which turns the collector on.
	// (It holds a pointer: the tiny allocator's objects may never be
	// finalized.)
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) {
		if !compileGCOff.Load() {
			debug.SetGCPercent(gcPercent)
			debug.SetMemoryLimit(gcLimit)
		}
	})
}

type gcSentinel struct{ _ *int }
