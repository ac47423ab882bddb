package codegen

import (
	"fmt"

	"github.com/bpfcc/bpfcc/ir"
)

// MaxStack is the eBPF stack limit per frame, in bytes.
const MaxStack = 512

// layoutSlots places f's stack objects below the frame pointer, in order,
// each at a multiple of its alignment (at least 8 for objects of 8 bytes or
// more), below the objects placed before it that can be alive at the same
// time (see ir.Scope.Disjoint). It returns each
// slot's offset from R10 (negative) and the bytes used, rounded up to 8 so
// that spill slots below stay aligned.
func layoutSlots(f *ir.Func) (map[*ir.Slot]int, int) {
	type placed struct {
		s      *ir.Slot
		lo, hi int // depth below the frame pointer: bytes [fp-hi, fp-lo)
	}
	var done []placed
	offs := map[*ir.Slot]int{}
	frame := 0
	used := map[*ir.Slot]bool{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Slot != nil {
				used[in.Slot] = true
			}
		}
	}
	for _, s := range f.Slots {
		if s == nil || !used[s] {
			// Optimised away (forwarded stores, inlined copies): no memory.
			continue
		}
		align := max(s.Align, 1)
		if s.Size >= 8 {
			align = max(align, 8)
		}
		size := max(s.Size, 0)
		// Below every object placed so far that may be alive at the same
		// time; objects of disjoint C blocks share memory, as clang's stack
		// colouring lets them. (Holes are not filled: a small object
		// beside another in one 8-byte word would make the verifier forget
		// a spilled value there.)
		base := 0
		for _, p := range done {
			if !s.Scope.Disjoint(p.s.Scope) {
				base = max(base, p.hi)
			}
		}
		hi := alignUp(base+size, align)
		done = append(done, placed{s, hi - size, hi})
		offs[s] = -hi
		frame = max(frame, hi)
	}
	return offs, alignUp(frame, 8)
}

func alignUp(n, a int) int {
	if a <= 1 {
		return n
	}
	return (n + a - 1) / a * a
}

// JumpRangeError reports a function so large that a jump in it spans more
// instructions than a BPF jump's 16-bit offset reaches: an error in the
// input (split the function), which the driver positions at it.
type JumpRangeError struct {
	Func string
	Span int
}

func (e *JumpRangeError) Error() string {
	return fmt.Sprintf("function %q is too large: a jump in it spans %d instructions, and BPF jumps reach at most 32767 below -mcpu=v4; split the function or compile with -mcpu=v4 (gotol)", e.Func, e.Span)
}

// FrameError reports a function whose stack frame is over the eBPF limit:
// an error in the input, which the driver positions at the function.
type FrameError struct {
	Func string
	Size int
}

func (e *FrameError) Error() string {
	return fmt.Sprintf("function %q: stack frame of %d bytes exceeds BPF's %d-byte limit", e.Func, e.Size, MaxStack)
}

// TrapError is a __builtin_trap() that optimisation left reachable, or a
// construct lower could not compile that optimisation did not remove (Msg).
type TrapError struct {
	Func string
	Pos  ir.Pos
	Msg  string
}

func (e *TrapError) Error() string {
	if e.Msg != "" {
		return e.Msg
	}
	return "__builtin_trap() is reachable: BPF has no trap instruction (clang: \"A call to built-in function 'abort' is not supported\")"
}

// reachableTrap returns the first trap call left in f.
func reachableTrap(f *ir.Func) (*ir.Instr, bool) {
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpCallFunc && in.Sym == ir.TrapSym {
				return in, true
			}
		}
	}
	return nil, false
}

// checkFrame reports a frame over the eBPF limit.
func checkFrame(name string, size int) error {
	if size > MaxStack {
		return &FrameError{Func: name, Size: size}
	}
	return nil
}
