package opt

import (
	"slices"

	"github.com/bpfcc/bpfcc/ir"
)

// maxPromotedFields bounds the registers one stack object becomes: each is
// a register the allocator must find (or spill, in a whole 8-byte slot).
const maxPromotedFields = 8

// promoteSlots turns a stack object whose address is never taken into
// registers, one per field it is accessed by, as clang's SROA does: `struct
// parse_pkt pkt = {0}` filled by an inlined parser and read after the
// parser's branches join keeps its fields in registers instead of storing
// and reloading them. The IR is not in SSA form, so a store becomes a copy
// into the field's register (zero-extended from the field's width, as
// memory holds it) and a load a copy out of it, with no φ to place.
//
// An object qualifies when every access to it is a plain load or store at
// a constant offset (no address, atomic, volatile or CO-RE access), the
// accesses other than constant stores fall on fields that do not overlap,
// and every constant store covers whole fields (bytes of it no load reads
// are dropped).
func promoteSlots(f *ir.Func, _ *passCtx) {
	type field struct{ off, size int64 }
	type use struct {
		fields map[field]bool
		ok     bool
	}
	uses := map[*ir.Slot]*use{}
	for _, s := range f.Slots {
		if s != nil && !s.Volatile {
			uses[s] = &use{fields: map[field]bool{}, ok: true}
		}
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			u := uses[in.Slot]
			if in.Slot == nil || u == nil || !u.ok {
				continue
			}
			switch {
			case in.Op != ir.OpLoad && in.Op != ir.OpStore, in.Volatile, in.Core != nil:
				u.ok = false
			case in.Op == ir.OpStore && in.B.IsImm:
			default:
				u.fields[field{in.Off, int64(in.Size)}] = true
			}
		}
	}
	// The fields must not overlap, and constant stores must cover whole
	// fields.
	covered := func(fs []field, off, size int64) ([]field, bool) {
		var in []field
		for _, x := range fs {
			switch {
			case x.off >= off+size || x.off+x.size <= off:
			case x.off >= off && x.off+x.size <= off+size:
				in = append(in, x)
			default:
				return nil, false
			}
		}
		return in, true
	}
	fieldsOf := map[*ir.Slot][]field{}
	for s, u := range uses {
		if !u.ok || len(u.fields) > maxPromotedFields {
			continue
		}
		fs := make([]field, 0, len(u.fields))
		for x := range u.fields {
			fs = append(fs, x)
		}
		slices.SortFunc(fs, func(a, b field) int { return int(a.off - b.off) })
		okay := true
		for i := 1; i < len(fs); i++ {
			if fs[i].off < fs[i-1].off+fs[i-1].size {
				okay = false
			}
		}
		if okay {
			fieldsOf[s] = fs
		}
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			fs, ok := fieldsOf[in.Slot]
			if !ok || in.Op != ir.OpStore || !in.B.IsImm {
				continue
			}
			if _, ok := covered(fs, in.Off, int64(in.Size)); !ok {
				delete(fieldsOf, in.Slot)
			}
		}
	}
	if len(fieldsOf) == 0 {
		return
	}
	regs := map[*ir.Slot]map[field]ir.Reg{}
	var zero []*ir.Instr
	undef := undefinedReads(f)
	for _, s := range f.Slots {
		fs, ok := fieldsOf[s]
		if !ok {
			continue
		}
		m := map[field]ir.Reg{}
		for _, x := range fs {
			r := f.NewReg()
			m[x] = r
			if undef.takeValue(s, x.off, x.size, r) {
				continue
			}
			// A field read before any store reads 0, not garbage.
			zero = append(zero, &ir.Instr{Op: ir.OpMov, Dst: r, A: ir.Imm(0)})
		}
		regs[s] = m
	}
	undef.place(f)
	for _, b := range f.Blocks {
		out := b.Instrs[:0:0]
		for _, in := range b.Instrs {
			m, ok := regs[in.Slot]
			if !ok {
				out = append(out, in)
				continue
			}
			switch {
			case in.Op == ir.OpLoad:
				// The register holds the field as memory would: zero
				// extended, so an unsigned load is a copy.
				r := m[field{in.Off, int64(in.Size)}]
				c := &ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: ir.R(r), Pos: in.Pos, Note: in.Note}
				if in.Size < 8 && in.Signed {
					c = &ir.Instr{Op: ir.OpExt, Dst: in.Dst, A: ir.R(r), Bits: in.Size * 8, Signed: true, Pos: in.Pos, Note: in.Note}
				}
				out = append(out, c)
			case !in.B.IsImm:
				// Truncated as the store truncates: the verifier then
				// sees the same bounded value the reload would give, and
				// states that differ only above the field's width meet.
				r := m[field{in.Off, int64(in.Size)}]
				c := &ir.Instr{Op: ir.OpMov, Dst: r, A: in.B, Pos: in.Pos, Note: in.Note}
				if in.Size < 8 {
					c = &ir.Instr{Op: ir.OpExt, Dst: r, A: in.B, Bits: in.Size * 8, Pos: in.Pos, Note: in.Note}
				}
				out = append(out, c)
			default:
				fs, _ := covered(fieldsOf[in.Slot], in.Off, int64(in.Size))
				for _, x := range fs {
					v := uint64(in.B.Imm) >> (8 * (x.off - in.Off))
					if x.size < 8 {
						v &= 1<<(8*x.size) - 1
					}
					out = append(out, &ir.Instr{Op: ir.OpMov, Dst: m[x], A: ir.Imm(int64(v)), Pos: in.Pos, Note: in.Note})
				}
			}
		}
		b.Instrs = out
	}
	f.Blocks[0].Instrs = append(zero, f.Blocks[0].Instrs...)
}

