package ir

import (
	"strings"
	"testing"
)

func TestCheckValid(t *testing.T) {
	if err := Check(sample()); err != nil {
		t.Fatal(err)
	}
}

func TestCheckErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(f *Func)
		want   string
	}{
		{"no terminator", func(f *Func) { f.Blocks[1].Instrs[0] = &Instr{Op: OpMov, Dst: 2, A: Imm(1)} }, "does not end in a terminator"},
		{"terminator in middle", func(f *Func) {
			f.Blocks[1].Instrs = append([]*Instr{{Op: OpRet, A: Imm(0)}}, f.Blocks[1].Instrs...)
		}, "in the middle"},
		{"foreign target", func(f *Func) { f.Blocks[0].Instrs[5].Then = &Block{ID: 1} }, "does not belong"},
		{"register range", func(f *Func) { f.Blocks[0].Instrs[1].Dst = 99 }, "out of range"},
		{"bad size", func(f *Func) { f.Blocks[0].Instrs[0].Size = 3 }, "invalid access size 3"},
		{"bad ext", func(f *Func) {
			f.Blocks[0].Instrs[1] = &Instr{Op: OpExt, Dst: 3, A: R(2), Bits: 12}
		}, "invalid extension width"},
		{"too many args", func(f *Func) { f.Blocks[0].Instrs[4].Args = make([]Operand, 6) }, "6 arguments"},
		{"params twice", func(f *Func) { f.Params = []Reg{1, 1} }, "listed twice"},
		{"empty block", func(f *Func) { f.Blocks[2].Instrs = nil }, "empty block"},
		{"block id", func(f *Func) { f.Blocks[2].ID = 7 }, "has ID 7"},
		{"atomic size", func(f *Func) {
			f.Blocks[0].Instrs[3] = &Instr{Op: OpAtomic, A: R(4), B: R(3), Size: 2}
		}, "atomic size 2"},
		{"foreign slot", func(f *Func) { f.Blocks[0].Instrs[2].Slot = &Slot{} }, "slot s0 does not belong"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := sample()
			tc.mutate(f)
			err := Check(f)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Check = %v, want error containing %q", err, tc.want)
			}
			if !strings.Contains(err.Error(), `function "prog"`) {
				t.Errorf("error %q does not name the function", err)
			}
		})
	}
	if Check(nil) == nil {
		t.Error("Check(nil) passed")
	}
}
