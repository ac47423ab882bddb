package codegen

import (
	"fmt"
	"slices"

	"github.com/bpfcc/bpfcc/codegen/obj"
	"github.com/bpfcc/bpfcc/ir"
	"github.com/cilium/ebpf/asm"
)

// emitted is a block's code after register assignment, before layout.
type emitted struct {
	body []outInsn
	term *minst // the terminator, nil if the block falls off (never valid)
}

type outInsn struct {
	ins  asm.Instruction
	pos  ir.Pos
	note string
}

// fixup is a jump whose offset is known once every block is placed.
type fixup struct {
	insn, block int
}

// emitFunc lays blocks out, resolves jumps and records line info and notes.
func emitFunc(mf *mfunc, color []int, cpu int, src *sourceCache) (*obj.Func, error) {
	blocks := make([]emitted, len(mf.blocks))
	for bi := range mf.blocks {
		blocks[bi] = assignBlock(&mf.blocks[bi], color)
	}
	blocks = mergeTails(blocks, threadJumps(blocks))
	target := threadJumps(blocks)
	reach := reachable(blocks, target)

	order := layout(blocks, target, reach, cpu)

	// Jumps that do not reach are made long (gotol, -mcpu=v4) and the
	// layout redone; the set only grows, so this ends.
	long := map[int]bool{}
	for {
		out, retry, err := placeBlocks(mf, blocks, order, target, cpu, long)
		if err != nil {
			return nil, err
		}
		if !retry {
			return lineInfo(mf, out, src), nil
		}
	}
}

// placeBlocks emits blocks in order and resolves jumps. A jump whose
// ordinal is in long is emitted as gotol (a conditional one as a short
// branch over a fall-through ja to a gotol). It reports retry when it made
// more jumps long.
func placeBlocks(mf *mfunc, blocks []emitted, order, target []int, cpu int, long map[int]bool) ([]outInsn, bool, error) {
	var out []outInsn
	var fixups []fixup
	start := make([]int, len(blocks))
	pendingNote := ""
	add := func(ins asm.Instruction, pos ir.Pos, note string) {
		if pendingNote != "" {
			note = ir.JoinNotes(pendingNote, note)
			pendingNote = ""
		}
		out = append(out, outInsn{ins: ins, pos: pos, note: note})
	}
	jumpTo := func(t int, pos ir.Pos) {
		op := asm.Ja.Op(asm.ImmSource)
		if long[len(fixups)] {
			op = gotol
		}
		fixups = append(fixups, fixup{insn: len(out), block: t})
		add(asm.Instruction{OpCode: op}, pos, "")
	}
	for oi, bi := range order {
		start[bi] = len(out)
		next := -1
		if oi+1 < len(order) {
			next = order[oi+1]
		}
		b := &blocks[bi]
		for _, o := range b.body {
			add(o.ins, o.pos, o.note)
		}
		t := b.term
		if t == nil {
			return nil, false, fmt.Errorf("block %d has no terminator", bi)
		}
		if noFallthrough(b) {
			if t.note != "" {
				pendingNote = ir.JoinNotes(pendingNote, t.note)
			}
			continue
		}
		if t.note != "" {
			pendingNote = ir.JoinNotes(pendingNote, t.note)
		}
		switch t.kind {
		case kExit:
			add(asm.Return(), t.pos, "")
		case kJump:
			if dst := target[t.then]; dst != next {
				jumpTo(dst, t.pos)
			}
		case kBranch:
			then, els := target[t.then], target[t.els]
			if then == els {
				if then != next {
					jumpTo(then, t.pos)
				}
				break
			}
			ins := t.ins
			if then == next {
				if inv, ok := inverted(t, cpu); ok {
					ins, then, els = inv, els, then
				}
			}
			if long[len(fixups)] {
				// if cond goto +1; goto +1; gotol then
				ins.Offset = 1
				add(ins, t.pos, "")
				add(asm.Instruction{OpCode: asm.Ja.Op(asm.ImmSource), Offset: 1}, t.pos, "")
				jumpTo(then, t.pos)
			} else {
				fixups = append(fixups, fixup{insn: len(out), block: then})
				add(ins, t.pos, "")
			}
			if els != next {
				jumpTo(els, t.pos)
			}
		}
	}
	if pendingNote != "" && len(out) > 0 {
		out[len(out)-1].note = ir.JoinNotes(out[len(out)-1].note, pendingNote)
	}

	raw := make([]int, len(out)+1)
	for i, o := range out {
		raw[i+1] = raw[i] + int(o.ins.Width())
	}
	retry := false
	for k, fx := range fixups {
		off := raw[start[fx.block]] - raw[fx.insn] - 1
		switch {
		case out[fx.insn].ins.OpCode == gotol:
			out[fx.insn].ins.Constant = int64(off)
		case fitsInt16(int64(off)):
			out[fx.insn].ins.Offset = int16(off)
		case cpu >= 4:
			long[k], retry = true, true
		default:
			pos := out[fx.insn].pos
			if pos.Line <= 0 {
				pos = mf.pos
			}
			return nil, false, errorAt(pos, "function %q is too large: a jump in it spans %d instructions, and BPF jumps reach at most 32767 below -mcpu=v4; split the function or compile with -mcpu=v4 (gotol)", mf.name, off)
		}
	}
	return out, retry, nil
}

