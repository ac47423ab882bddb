package opt

import (
	"fmt"
	"strings"

	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/btf"

	"github.com/bpfcc/bpfcc/ir"
)

// Inlining limits, in IR instructions.
const (
	inlineSmall = 45 // static functions this small are inlined everywhere
	// inlineOnce: static functions called once are inlined up to this
	// size, about where clang's bonus for the last call to a static
	// function (15,000 at 5 per instruction) stops: out of line, its
	// frame adds to the call chain's (opentelemetry-ebpf-profiler's
	// get_stack_delta, 690 instructions: 560 bytes with a tail call).
	inlineOnce = 3000
	// inlineGlobal: global functions are inlined at their calls up to
	// this size, about where clang's -O2 threshold (225, at 5 per
	// instruction) stops: a global function clang inlines is verified in
	// its caller's context, and alone its pointer arguments are
	// "mem_or_null" (a skb_load_bytes into one is refused).
	inlineGlobal    = 45
	maxInlineRounds = 8 // nesting depth of inlining (guards against recursion)
)

// Inline inlines bpf-to-bpf calls in m: to functions marked Inline always,
// and at optLevel >= 1 to static (or hidden) non-NoInline subprograms that
// are small or called only once, and to small global ones. Static subprograms that are then no longer referenced
// are dropped; programs (Section != "") and global functions are kept.
func Inline(m *ir.Module, optLevel int) error {
	byName := map[string]*ir.Func{}
	for _, f := range m.Funcs {
		byName[f.Name] = f
	}
	// shared[f] maps a callee's slot to the slot of f that earlier inlined
	// copies of that callee use: copies never run at the same time (no
	// recursion) and a callee's locals die when it returns, so they can
	// share the memory, as clang's stack colouring would let them.
	shared := map[*ir.Func]map[*ir.Slot]*ir.Slot{}
	for round := 0; round < maxInlineRounds; round++ {
		calls := callCounts(m)
		inlinable := func(c *ir.Func) bool {
			switch {
			case c == nil || c.NoInline || c.Section != "" || len(c.Blocks) == 0:
				return false
			case c.Inline:
				return true // always_inline wins over __weak, as in clang
			case (c.Static || c.Hidden) && !c.Weak && (len(c.Params) > ir.MaxArgs || c.Variadic):
				// No BPF call can pass it its arguments: inlined at any
				// size, as clang's inlining of a static function called
				// once would (opentelemetry-ebpf-profiler's 6-parameter
				// collect_trace).
				return true
			case c.Weak:
				// Another object's definition may replace this one at
				// link time: clang does not inline a weak function.
				return false
			case optLevel < 1:
				return false
			}
			n := size(c)
			if !c.Static && !c.Hidden && (returnsNonScalar(c) || unsizedPointerParam(c)) {
				// The verifier refuses a call to a global function
				// that returns a pointer ("Global function ... doesn't
				// return scalar"): clang's inlining at a call with a
				// constant argument hides it (ecapture's
				// go_get_argument_by_reg); inlined at any size. So is
				// one taking a pointer to void or to a type of unknown
				// size: "reference type('UNKNOWN ') size cannot be
				// determined" (tracee's murmur32(const void *key, ...)).
				return true
			}
			if !c.Static && !c.Hidden {
				// A global function stays in the object (another object
				// may call it), but calls to it are inlined as clang
				// does: the verifier then checks the body in its
				// caller's context, not alone with unknown arguments.
				return n <= inlineGlobal
			}
			return n <= inlineSmall || (calls[c.Name] == 1 && n <= inlineOnce)
		}
		changed := false
		for _, f := range m.Funcs {
			// Only blocks present at the start of the round (and the
			// continuations split off them) are scanned, so inlined bodies
			// wait for the next round: that bounds recursive expansion.
			work := append([]*ir.Block(nil), f.Blocks...)
			for len(work) > 0 {
				b := work[0]
				work = work[1:]
				for ii, in := range b.Instrs {
					c := byName[in.Sym]
					if in.Op != ir.OpCallFunc || c == f || !inlinable(c) {
						continue
					}
					if shared[f] == nil {
						shared[f] = map[*ir.Slot]*ir.Slot{}
					}
					cont, err := inlineCall(f, b.ID, ii, c, shared[f])
					if err != nil {
						return fmt.Errorf("function %q: inlining %q: %w", f.Name, c.Name, err)
					}
					work = append([]*ir.Block{cont}, work...)
					changed = true
					break
				}
			}
		}
		if !changed {
			break
		}
	}
	dropUnused(m)
	// One check of the result, not one per inlined call: that made
	// inlining quadratic in the size of the function.
	for _, f := range m.Funcs {
		if err := ir.Check(f); err != nil {
			return fmt.Errorf("function %q after inlining: %w", f.Name, err)
		}
	}
	return nil
}