// undefReads finds the promoted fields that clang reads as its one stored
// value where C leaves them uninitialised: a field stored once, from a
// register defined once outside any loop whose definition dominates every
// read. clang's φ(undef, v) is v, so a path on which the field was never
// stored (an out parameter a failed parse leaves unset, read anyway by a
// check that cannot tell) reads v, not 0; the verifier then sees the
// packet pointer it proved on the other path rather than a scalar to
// dereference (xdp-project's tc-basic-classifier). Reading the field
// unstored is undefined in C, so any value is right; v is the one that
// keeps such programs loadable.
type undefReads struct {
	f *ir.Func
	// value is the register stored into each candidate field.
	value map[undefField]ir.Reg
	// copies are the moves to place after each value's definition.
	copies map[ir.Reg][]ir.Reg
	// pre and post number the dominator tree (domIntervals), once needed.
	pre, post []int
}

type undefField struct {
	slot      *ir.Slot
	off, size int64
}

// undefinedReads collects the candidate fields of f's slots.
func undefinedReads(f *ir.Func) *undefReads {
	u := &undefReads{f: f, value: map[undefField]ir.Reg{}, copies: map[ir.Reg][]ir.Reg{}}
	stores := map[undefField]int{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op != ir.OpStore || in.Slot == nil {
				continue
			}
			k := undefField{in.Slot, in.Off, int64(in.Size)}
			stores[k]++
			if in.Size == 8 && !in.B.IsImm {
				u.value[k] = in.B.Reg
			} else {
				stores[k] += 2 // constant or narrow: not a candidate
			}
		}
	}
	for k := range u.value {
		if stores[k] != 1 {
			delete(u.value, k)
		}
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpStore && in.Slot != nil && !in.B.IsImm {
				continue
			}
			for k := range u.value {
				// Any other store to the slot that overlaps: no candidate.
				if in.Op == ir.OpStore && in.Slot == k.slot && int64(in.Off) < k.off+k.size && k.off < int64(in.Off)+int64(in.Size) {
					delete(u.value, k)
				}
			}
		}
	}
	return u
}

// takeValue reports whether field (slot, off, size), promoted to r, gets
// its stored value in place of 0, and records the copy.
func (u *undefReads) takeValue(slot *ir.Slot, off, size int64, r ir.Reg) bool {
	v, ok := u.value[undefField{slot, off, size}]
	if !ok || !u.eligible(slot, off, size, v) {
		return false
	}
	u.copies[v] = append(u.copies[v], r)
	return true
}

// eligible checks v: one definition (or a parameter), outside any loop,
// dominating every load of the field.
func (u *undefReads) eligible(slot *ir.Slot, off, size int64, v ir.Reg) bool {
	f := u.f
	defBlock, defAt, defs := -1, -1, 0
	if slices.Contains(f.Params, v) {
		defBlock, defAt, defs = 0, -1, 1
	}
	for _, b := range f.Blocks {
		for i, in := range b.Instrs {
			if in.Dst == v {
				defBlock, defAt, defs = b.ID, i, defs+1
			}
		}
	}
	if defs != 1 || inCycle(f, defBlock) {
		return false
	}
	if u.pre == nil {
		u.pre, u.post = domIntervals(dominators(f))
	}
	pre, post := u.pre, u.post
	for _, b := range f.Blocks {
		for i, in := range b.Instrs {
			if in.Op != ir.OpLoad || in.Slot != slot || int64(in.Off) != off || int64(in.Size) != size {
				continue
			}
			switch {
			case b.ID == defBlock:
				if i <= defAt {
					return false
				}
			case pre[defBlock] < 0 || pre[b.ID] < 0 || pre[defBlock] > pre[b.ID] || post[b.ID] > post[defBlock]:
				return false
			}
		}
	}
	return true
}

// inCycle reports whether block id can reach itself.
func inCycle(f *ir.Func, id int) bool {
	seen := make([]bool, len(f.Blocks))
	work := []*ir.Block{f.Blocks[id]}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range b.Succs() {
			if s.ID == id {
				return true
			}
			if !seen[s.ID] {
				seen[s.ID] = true
				work = append(work, s)
			}
		}
	}
	return false
}

// place inserts the recorded copies after their values' definitions.
func (u *undefReads) place(f *ir.Func) {
	if len(u.copies) == 0 {
		return
	}
	var entry []*ir.Instr
	for _, b := range f.Blocks {
		out := make([]*ir.Instr, 0, len(b.Instrs))
		for _, in := range b.Instrs {
			out = append(out, in)
			for _, r := range u.copies[in.Dst] {
				if in.Dst != 0 {
					out = append(out, &ir.Instr{Op: ir.OpMov, Dst: r, A: ir.R(in.Dst), Pos: in.Pos})
				}
			}
		}
		b.Instrs = out
	}
	for _, p := range f.Params {
		for _, r := range u.copies[p] {
			entry = append(entry, &ir.Instr{Op: ir.OpMov, Dst: r, A: ir.R(p)})
		}
	}
	f.Blocks[0].Instrs = append(entry, f.Blocks[0].Instrs...)
}
