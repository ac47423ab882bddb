package opt

import (
	"bytes"
	"strings"

	"github.com/bpfcc/bpfcc/ir"
)

// foldStrcmps folds the __builtin_strcmp calls (ir.StrcmpSym) whose two
// pointers inlining showed to be string literals, and the __builtin_strlen
// calls (ir.StrlenSym) of one: an always-inline helper
// comparing its parameter with each of a list of names, called with a
// literal (tetragon's file ids from __FILE_NAME__), as clang folds them.
func foldStrcmps(f *ir.Func, pc *passCtx) { foldStrcmpsIn(f, pc, false) }

// finishStrcmps turns each call left into a trap carrying its diagnostic:
// an error only if optimisation leaves it reachable.
func finishStrcmps(f *ir.Func, pc *passCtx) { foldStrcmpsIn(f, pc, true) }

func foldStrcmpsIn(f *ir.Func, pc *passCtx, last bool) {
	var defs map[ir.Reg][]*ir.Instr
	for _, b := range f.Blocks {
		for i, in := range b.Instrs {
			if in.Op != ir.OpCallFunc || (in.Sym != ir.StrcmpSym && in.Sym != ir.StrlenSym) {
				continue
			}
			if defs == nil {
				defs = defsOf(f)
			}
			if in.Sym == ir.StrlenSym {
				if x, ok := literalAt(f, pc, defs, in.Args[0]); ok {
					b.Instrs[i] = &ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: ir.Imm(int64(len(x))), Pos: in.Pos}
				} else if last {
					b.Instrs[i] = &ir.Instr{Op: ir.OpCallFunc, Sym: ir.TrapSym, Note: in.Note, Pos: in.Pos}
				}
				continue
			}
			x, okX := literalAt(f, pc, defs, in.Args[0])
			y, okY := literalAt(f, pc, defs, in.Args[1])
			switch {
			case okX && okY:
				b.Instrs[i] = &ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: ir.Imm(int64(strings.Compare(x, y))), Pos: in.Pos}
			case last:
				b.Instrs[i] = &ir.Instr{Op: ir.OpCallFunc, Sym: ir.TrapSym, Note: in.Note, Pos: in.Pos}
			}
		}
	}
}

// literalAt reads the NUL-terminated string o points to when it holds the
// address of a constant global (a string literal).
func literalAt(f *ir.Func, pc *passCtx, defs map[ir.Reg][]*ir.Instr, o ir.Operand) (string, bool) {
	o = throughCopies(f, defs, o)
	if o.IsImm || len(defs[o.Reg]) != 1 {
		return "", false
	}
	d := defs[o.Reg][0]
	g := pc.consts[d.Sym]
	if d.Op != ir.OpSymAddr || g == nil || d.Off < 0 || d.Off >= int64(len(g.Init)) {
		return "", false
	}
	s := g.Init[d.Off:]
	n := bytes.IndexByte(s, 0)
	if n < 0 {
		return "", false
	}
	return string(s[:n]), true
}
