// Package regalloc is an iterated-register-coalescing graph-colouring register
// allocator (George and Appel) over an abstract machine function: blocks of
// instructions that use and define numbered registers, where the first K
// numbers are precoloured physical registers.
package regalloc

// Insn is one machine instruction as the allocator sees it.
type Insn struct {
	Uses []int
	Defs []int
	// Move marks a register copy Defs[0] = Uses[0], a coalescing candidate.
	Move bool
}

// Block is a basic block.
type Block struct {
	Insns []Insn
	Succs []int
	// Weight scales the spill cost of occurrences in the block (loop depth).
	Weight float64
}

// Func is the allocator's input.
type Func struct {
	// K is the number of physical registers; registers 0..K-1 are precoloured.
	K int
	// N is the total number of registers (physical and virtual).
	N      int
	Blocks []Block
	// NoSpill, when set for a register, makes the allocator spill it only if
	// nothing else can be spilled (spill temporaries).
	NoSpill []bool
}

// Liveness computes the registers live on entry to and exit from each block.
func Liveness(f *Func) *BlockLive {
	ue := NewUpwardExposed(f.N, len(f.Blocks))
	for i, b := range f.Blocks {
		for _, ins := range b.Insns {
			for _, u := range ins.Uses {
				ue.Use(i, u)
			}
			for _, d := range ins.Defs {
				ue.Def(i, d)
			}
		}
	}
	return ue.Solve(func(b int, def func(r int)) {
		for _, ins := range f.Blocks[b].Insns {
			for _, d := range ins.Defs {
				def(d)
			}
		}
	}, func(b int) []int { return f.Blocks[b].Succs })
}