// unsizedPointerParam reports a function whose BTF parameters include a
// pointer to void, to a function or to a type without a size: the
// verifier cannot check a global function's memory argument of that type.
func unsizedPointerParam(f *ir.Func) bool {
	if f.BTF == nil {
		return false
	}
	fp, ok := f.BTF.Type.(*btf.FuncProto)
	if !ok {
		return false
	}
	for i, p := range fp.Params {
		ptr, ok := btf.UnderlyingType(p.Type).(*btf.Pointer)
		if !ok || i < len(f.BTF.ParamTags) && len(f.BTF.ParamTags[i]) > 0 {
			// A tagged argument (__arg_ctx, __arg_nullable...) is one
			// the verifier knows how to check.
			continue
		}
		switch t := btf.UnderlyingType(ptr.Target).(type) {
		case *btf.Void, *btf.FuncProto, *btf.Fwd:
			return true
		case *btf.Struct:
			if t.Size == 0 {
				return true
			}
		}
	}
	return false
}

// returnsNonScalar reports a function whose BTF result is a pointer, a
// struct or a union.
func returnsNonScalar(f *ir.Func) bool {
	if f.BTF == nil {
		return false
	}
	fp, ok := f.BTF.Type.(*btf.FuncProto)
	if !ok || fp.Return == nil {
		return false
	}
	switch btf.UnderlyingType(fp.Return).(type) {
	case *btf.Pointer, *btf.Struct, *btf.Union:
		return true
	}
	return false
}

// size is f's size for inlining decisions, near what clang's cost model
// counts: copies and jumps are free (SSA renames and layout), and the
// byte loads, byte stores and whole-byte shifts that assemble a packed
// struct's wider field count half and nothing, as clang moves the field
// in one instruction (elastic's Varlen.h: a global function setting two
// packed fields, 50 instructions here, was called, and the verifier
// refused its arguments; clang inlines it).
func size(f *ir.Func) int {
	n := 0
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			switch {
			case in.Op == ir.OpMov || in.Op == ir.OpJump:
			case (in.Op == ir.OpLoad || in.Op == ir.OpStore) && in.Size == 1:
				n++ // two of them count as one below
			case in.Op == ir.OpALU && (in.ALU == ir.Lsh || in.ALU == ir.Rsh) && in.B.IsImm && in.B.Imm%8 == 0:
			default:
				n += 2
			}
		}
	}
	return n / 2
}

// callCounts counts call sites per callee.
func callCounts(m *ir.Module) map[string]int {
	n := map[string]int{}
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op == ir.OpCallFunc {
					n[in.Sym]++
				}
			}
		}
	}
	return n
}

// dropUnused removes static subprograms no remaining function refers to,
// and string literals nothing refers to any more: clang keeps none (scx's
// scx_bpf_error passes its format to an empty checker function, and the
// literals alone made a .rodata map clang's object does not have).
func dropUnused(m *ir.Module) {
	for {
		refs := map[string]bool{}
		data := map[string]bool{} // symbols asm loads, defined or not
		for _, g := range m.Globals {
			for _, r := range g.Relocs {
				refs[r.Sym] = true
			}
		}
		for _, f := range m.Funcs {
			for _, b := range f.Blocks {
				for _, in := range b.Instrs {
					if in.Sym != "" && (in.Op == ir.OpCallFunc || in.Op == ir.OpSymAddr || in.Op == ir.OpFuncAddr) {
						refs[in.Sym] = true
					}
					if in.Op == ir.OpAsm {
						for _, ins := range in.Asm.Insns {
							// A call, or a function's address; not the
							// load of a symbol of the same name that the
							// file does not define (lower's asmExtern).
							if r := ins.Reference(); r != "" && (!ins.OpCode.IsDWordLoad() || ins.Src == asm.PseudoFunc) {
								refs[r] = true
							} else if r != "" {
								data[r] = true
							}
						}
					}
				}
			}
		}
		kept := m.Funcs[:0]
		for _, f := range m.Funcs {
			if f.Section != "" || !f.Static || refs[f.Name] {
				kept = append(kept, f)
			}
		}
		if len(kept) == len(m.Funcs) {
			// A new slice: the module's globals are shared with Run's input.
			var globals []*ir.Global
			for _, g := range m.Globals {
				if g == nil || !isStringLiteral(g) || refs[g.Name] || data[g.Name] {
					globals = append(globals, g)
				}
			}
			m.Globals = globals
			return
		}
		m.Funcs = kept
	}
}

// isStringLiteral reports whether g is a string literal lower interned
// (a static .rodata object named ".str.N", a name no C identifier can have).
func isStringLiteral(g *ir.Global) bool {
	return g.Static && g.Section == ".rodata" && strings.HasPrefix(g.Name, ".str.")
}

