package opt

import "github.com/bpfcc/bpfcc/ir"

// cloneModule copies m deeply enough that passes may rewrite the copy's
// functions; globals and maps are shared (codegen only reads them).
func cloneModule(m *ir.Module) *ir.Module {
	c := *m
	c.Funcs = nil
	for _, f := range m.Funcs {
		if f != nil {
			c.Funcs = append(c.Funcs, cloneFunc(f))
		}
	}
	return &c
}

// cloneFunc copies f with fresh blocks, instructions and slots.
func cloneFunc(f *ir.Func) *ir.Func {
	c := *f
	c.Params = append([]ir.Reg(nil), f.Params...)
	slots := map[*ir.Slot]*ir.Slot{}
	c.Slots = nil
	for _, s := range f.Slots {
		if s == nil {
			continue
		}
		ns := *s
		slots[s] = &ns
		c.Slots = append(c.Slots, &ns)
	}
	blocks := map[*ir.Block]*ir.Block{}
	c.Blocks = nil
	for _, b := range f.Blocks {
		nb := &ir.Block{ID: b.ID}
		blocks[b] = nb
		c.Blocks = append(c.Blocks, nb)
	}
	for i, b := range f.Blocks {
		nb := c.Blocks[i]
		for _, in := range b.Instrs {
			ni := *in
			ni.Args = append([]ir.Operand(nil), in.Args...)
			if in.Slot != nil {
				if s, ok := slots[in.Slot]; ok {
					ni.Slot = s
				}
			}
			if in.Then != nil {
				if t, ok := blocks[in.Then]; ok {
					ni.Then = t
				}
			}
			if in.Else != nil {
				if t, ok := blocks[in.Else]; ok {
					ni.Else = t
				}
			}
			nb.Instrs = append(nb.Instrs, &ni)
		}
	}
	return &c
}

// renumber makes block IDs equal their indices.
func renumber(f *ir.Func) {
	for i, b := range f.Blocks {
		b.ID = i
	}
}

// uses calls fn for every register operand in.
func forEachUse(in *ir.Instr, fn func(o *ir.Operand)) {
	reg := func(o *ir.Operand) {
		if !o.IsImm {
			fn(o)
		}
	}
	addr := func(o *ir.Operand) {
		if in.Slot == nil {
			reg(o)
		}
	}
	switch in.Op {
	case ir.OpLoad:
		addr(&in.A)
	case ir.OpMov, ir.OpNeg, ir.OpExt, ir.OpBswap, ir.OpRet:
		reg(&in.A)
	case ir.OpStore:
		addr(&in.A)
		reg(&in.B)
	case ir.OpALU, ir.OpBranch:
		reg(&in.A)
		reg(&in.B)
	case ir.OpAtomic:
		addr(&in.A)
		reg(&in.B)
		if in.Atomic == ir.AtomicCmpXchg {
			reg(&in.C)
		}
	case ir.OpCall, ir.OpCallFunc, ir.OpAsm:
		for i := range in.Args {
			reg(&in.Args[i])
		}
	}
}

// pure reports whether removing in is safe when its result is unused.
func pure(in *ir.Instr) bool {
	switch in.Op {
	case ir.OpLoad:
		// A volatile load happens as written, also when nothing reads
		// its value (the store it fed may have died).
		return !in.Volatile
	case ir.OpMov, ir.OpALU, ir.OpNeg, ir.OpExt, ir.OpBswap, ir.OpFrameAddr, ir.OpSymAddr, ir.OpMapPtr, ir.OpFuncAddr, ir.OpCore:
		return true
	}
	return false
}

// predecessors counts, for each block, the edges that reach it.
func predecessors(f *ir.Func) map[*ir.Block]int {
	preds := map[*ir.Block]int{}
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			preds[s]++
		}
	}
	return preds
}
