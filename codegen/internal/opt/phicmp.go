package opt

import "github.com/bpfcc/bpfcc/ir"

// flagComparedConstants turns a register every definition of which is a
// constant, and every use of which is one comparison with a constant, into
// the comparison's outcome: each `r = mov C` becomes `r = mov 1` or `r =
// mov 0`, the branch `if r != 0`. clang's instcombine folds a compare into
// a phi of constants the same way. A counter of an unrolled loop read once
// after another loop (falco's store_cgroup_subsys: `path_components <= 1`
// after the path walk) otherwise reaches the compare as one constant per
// trip count, and the verifier, the compare making them precise, walks the
// code between once per count (2.4x clang's verified instructions).
// Reports whether it changed anything.
func flagComparedConstants(f *ir.Func) bool {
	type info struct {
		defs   []*ir.Instr
		test   *ir.Instr // the one comparison
		values map[int64]bool
		bad    bool
	}
	regs := map[ir.Reg]*info{}
	get := func(r ir.Reg) *info {
		i := regs[r]
		if i == nil {
			i = &info{values: map[int64]bool{}}
			regs[r] = i
		}
		return i
	}
	for _, p := range f.Params {
		get(p).bad = true
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpBranch && in.Cond != ir.Set {
				a, c := in.A, in.B
				if a.IsImm {
					a, c = c, a
				}
				if !a.IsImm && c.IsImm {
					i := get(a.Reg)
					if i.test != nil && i.test != in || in.A == in.B {
						i.bad = true
					}
					i.test = in
					continue
				}
			}
			forEachUse(in, func(o *ir.Operand) { get(o.Reg).bad = true })
			if in.Dst != 0 {
				i := get(in.Dst)
				if in.Op != ir.OpMov || !in.A.IsImm {
					i.bad = true
				} else {
					i.defs = append(i.defs, in)
					i.values[in.A.Imm] = true
				}
			}
		}
	}
	changed := false
	for r, i := range regs {
		// Two values are a flag already.
		if i.bad || i.test == nil || len(i.values) < 3 {
			continue
		}
		t := i.test
		for _, d := range i.defs {
			x, y := d.A.Imm, t.B.Imm
			if t.A.IsImm {
				x, y = t.A.Imm, d.A.Imm
			}
			v := int64(0)
			if ir.EvalCond(t.Cond, t.W32, x, y) {
				v = 1
			}
			d.A = ir.Imm(v)
		}
		*t = ir.Instr{Op: ir.OpBranch, Cond: ir.Ne, A: ir.R(r), B: ir.Imm(0), Then: t.Then, Else: t.Else,
			Likely: t.Likely, Unroll: t.Unroll, Pos: t.Pos, Note: t.Note}
		changed = true
	}
	return changed
}
