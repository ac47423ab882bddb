package codegen

import (
	"fmt"

	"github.com/bpfcc/bpfcc/ir"
)

// MaxStack is the eBPF stack limit per frame, in bytes.
const MaxStack = 512

// layoutSlots places f's stack objects below the frame pointer, in order,
// each at a multiple of its alignment (at least 8 for objects of 8 bytes or
// more). It returns each slot's offset from R10 (negative) and the bytes
// used, rounded up to 8 so that spill slots below stay aligned.
func layoutSlots(f *ir.Func) (map[*ir.Slot]int, int) {
	offs := map[*ir.Slot]int{}
	cur := 0
	for _, s := range f.Slots {
		if s == nil {
			continue
		}
		align := max(s.Align, 1)
		if s.Size >= 8 {
			align = max(align, 8)
		}
		cur = alignUp(cur+max(s.Size, 0), align)
		offs[s] = -cur
	}
	return offs, alignUp(cur, 8)
}

func alignUp(n, a int) int {
	if a <= 1 {
		return n
	}
	return (n + a - 1) / a * a
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

// checkFrame reports a frame over the eBPF limit.
func checkFrame(name string, size int) error {
	if size > MaxStack {
		return &FrameError{Func: name, Size: size}
	}
	return nil
}
