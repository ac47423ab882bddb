package codegen

import (
	"slices"

	"github.com/bpfcc/bpfcc/codegen/obj"
	"github.com/cilium/ebpf/asm"
)

// maxTailGroup bounds the blocks compared pairwise for one jump target.
const maxTailGroup = 256

// mergeTails makes blocks that end with the same instructions and then
// jump to the same block (or exit) share one copy of those instructions,
// as LLVM's branch folding does: an always-inline function called from
// many places (bpf_flow.c's export_flow_keys, a struct copy and a map
// update before each return) leaves identical code at each call, and two
// `r0 = 0; exit` blocks need not both be there. The instructions are
// compared after register assignment, so identical means identical.
//
// When one block's whole body ends the other, the other jumps into it;
// otherwise the common tail becomes a new block both jump to. A merge is
// made only when it saves instructions after the jumps it adds. It returns
// the blocks with the new ones appended; target must be recomputed.
func mergeTails(blocks []emitted, target []int) []emitted {
	for round := 0; round < len(blocks); round++ {
		groups := map[int][]int{}
		var keys []int
		for bi := range blocks {
			b := &blocks[bi]
			if !tailMergeable(b) {
				continue
			}
			k := -1 // exit
			if b.term.kind == kJump {
				k = target[b.term.then]
			}
			if len(groups[k]) == 0 {
				keys = append(keys, k)
			}
			if len(groups[k]) < maxTailGroup {
				groups[k] = append(groups[k], bi)
			}
		}
		merged := false
		for _, k := range keys {
			if mergeBest(&blocks, &target, groups[k]) {
				merged = true
				break
			}
		}
		if !merged && mergeSameBranches(blocks, target) {
			merged = true
		}
		if !merged {
			break
		}
		// A block a merge left a bare jump is now its target's twin.
		target = threadJumps(blocks)
	}
	return blocks
}

// mergeSameBranches makes a block that is another's twin (the same
// instructions ending in the same test with the same successors) a jump to
// it, as LLVM's branch folding does: BPF_KSYSCALL inlines one body for each
// way of reading the arguments, and when the body reads none the two are
// the same code. It reports whether it merged any.
func mergeSameBranches(blocks []emitted, target []int) bool {
	type sig struct {
		then, els int
		op        asm.OpCode
		dst, src  asm.Register
		imm       int64
		n         int
	}
	first := map[sig]int{}
	merged := false
	for bi := range blocks {
		b := &blocks[bi]
		if bi == 0 || b.term == nil || b.term.kind != kBranch || noFallthrough(b) || !movableBody(b.body) {
			continue
		}
		t := b.term.ins
		k := sig{target[b.term.then], target[b.term.els], t.OpCode, t.Dst, t.Src, t.Constant, len(b.body)}
		a, ok := first[k]
		if !ok {
			first[k] = bi
			continue
		}
		if commonTail(blocks[a].body, b.body) == len(b.body) {
			b.body, b.term = nil, jumpTerm(b.term, a)
			merged = true
		}
	}
	return merged
}

// tailMergeable reports whether b ends in a jump or exit its body can be
// moved before: no inline asm jump inside it, which counts in instructions.
func tailMergeable(b *emitted) bool {
	if b.term == nil || b.term.kind != kJump && b.term.kind != kExit || noFallthrough(b) {
		return false
	}
	return movableBody(b.body)
}

// movableBody reports whether body can be shared by blocks: it holds
// instructions and no inline asm jump among them.
func movableBody(body []outInsn) bool {
	if len(body) == 0 {
		return false
	}
	for _, o := range body {
		if op := o.ins.OpCode; op.Class().IsJump() && op.JumpOp() != asm.Call {
			return false
		}
	}
	return true
}

// mergeBest merges the pair of group with the longest common tail, when
// that saves instructions, and reports whether it did.
func mergeBest(blocks *[]emitted, target *[]int, group []int) bool {
	bs := *blocks
	best, bi, bj := 0, -1, -1
	for i, a := range group {
		for _, b := range group[i+1:] {
			n := commonTail(bs[a].body, bs[b].body)
			if n == 0 {
				continue
			}
			if gain := tailGain(bs, a, b, n); gain > best {
				best, bi, bj = gain, a, b
			}
		}
	}
	if bi < 0 {
		return false
	}
	a, b := bi, bj
	n := commonTail(bs[a].body, bs[b].body)
	// Jump into a block whose whole body is the tail (never the entry).
	if n == len(bs[b].body) && b != 0 {
		a, b = b, a
	}
	if n == len(bs[a].body) && a != 0 {
		bs[b].body = bs[b].body[:len(bs[b].body)-n]
		bs[b].term = jumpTerm(bs[b].term, a)
		return true
	}
	c := len(bs)
	tail := emitted{body: slices.Clone(bs[a].body[len(bs[a].body)-n:]), term: bs[a].term}
	for _, x := range []int{a, b} {
		bs[x].body = bs[x].body[:len(bs[x].body)-n]
		bs[x].term = jumpTerm(bs[x].term, c)
	}
	*blocks = append(bs, tail)
	*target = append(*target, c)
	return true
}

// tailGain is the instructions merging the common tail of n instructions
// of blocks a and b saves, after the jumps it adds.
func tailGain(bs []emitted, a, b, n int) int {
	w := 0
	for _, o := range bs[a].body[len(bs[a].body)-n:] {
		w += int(o.ins.Width())
	}
	whole := func(x int) bool { return n == len(bs[x].body) && x != 0 }
	if whole(a) && whole(b) {
		// The same block twice: one of them becomes a bare jump that
		// layout threads away, its exit (or jump) with it.
		return w + 1
	}
	if whole(a) || whole(b) {
		return w - 1
	}
	return w - 2
}

// commonTail counts the identical instructions at the ends of x and y.
func commonTail(x, y []outInsn) int {
	n := 0
	for n < len(x) && n < len(y) && sameInsn(x[len(x)-1-n].ins, y[len(y)-1-n].ins) {
		n++
	}
	return n
}

// sameInsn reports whether a and b are the same instruction, relocations
// included.
func sameInsn(a, b asm.Instruction) bool {
	if a.OpCode != b.OpCode || a.Dst != b.Dst || a.Src != b.Src || a.Offset != b.Offset || a.Constant != b.Constant ||
		a.Reference() != b.Reference() || a.Symbol() != "" || b.Symbol() != "" {
		return false
	}
	ca, cb := obj.CoreOf(a), obj.CoreOf(b)
	return ca == nil && cb == nil || ca != nil && cb != nil && *ca == *cb
}

// jumpTerm is a jump to block to in place of the terminator t.
func jumpTerm(t *minst, to int) *minst {
	return &minst{ins: asm.Instruction{OpCode: asm.Ja.Op(asm.ImmSource)}, kind: kJump, then: to, pos: t.pos}
}
