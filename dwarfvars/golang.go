package dwarfvars

import (
	"debug/dwarf"
	"fmt"
)

// Go binaries: FILE.go:LINE and pkg.Func, pkg.(*T).Method probes resolve
// as C ones do (Go's DWARF names functions by their qualified names);
// return probes are refused.

// GoReturnError refuses FUNC%return on a Go function: a uretprobe
// replaces the return address on the goroutine's stack with the kernel's
// trampoline, and the Go runtime, which walks and copies goroutine stacks
// (growth, garbage collection, panics, tracebacks), then finds a return
// address outside any Go function and crashes the traced program.
type GoReturnError struct {
	Probe, Func string
}

func (e *GoReturnError) Error() string {
	return fmt.Sprintf("probe %s: %s is a Go function, and return probes (uretprobes) corrupt Go stacks: they replace the return address, which the Go runtime reads when it walks or moves a goroutine's stack, and the program crashes; probe the lines of its return statements (FILE.go:LINE) instead", e.Probe, e.Func)
}

// Is makes errors.Is(err, ErrUnsupported) work.
func (e *GoReturnError) Is(t error) bool { return t == ErrUnsupported }

// isGo reports whether a compile unit is Go (DW_LANG_Go).
func isGo(c *cuInfo) bool {
	l, _ := c.entry.Val(dwarf.AttrLanguage).(int64)
	return l == 0x16
}