// gotol is the jump with a 32-bit offset (in imm) that -mcpu=v4 adds.
var gotol = asm.OpCode(asm.Jump32Class).SetJumpOp(asm.Ja).SetSource(asm.ImmSource)

// lineInfo turns placed instructions into a function with line info and
// listing notes.
func lineInfo(mf *mfunc, out []outInsn, src *sourceCache) *obj.Func {
	fn := &obj.Func{Name: mf.name, Notes: map[int][]string{}}
	var last ir.Pos
	for i, o := range out {
		fn.Insns = append(fn.Insns, o.ins)
		if o.pos != (ir.Pos{}) && o.pos != last {
			last = o.pos
			fn.Lines = append(fn.Lines, obj.Line{Insn: i, File: o.pos.File, Line: uint32(max(o.pos.Line, 0)),
				Col: uint32(max(o.pos.Col, 0)), Text: src.line(o.pos.File, o.pos.Line)})
		}
		if o.note != "" {
			fn.Notes[i] = append(fn.Notes[i], splitNote(o.note)...)
		}
	}
	if len(fn.Insns) > 0 {
		fn.Insns[0] = fn.Insns[0].WithSymbol(mf.name)
	}
	if len(fn.Notes) == 0 {
		fn.Notes = nil
	}
	return fn
}

func splitNote(n string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(n); i++ {
		if i == len(n) || n[i] == '\n' {
			out = append(out, n[start:i])
			start = i + 1
		}
	}
	return out
}

// inverted returns branch t's instruction testing the opposite condition,
// when cpu has a jump for it: v1 has no jlt/jle, and there a register
// compare swaps its operands instead (`a < b` is `b > a`). A jump over a
// jump in its place would cost an instruction and turn the order the
// verifier walks the two ways (falco's groups_search: 978,401 verified
// instead of 4,075).
func inverted(t *minst, cpu int) (asm.Instruction, bool) {
	ins := t.ins
	inv, ok := t.cond.Invert()
	switch {
	case !ok:
		return ins, false
	case jumpAvailable(inv, cpu):
		ins.OpCode = ins.OpCode.SetJumpOp(jumpOps[inv])
	case ins.OpCode.Source() == asm.RegSource && jumpAvailable(inv.Mirror(), cpu):
		ins.OpCode = ins.OpCode.SetJumpOp(jumpOps[inv.Mirror()])
		ins.Dst, ins.Src = ins.Src, ins.Dst
	default:
		return ins, false
	}
	return ins, true
}