// inlineCall replaces call f.Blocks[bi].Instrs[ii] with a copy of c's body.
// shared holds the slots of f that earlier copies of callees use, keyed by
// the callee's own slot; they are reused rather than allocated again.
func inlineCall(f *ir.Func, bi, ii int, c *ir.Func, shared map[*ir.Slot]*ir.Slot) (*ir.Block, error) {
	b := f.Blocks[bi]
	call := b.Instrs[ii]
	body := cloneFunc(c)
	regs := map[ir.Reg]ir.Reg{}
	mapReg := func(r ir.Reg) ir.Reg {
		if r == 0 {
			return 0
		}
		n, ok := regs[r]
		if !ok {
			n = f.NewReg()
			regs[r] = n
		}
		return n
	}
	use := map[*ir.Slot]*ir.Slot{}
	// The copy's objects live in a block of their own inside the block
	// the call is made in, so that they share memory with the objects of
	// other inlined calls and C blocks that are never alive at the same
	// time, as clang's stack colouring lets them. Without a known block,
	// copies of one callee share its slots instead.
	scopeOf := inlinedScopes(call.Scope)
	for i, s := range body.Slots {
		if call.Scope != nil {
			s.Scope = scopeOf(s.Scope)
		} else if i < len(c.Slots) {
			if prev, ok := shared[c.Slots[i]]; ok && prev.Size == s.Size && prev.Align == s.Align && prev.Volatile == s.Volatile {
				use[s] = prev
				continue
			}
			shared[c.Slots[i]] = s
		}
		s.ID = len(f.Slots)
		f.Slots = append(f.Slots, s)
	}
	cont := &ir.Block{Instrs: append([]*ir.Instr(nil), b.Instrs[ii+1:]...)}
	for _, cb := range body.Blocks {
		for i, in := range cb.Instrs {
			if r, ok := use[in.Slot]; ok && in.Slot != nil {
				in.Slot = r
			}
			forEachUse(in, func(o *ir.Operand) { o.Reg = mapReg(o.Reg) })
			in.Dst = mapReg(in.Dst)
			if in.Op == ir.OpCallFunc && call.Scope != nil {
				in.Scope = scopeOf(in.Scope)
			}
			if in.Op == ir.OpRet {
				var seq []*ir.Instr
				if call.Dst != 0 && c.Returns {
					seq = append(seq, &ir.Instr{Op: ir.OpMov, Dst: call.Dst, A: in.A, Pos: in.Pos, Note: in.Note})
				}
				seq = append(seq, &ir.Instr{Op: ir.OpJump, Then: cont, Pos: in.Pos})
				cb.Instrs = append(cb.Instrs[:i], seq...)
				break
			}
		}
	}
	head := b.Instrs[:ii:ii]
	for k, p := range c.Params {
		arg := ir.Imm(0)
		if k < len(call.Args) {
			arg = call.Args[k]
		}
		head = append(head, &ir.Instr{Op: ir.OpMov, Dst: mapReg(p), A: arg, Pos: call.Pos})
	}
	head = append(head, &ir.Instr{Op: ir.OpJump, Then: body.Blocks[0], Pos: call.Pos})
	head[ii].Note = ir.JoinNotes(call.Note, head[ii].Note)
	b.Instrs = head
	if call.Dst != 0 && !c.Returns {
		// A value-less callee used as a value: define it as 0.
		cont.Instrs = append([]*ir.Instr{{Op: ir.OpMov, Dst: call.Dst, A: ir.Imm(0), Pos: call.Pos}}, cont.Instrs...)
	}
	blocks := append([]*ir.Block(nil), f.Blocks[:bi+1]...)
	blocks = append(blocks, body.Blocks...)
	blocks = append(blocks, cont)
	blocks = append(blocks, f.Blocks[bi+1:]...)
	f.Blocks = blocks
	renumber(f)
	return cont, nil
}

// inlinedScopes returns the mapping of a callee's blocks to those of one
// inlined copy: fresh scopes whose outermost one (and the callee's
// function-wide objects, scope nil) sit inside the call's block.
func inlinedScopes(callScope *ir.Scope) func(*ir.Scope) *ir.Scope {
	site := &ir.Scope{Parent: callScope}
	copies := map[*ir.Scope]*ir.Scope{}
	var scopeOf func(*ir.Scope) *ir.Scope
	scopeOf = func(s *ir.Scope) *ir.Scope {
		if s == nil {
			return site
		}
		if n, ok := copies[s]; ok {
			return n
		}
		n := &ir.Scope{Parent: scopeOf(s.Parent)}
		copies[s] = n
		return n
	}
	return scopeOf
}
