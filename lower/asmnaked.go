package lower

import (
	"math"

	"github.com/cilium/ebpf/asm"
	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/bpfasm"
)

// nakedBody checks that a naked function holds nothing but asm
// statements: it has no frame or prologue for C code to use.
func (fl *fnLowerer) nakedBody(cs *cc.CompoundStatement) bool {
	for l := cs.BlockItemList; l != nil; l = l.BlockItemList {
		it := l.BlockItem
		if it.Case == cc.BlockItemDecl && it.Declaration != nil && isFuncName(it.Declaration) {
			continue // the implicit __func__
		}
		s := it.Statement
		switch {
		case s != nil && s.Case == cc.StatementAsm:
		case s != nil && s.Case == cc.StatementExpr && s.ExpressionStatement.ExpressionList == nil:
		default:
			fl.l.errorf(it, "naked function %q may contain only asm statements", fl.fi.name)
			return false
		}
	}
	return true
}

func isFuncName(d *cc.Declaration) bool {
	for l := d.InitDeclaratorList; l != nil; l = l.InitDeclaratorList {
		if l.InitDeclarator.Declarator.Name() != "__func__" {
			return false
		}
	}
	return true
}

// nakedOperand is the instruction that puts a register operand of a naked
// function in its register before the asm code, as clang does: the
// function has no C code, so the value must be a constant or the address
// of a global.
func (fl *fnLowerer) nakedOperand(op asmOperand, r asm.Register) (asm.Instruction, bool) {
	if op.output {
		fl.l.errorf(op.node, "output operand %q in a naked function, which has no C code to receive it", op.name)
		return asm.Instruction{}, false
	}
	o, ok := fl.asmImmediate(op)
	switch {
	case !ok:
		return asm.Instruction{}, false
	case o.Kind == bpfasm.KindSym:
		return asm.LoadImm(r, 0, asm.DWord).WithReference(o.Sym), true
	case o.Imm >= math.MinInt32 && o.Imm <= math.MaxInt32:
		return asm.Mov.Imm(r, int32(o.Imm)), true
	}
	return asm.LoadImm(r, o.Imm, asm.DWord), true
}