// jumpAvailable reports whether cpu has a jump for condition c.
func jumpAvailable(c ir.Cond, cpu int) bool {
	if cpu >= 2 {
		return true
	}
	switch c {
	case ir.Ult, ir.Ule, ir.Slt, ir.Sle:
		return false
	}
	return true
}

// assignBlock substitutes physical registers and drops moves that became
// self-copies.
func assignBlock(b *mblock, color []int) emitted {
	var e emitted
	pending := ""
	// spilled is set while the last instruction kept is the register
	// allocator's store of a spilled register: a fill of the same word
	// into the same register right after it is a no-op too (spill code
	// around a spilled register's definition and its next use).
	spilled := false
	for i := range b.insns {
		m := &b.insns[i]
		if m.kind == kEntry || m.kind == kNone {
			pending = ir.JoinNotes(pending, m.note)
			continue
		}
		ins := m.ins
		if m.dst >= 0 {
			ins.Dst = asm.Register(color[m.dst])
		}
		if m.src >= 0 {
			ins.Src = asm.Register(color[m.src])
		}
		if m.flags&fMove != 0 && ins.Dst == ins.Src || spilled && m.spill && refills(e.body[len(e.body)-1].ins, ins) {
			pending = ir.JoinNotes(pending, m.note)
			continue
		}
		spilled = m.spill && ins.OpCode.Class().IsStore()
		note := ir.JoinNotes(pending, m.note)
		pending = ""
		switch m.kind {
		case kJump, kBranch, kExit:
			t := *m
			t.ins = ins
			t.note = note
			e.term = &t
			return e
		}
		e.body = append(e.body, outInsn{ins: ins, pos: m.pos, note: note})
	}
	return e
}

// refills reports whether load reads the stack word store just wrote
// into the register store wrote it from.
func refills(store, load asm.Instruction) bool {
	return load.OpCode.Class().IsLoad() && load.OpCode.Mode() == asm.MemMode && load.OpCode.Size() == asm.DWord &&
		store.OpCode.Size() == asm.DWord && store.Dst == asm.R10 && load.Src == asm.R10 &&
		store.Offset == load.Offset && store.Src == load.Dst
}

// noFallthrough reports whether inline asm at the end of b leaves it for
// good (goto or exit as its last instruction, and no jump of the asm to
// the end of the block): the C successor is then not reached from b, and a
// jump to it there would be an instruction the verifier calls unreachable.
func noFallthrough(b *emitted) bool {
	n := len(b.body)
	if n == 0 {
		return false
	}
	last := b.body[n-1].ins.OpCode
	if last.Class().IsJump() && (last.JumpOp() == asm.Exit || last.JumpOp() == asm.Ja) {
		pos := make([]int, n+1) // instruction slots, ld_imm64 taking two
		for i, o := range b.body {
			pos[i+1] = pos[i] + int(o.ins.Width())
		}
		for i, o := range b.body {
			op := o.ins.OpCode
			if !op.Class().IsJump() || op.JumpOp() == asm.Exit || op.JumpOp() == asm.Call {
				continue
			}
			off := int(o.ins.Offset)
			if op.Class() == asm.Jump32Class && op.JumpOp() == asm.Ja {
				off = int(o.ins.Constant) // gotol
			}
			if pos[i]+1+off == pos[n] {
				return false
			}
		}
		return true
	}
	return false
}

func trivial(b *emitted) bool {
	return len(b.body) == 0 && b.term != nil && b.term.kind == kJump
}

// threadJumps maps every block to the block control really reaches when it
// jumps there, skipping blocks that hold nothing but a jump.
func threadJumps(blocks []emitted) []int {
	target := make([]int, len(blocks))
	for bi := range blocks {
		t := bi
		for steps := 0; steps < len(blocks) && trivial(&blocks[t]) && blocks[t].term.then != t; steps++ {
			t = blocks[t].term.then
		}
		target[bi] = t
	}
	return target
}

