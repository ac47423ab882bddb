package opt

import "github.com/bpfcc/bpfcc/ir"

// foldComparedArms finds a join every predecessor of which sets a register
// last to the same value x: x itself, or a constant C on an edge where
// x == C holds (`if (f == AF_INET) return PPM_AF_INET; ... return f;` with
// equal constants: falco's socket_family_to_scap). The moves become one
// `r = x` at the join and the arms empty, so the branch chain folds away,
// as clang's simplification of a phi of compared values: the verifier
// walked the code after the join once per arm, each with another constant
// (connect_x: 1.97x clang's verified instructions). Reports whether it
// folded one.
func foldComparedArms(f *ir.Func) bool {
	preds := map[*ir.Block][]*ir.Block{}
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			preds[s] = append(preds[s], b)
		}
	}
	defs := defCounts(f)
	copyOf := map[ir.Reg]ir.Reg{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpMov && !in.A.IsImm && in.Dst != in.A.Reg && defs[in.Dst] == 1 && defs[in.A.Reg] == 1 {
				copyOf[in.Dst] = in.A.Reg
			}
		}
	}
	canon := func(r ir.Reg) ir.Reg {
		for i := 0; i < 16; i++ {
			c, ok := copyOf[r]
			if !ok {
				break
			}
			r = c
		}
		return r
	}
	var ws *widths
	// lastMove is p's move right before its jump to j.
	lastMove := func(p, j *ir.Block) *ir.Instr {
		n := len(p.Instrs)
		if n < 2 || p.Instrs[n-1].Op != ir.OpJump || p.Instrs[n-1].Then != j {
			return nil
		}
		if in := p.Instrs[n-2]; in.Op == ir.OpMov && in.Dst != 0 {
			return in
		}
		return nil
	}
	// comparedTo reports whether p is entered only on an edge where x
	// equals c.
	comparedTo := func(p *ir.Block, x ir.Reg, c int64) bool {
		ps := preds[p]
		if len(ps) != 1 {
			return false
		}
		t := ps[0].Term()
		if t == nil || t.Op != ir.OpBranch || t.A.IsImm || !t.B.IsImm || t.B.Imm != c || canon(t.A.Reg) != x {
			return false
		}
		switch {
		case t.Cond == ir.Eq && t.Then == p && t.Else != p:
		case t.Cond == ir.Ne && t.Else == p && t.Then != p:
		default:
			return false
		}
		if t.W32 {
			// The low 32 bits are c: x is c if it has no others.
			if c < 0 || c > 1<<31-1 {
				return false
			}
			if ws == nil {
				w := valueWidths(f)
				ws = &w
			}
			if ws.of(ir.R(x)) > 32 {
				return false
			}
		}
		return true
	}
	changed := false
	for bi, j := range f.Blocks {
		ps := preds[j]
		if bi == 0 || len(ps) < 2 {
			continue
		}
		moves := make([]*ir.Instr, len(ps))
		var x ir.Reg
		ok := true
		for i, p := range ps {
			m := lastMove(p, j)
			if m == nil || i > 0 && m.Dst != moves[0].Dst {
				ok = false
				break
			}
			moves[i] = m
			if !m.A.IsImm {
				r := canon(m.A.Reg)
				if x != 0 && r != x || defs[r] != 1 {
					ok = false
					break
				}
				x = r
			}
		}
		if !ok || x == 0 || defs[moves[0].Dst] < 2 || moves[0].Dst == x {
			continue
		}
		for i, p := range ps {
			if m := moves[i]; m.A.IsImm && !comparedTo(p, x, m.A.Imm) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		mov := &ir.Instr{Op: ir.OpMov, Dst: moves[0].Dst, A: ir.R(x), Pos: moves[0].Pos}
		for _, p := range ps {
			n := len(p.Instrs)
			p.Instrs = append(p.Instrs[:n-2], p.Instrs[n-1])
		}
		j.Instrs = append([]*ir.Instr{mov}, j.Instrs...)
		changed = true
	}
	return changed
}
