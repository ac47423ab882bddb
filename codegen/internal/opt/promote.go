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
	for _, s := range f.Slots {
		fs, ok := fieldsOf[s]
		if !ok {
			continue
		}
		m := map[field]ir.Reg{}
		for _, x := range fs {
			r := f.NewReg()
			m[x] = r
			// A field read before any store reads 0, not garbage.
			zero = append(zero, &ir.Instr{Op: ir.OpMov, Dst: r, A: ir.Imm(0)})
		}
		regs[s] = m
	}
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