// successors lists block bi's successors after jump threading (a branch
// with both ways to one block lists it once).
func successors(blocks []emitted, target []int, bi int) []int {
	t := blocks[bi].term
	if t == nil || noFallthrough(&blocks[bi]) {
		return nil
	}
	switch {
	case t.kind == kJump:
		return []int{target[t.then]}
	case t.kind == kBranch && target[t.then] == target[t.els]:
		return []int{target[t.then]}
	case t.kind == kBranch:
		return []int{target[t.then], target[t.els]}
	}
	return nil
}

func reachable(blocks []emitted, target []int) []bool {
	seen := make([]bool, len(blocks))
	if len(blocks) == 0 {
		return seen
	}
	work := []int{0}
	seen[0] = true
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range successors(blocks, target, b) {
			if !seen[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return seen
}

// exitBlock reports whether b is a small block that leaves the function
// (like "r0 = 1; exit"): layout moves such blocks out of the way so that
// the main path falls through from one test to the next, as clang does.
func exitBlock(b *emitted) bool {
	return b.term != nil && b.term.kind == kExit && len(b.body) <= 2
}

// layout orders the reachable blocks greedily: after a block comes its
// jump target, or the successor of its branch that is not a small exit
// block, when that is not placed yet; otherwise the first unplaced block in
// the original order, small exit blocks last. The entry block stays first.
func layout(blocks []emitted, target []int, reach []bool, cpu int) []int {
	placed := make([]bool, len(blocks))
	preds := predCounts(blocks, target, reach)
	waiting := forwardPreds(blocks, target, reach)
	loop := innermostLoops(blocks, target, waiting)
	want := func(bi int) bool { return reach[bi] && !placed[bi] && (bi == 0 || !trivial(&blocks[bi])) }
	var order []int
	next := func() int {
		for pass := 0; pass < 2; pass++ {
			for bi := range blocks {
				if want(bi) && (pass == 1 || !exitBlock(&blocks[bi])) {
					return bi
				}
			}
		}
		return -1
	}
	for cur := 0; cur >= 0; {
		placed[cur] = true
		order = append(order, cur)
		for _, s := range forwardSuccs(blocks, target, waiting, cur) {
			waiting[s].n--
		}
		cand := -1
		if t := blocks[cur].term; t != nil && !noFallthrough(&blocks[cur]) {
			switch t.kind {
			case kJump:
				if n := target[t.then]; want(n) {
					cand = n
				}
			case kBranch:
				th, el := target[t.then], target[t.els]
				switch {
				case want(th) && want(el):
					cand = min(th, el)
					if a, ok := loopArm(loop, cur, th, el); ok {
						cand = a
					} else if exitBlock(&blocks[cand]) && !exitBlock(&blocks[max(th, el)]) {
						cand = max(th, el)
					} else if r, ok := readyArm(blocks, target, waiting, th, el); ok {
						cand = r
					} else if s, ok := triangleArm(blocks, target, preds, th, el); ok {
						cand = s
					} else if copyBlock(&blocks[th]) != copyBlock(&blocks[el]) {
						cand = th
						if copyBlock(&blocks[th]) {
							cand = el
						}
					} else if a, ok := likelyArm(t, th, el); ok && !exitBlock(&blocks[a]) {
						cand = a
					}
					if _, ok := inverted(t, cpu); cand == th && !ok {
						// v1 cannot branch on `r <= C`: with the taken
						// side next, a jump over a jump would go to the
						// other, which the verifier walks first then
						// too. Placing the other next is one jump less.
						cand = el
					}
				case want(el) && !exitBlock(&blocks[el]):
					cand = el
				case want(th) && !exitBlock(&blocks[th]):
					cand = th
				}
			}
		}
		if cand < 0 {
			cand = next()
		}
		cur = cand
	}
	return order
}

// loopArm reports, of a branch's successors a and b, the one that stays in
// the innermost loop holding block cur when the other leaves it: layout
// keeps a loop's blocks together, as clang does, so that an iteration runs
// (and the verifier walks it) without jumps out to a test placed after
// the loop's exits and back.
func loopArm(loop []loopBody, cur, a, b int) (int, bool) {
	l := loop[cur]
	if l == nil || l[a] == l[b] {
		return 0, false
	}
	if l[a] {
		return a, true
	}
	return b, true
}

// A loopBody marks the blocks of one natural loop.
type loopBody []bool

// innermostLoops gives each block the smallest natural loop holding it
// (nil outside loops): for each back edge w records, its target and the
// blocks that reach its source without passing the target.
func innermostLoops(blocks []emitted, target []int, w []predWait) []loopBody {
	preds := make([][]int, len(blocks))
	for bi := range blocks {
		for _, s := range successors(blocks, target, bi) {
			preds[s] = append(preds[s], bi)
		}
	}
	in := make([]loopBody, len(blocks))
	size := make([]int, len(blocks))
	for latch := range w {
		for _, head := range w[latch].back {
			body := make(loopBody, len(blocks))
			body[head] = true
			n, work := 1, []int{latch}
			for len(work) > 0 {
				x := work[len(work)-1]
				work = work[:len(work)-1]
				if body[x] {
					continue
				}
				body[x] = true
				n++
				work = append(work, preds[x]...)
			}
			for x, ok := range body {
				if ok && (in[x] == nil || n < size[x]) {
					in[x], size[x] = body, n
				}
			}
		}
	}
	return in
}

// readyArm reports, of a branch's successors a and b, the one whose
// predecessors are all placed when the other is a tail that still waits
// for some: a block that only runs on to an exit, like the shared failure
// block of an || chain ("if (a || b || c) { log; return ERR; }"). Layout
// places the ready one next, as clang does: the tests fall through one to
// the next and the tail comes after the last of them, so the verifier
// walks the whole chain first and reaches the tail once per distinct
// state. A join that the rest of the function runs through is left to the
// other rules: walking deep past it before the paths that skip to it
// piles up pending states (unrolled loops exceed the verifier's stack).
func readyArm(blocks []emitted, target []int, waiting []predWait, a, b int) (int, bool) {
	ra, rb := waiting[a].n == 0, waiting[b].n == 0
	switch {
	case ra && !rb && exitTail(blocks, target, b):
		return a, true
	case rb && !ra && exitTail(blocks, target, a):
		return b, true
	}
	return 0, false
}

// exitTail reports whether block x runs straight to an exit: through
// jumps, without another branch.
func exitTail(blocks []emitted, target []int, x int) bool {
	for range len(blocks) {
		t := blocks[x].term
		if t == nil || noFallthrough(&blocks[x]) {
			return false
		}
		switch t.kind {
		case kExit:
			return true
		case kJump:
			x = target[t.then]
		default:
			return false
		}
	}
	return false
}

// predWait counts a block's forward predecessors (edges that are not a
// loop's back edge) that layout has not placed yet; back lists the
// successors that block reaches by a back edge.
type predWait struct {
	n    int
	back []int
}

// forwardPreds counts each reachable block's forward predecessors: a depth
// first walk marks an edge to a block still on the walk's stack as a back
// edge, which no layout can place before its target.
func forwardPreds(blocks []emitted, target []int, reach []bool) []predWait {
	w := make([]predWait, len(blocks))
	const (
		unseen = iota
		onStack
		done
	)
	state := make([]int8, len(blocks))
	type frame struct{ b, next int }
	if len(blocks) == 0 || !reach[0] {
		return w
	}
	stack := []frame{{0, 0}}
	state[0] = onStack
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		succ := successors(blocks, target, f.b)
		if f.next == len(succ) {
			state[f.b] = done
			stack = stack[:len(stack)-1]
			continue
		}
		s := succ[f.next]
		f.next++
		switch state[s] {
		case onStack:
			w[f.b].back = append(w[f.b].back, s)
		case unseen:
			w[s].n++
			state[s] = onStack
			stack = append(stack, frame{s, 0})
		default:
			w[s].n++
		}
	}
	return w
}

// forwardSuccs lists block b's successors by forward edges.
func forwardSuccs(blocks []emitted, target []int, w []predWait, b int) []int {
	var out []int
	for _, s := range successors(blocks, target, b) {
		if !slices.Contains(w[b].back, s) {
			out = append(out, s)
		}
	}
	return out
}

// predCounts counts each reachable block's predecessors (after jump
// threading), an edge per successor.
func predCounts(blocks []emitted, target []int, reach []bool) []int {
	n := make([]int, len(blocks))
	for bi := range blocks {
		if reach[bi] {
			for _, s := range successors(blocks, target, bi) {
				n[s]++
			}
		}
	}
	return n
}

// triangleArm reports the arm of an if without else: of a branch's
// successors a and b, the one whose only predecessor is the branch and
// which jumps to the other (the join). Layout places it next, as clang
// does, so that the verifier, which walks a branch's fall-through first,
// walks the arm before the path that skips it: the arm's state (say
// "off += len") is the wider one at the join, and the skipping path's
// narrower state is then pruned there instead of the wider one being
// walked again through the rest of the program.
func triangleArm(blocks []emitted, target, preds []int, a, b int) (int, bool) {
	arm := func(s, j int) bool {
		t := blocks[s].term
		return preds[s] == 1 && preds[j] > 1 && t != nil && t.kind == kJump &&
			!noFallthrough(&blocks[s]) && target[t.then] == j
	}
	// An arm that only sets constants (a clamp: `if (x > 65) x = 64;`)
	// narrows the state: the path that skips it goes first, as clang's
	// select lowering (the constant stored, then the value over it on
	// the fall-through) orders them, and the constant's state is pruned
	// against the range's at the join (bpf-developer-tutorial's
	// 27-replace: its loop nest was verified a second time, 2.2x clang).
	pick := func(s, j int) (int, bool) {
		if constArm(&blocks[s]) {
			return j, true
		}
		return s, true
	}
	switch {
	case arm(a, b) && !arm(b, a):
		return pick(a, b)
	case arm(b, a) && !arm(a, b):
		return pick(b, a)
	}
	return 0, false
}

// constArm reports whether b's body only moves constants into registers.
func constArm(b *emitted) bool {
	if len(b.body) == 0 {
		return false
	}
	for _, o := range b.body {
		op := o.ins.OpCode
		if c := op.Class(); (c != asm.ALUClass && c != asm.ALU64Class) || op.ALUOp() != asm.Mov || op.Source() != asm.ImmSource {
			return false
		}
	}
	return true
}

// likelyArm reports the successor branch t is expected to take (see
// ir.Likely): with no other rule deciding, layout places it next, as
// clang's block placement follows its static branch probabilities (two
// pointers equal unlikely). The verifier then walks
// the likely path first, as it does clang's: in an unrolled path walk
// (inspektor-gadget's get_path_str) the longer arm's wider state is
// recorded first and the skipping arm's is pruned against it.
func likelyArm(t *minst, th, el int) (int, bool) {
	switch t.likely {
	case ir.LikelyThen:
		return th, true
	case ir.LikelyElse:
		return el, true
	}
	return 0, false
}

// copyBlock reports whether b only sets registers (moves of a register or
// a constant) and jumps on: the copies of a φ on an edge, like "return 0"
// inlined into a loop. Layout places the other successor of a branch to it
// next, as clang does (it hoists or sinks such copies, so that the edge is
// a plain jump and the other arm falls through): the verifier then walks
// the arm with code first.
func copyBlock(b *emitted) bool {
	if b.term == nil || b.term.kind != kJump || noFallthrough(b) || len(b.body) == 0 {
		return false
	}
	for _, o := range b.body {
		op := o.ins.OpCode
		if c := op.Class(); (c != asm.ALUClass && c != asm.ALU64Class) || op.ALUOp() != asm.Mov {
			return false
		}
	}
	return true
}
