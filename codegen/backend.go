package codegen

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/bpfcc/bpfcc/codegen/obj"
	"github.com/bpfcc/bpfcc/diag"
	"github.com/bpfcc/bpfcc/ir"
)

// fstate is one function going through the back end.
type fstate struct {
	f     *ir.Func
	cpu   int
	src   *sourceCache
	mf    *mfunc
	color []int // after regalloc: the physical register of every register
	fn    *obj.Func
}

// A stage is one step of the back end over a function. print shows what
// it left (for -d=ir:after=STAGE); check, when set, checks it.
type stage struct {
	name  string
	run   func(s *fstate) error
	print func(s *fstate) string
	check func(s *fstate) error
}

// backEnd is the back end's stages, in order: after the IR passes, the
// function's traps are diagnosed, its stack objects laid out, instructions
// selected on virtual registers (MIR), registers allocated (with spill
// code) and the blocks placed and emitted.
var backEnd = []stage{
	{name: "traps", run: findTraps},
	{name: "slots", run: layoutFrame, print: printSlots},
	{name: "isel", run: selectInstrs, print: printMIR, check: checkMIR},
	{name: "regalloc", run: allocateRegs, print: printMIR, check: checkMIR},
	{name: "emit", run: emit, print: printEmitted},
}

// StageNames lists the back end's stages in order.
func StageNames() []string {
	names := make([]string, len(backEnd))
	for i, st := range backEnd {
		names[i] = st.name
	}
	return names
}

// checkStages makes compileFunc check the MIR after every stage that has
// a checker: in tests and with BPFCC_CHECK=1 (BPFCC_CHECK=0 turns it off in
// tests too, for benchmarks that time what a user's compile runs).
var checkStages = os.Getenv("BPFCC_CHECK") != "0" && (testing.Testing() || os.Getenv("BPFCC_CHECK") != "")

func compileFunc(f *ir.Func, cpu int, src *sourceCache, after func(stage, fn, text string, took time.Duration)) (*obj.Func, error) {
	if f.Naked {
		return nakedFunc(f, src), nil
	}
	s := &fstate{f: f, cpu: cpu, src: src}
	for _, st := range backEnd {
		start := time.Now()
		if err := st.run(s); err != nil {
			return nil, err
		}
		took := time.Since(start)
		if after != nil {
			text := ""
			if st.print != nil {
				text = st.print(s)
			}
			after(st.name, f.Name, text, took)
		}
		if checkStages && st.check != nil {
			if err := st.check(s); err != nil {
				return nil, fmt.Errorf("function %q: internal error after %s: %w", f.Name, st.name, err)
			}
		}
	}
	return s.fn, nil
}

// stack is the frame size: the stack objects, then the spill slots.
func (s *fstate) stack() int { return s.mf.slotBytes + 8*s.mf.spills }

// findTraps diagnoses a trap the IR passes left reachable: a construct
// lower could only compile to a run-time failure.
func findTraps(s *fstate) error { return reachableTrap(s.f) }

func layoutFrame(s *fstate) error {
	f := s.f
	s.mf = &mfunc{name: f.Name, pos: f.Pos, next: vreg(max(f.NextReg, 1)), noSpill: map[int]bool{}}
	s.mf.slotOff, s.mf.slotBytes = layoutSlots(f)
	// Checked before instruction selection, which need not handle such
	// offsets; verify checks the final frame, spills included.
	if s.mf.slotBytes > MaxStack {
		return diag.List{frameError(f.Name, f.Pos, s.mf.slotBytes)}
	}
	return nil
}

func selectInstrs(s *fstate) error {
	if err := selectFunc(s.f, s.mf, s.cpu); err != nil {
		return inFunc(s.f, err)
	}
	return nil
}

func allocateRegs(s *fstate) error {
	color, err := allocate(s.mf)
	if err != nil {
		return inFunc(s.f, err)
	}
	s.color = color
	return nil
}

func emit(s *fstate) error {
	fn, err := emitFunc(s.mf, s.color, s.cpu, s.src)
	if err != nil {
		return inFunc(s.f, err)
	}
	fn.Section = s.f.Section
	if fn.Section == "" {
		fn.Section = ".text"
	}
	fn.Static = s.f.Static
	fn.Hidden = s.f.Hidden
	fn.Weak = s.f.Weak
	fn.BTF = s.f.BTF
	fn.StackSize = s.stack()
	fn.Pos = s.f.Pos
	s.fn = fn
	return nil
}
