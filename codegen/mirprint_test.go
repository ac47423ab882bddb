package codegen

import (
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc/ir"
)

// backEndState runs f (already optimised IR) through the back end up to
// and including stage last.
func backEndState(t *testing.T, f *ir.Func, last string) *fstate {
	t.Helper()
	s := &fstate{f: f, cpu: 3, src: newSourceCache()}
	for _, st := range backEnd {
		if err := st.run(s); err != nil {
			t.Fatal(err)
		}
		if st.name == last {
			return s
		}
	}
	t.Fatalf("no stage %s", last)
	return nil
}

func loopFunc() *ir.Func {
	x := newFunc("prog", "socket", 1)
	i := x.mov(ir.Imm(0))
	head, done := x.f.NewBlock(), x.f.NewBlock()
	x.jump(head)
	x.b = head
	x.add(&ir.Instr{Op: ir.OpALU, ALU: ir.Add, W32: true, Dst: i, A: ir.R(i), B: ir.Imm(3)})
	x.branch(ir.Ult, false, ir.R(i), ir.Imm(30), head, done)
	x.b = done
	x.ret(ir.R(i))
	return x.f
}

// TestMIRPrint: before allocation virtual registers print as vN (vwN in
// 32-bit operations), after it as physical registers; blocks, weights,
// terminators and implicit uses show.
func TestMIRPrint(t *testing.T) {
	isel := printMIR(backEndState(t, loopFunc(), "isel"))
	for _, want := range []string{"mb1: ; weight 10\n", "  vw12 += 3\n", "  if v12 < 30 goto mb1 else mb2\n", "  exit ; uses r0\n", "  entry ; defs r1\n"} {
		if !strings.Contains(isel, want) {
			t.Errorf("after isel: no %q in\n%s", want, isel)
		}
	}
	ra := printMIR(backEndState(t, loopFunc(), "regalloc"))
	if strings.Contains(ra, " v") || !strings.Contains(ra, "if r") {
		t.Errorf("after regalloc, virtual registers remain or branch missing:\n%s", ra)
	}
	if err := checkMIR(backEndState(t, loopFunc(), "regalloc")); err != nil {
		t.Error(err)
	}
}

// TestMIRCheck: the checker reports a missing terminator, a bad target,
// an out-of-range register and an unallocated one.
func TestMIRCheck(t *testing.T) {
	for _, tc := range []struct {
		stage, want string
		break_      func(s *fstate)
	}{
		{"isel", "ends with its one terminator", func(s *fstate) {
			b := &s.mf.blocks[2]
			b.insns = b.insns[:len(b.insns)-1]
		}},
		{"isel", "no block mb7", func(s *fstate) { s.mf.blocks[0].insns[len(s.mf.blocks[0].insns)-1].then = 7 }},
		{"isel", "out of range", func(s *fstate) { s.mf.blocks[1].insns[0].dst = s.mf.next + 5 }},
		{"regalloc", "no physical register", func(s *fstate) { s.color[s.mf.blocks[1].insns[0].dst] = -1 }},
	} {
		s := backEndState(t, loopFunc(), tc.stage)
		if err := checkMIR(s); err != nil {
			t.Fatalf("before breaking: %v", err)
		}
		tc.break_(s)
		if err := checkMIR(s); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.stage, err, tc.want)
		}
	}
}

// TestStageNames: the back end's stages are named in order.
func TestStageNames(t *testing.T) {
	if got := strings.Join(StageNames(), " "); got != "traps slots isel regalloc emit" {
		t.Errorf("stages %q", got)
	}
}
