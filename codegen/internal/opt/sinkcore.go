package opt

import (
	"slices"

	"github.com/bpfcc/bpfcc/ir"
)

// sinkCoreRelocs moves a CO-RE relocation's value down to where it is
// used, as clang sinks it: a relocation the loader cannot resolve (a
// program-local type's size, a field this kernel lacks) is poisoned, and
// the verifier rejects a poisoned instruction on any path it walks, but
// not one in a branch a bpf_core_*_exists() test makes dead. C code that
// computes such a value before the test (inspektor-gadget's buffer.h:
// size = bpf_core_type_size(...); if (bpf_core_enum_value_exists(...)) ...)
// must not run it first.
//
// A relocation defined once goes to the start of the nearest block that
// dominates all its uses, when that is not its own block and lies in no
// loop its own block is outside of.
func sinkCoreRelocs(f *ir.Func, _ *passCtx) {
	var cores []*ir.Instr
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpCore && in.Dst != 0 {
				cores = append(cores, in)
			}
		}
	}
	if len(cores) == 0 {
		return
	}
	renumber(f)
	defs := map[ir.Reg]int{}
	useBlocks := map[ir.Reg][]*ir.Block{}
	useCount := map[ir.Reg]int{}
	movOf := map[ir.Reg]*ir.Instr{} // a copy of r in r's block: its only use
	home := map[*ir.Instr]*ir.Block{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Dst != 0 {
				defs[in.Dst]++
			}
			home[in] = b
			forEachUse(in, func(o *ir.Operand) {
				useCount[o.Reg]++
				if us := useBlocks[o.Reg]; len(us) == 0 || us[len(us)-1] != b {
					useBlocks[o.Reg] = append(useBlocks[o.Reg], b)
				}
			})
			if in.Op == ir.OpMov && !in.A.IsImm {
				movOf[in.A.Reg] = in
			}
		}
	}
	loops, idom := findLoops(f)
	depth := func(b *ir.Block) (n int) {
		for _, l := range loops {
			if l.in[b] {
				n++
			}
		}
		return n
	}
	pre, post := domIntervals(idom)
	// ncd is the nearest block dominating a and b (-1: none).
	ncd := func(a, b int) int {
		for a >= 0 && !(pre[a] <= pre[b] && post[b] <= post[a]) {
			a = idom[a]
		}
		return a
	}
	for _, in := range cores {
		from := home[in]
		if defs[in.Dst] != 1 || from == nil {
			continue
		}
		// The relocation and the copies of it that lower made for the C
		// variable holding it move together.
		group := []*ir.Instr{in}
		r := in.Dst
		for useCount[r] == 1 && movOf[r] != nil && home[movOf[r]] == from && defs[movOf[r].Dst] == 1 {
			group = append(group, movOf[r])
			r = movOf[r].Dst
		}
		us := useBlocks[r]
		if len(us) == 0 {
			continue
		}
		to := us[0].ID
		for _, u := range us[1:] {
			if to = ncd(to, u.ID); to < 0 {
				break
			}
		}
		if to < 0 || to == from.ID || idom[to] < 0 || depth(f.Blocks[to]) > depth(from) {
			continue
		}
		dst := f.Blocks[to]
		from.Instrs = slices.DeleteFunc(from.Instrs, func(x *ir.Instr) bool { return slices.Contains(group, x) })
		dst.Instrs = slices.Insert(dst.Instrs, 0, group...)
		for _, x := range group {
			home[x] = dst
		}
	}
}
