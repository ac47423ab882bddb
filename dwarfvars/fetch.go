package dwarfvars

import "fmt"

// SourceKind says where a Fetch takes its initial 64-bit value from.
type SourceKind uint8

const (
	// SrcConst starts from the constant Source.Value.
	SrcConst SourceKind = iota
	// SrcReg starts from the register Source.Reg, the 8-byte pt_regs field at
	// Source.RegsOff: one load from ctx.
	SrcReg
	// SrcAddr starts from the runtime address of static storage whose
	// link-time address is Source.Value. At the probe, ctx->ip is the runtime
	// address of the probed instruction, so the runtime address is
	// ctx->ip + Source.Offset (Source.Offset = link address - site address);
	// this holds for PIE and non-PIE binaries alike.
	SrcAddr
	// SrcCFA starts from the canonical frame address at the site: the
	// register at pt_regs offset Source.RegsOff plus Source.Offset, as given
	// by the CFI rule of .eh_frame/.debug_frame at the site address.
	SrcCFA
	// SrcEntryValue starts from the value register Source.Reg (pt_regs offset
	// Source.RegsOff) held when the containing function was entered. The
	// caller must attach a helper program at Binding.Entry.Addr that saves
	// that register, and read it back here.
	SrcEntryValue
)

// Source is the first value of a Fetch.
type Source struct {
	Kind SourceKind
	// Reg is the DWARF register number for SrcReg, SrcCFA and SrcEntryValue.
	Reg int
	// RegsOff is the byte offset of Reg in struct pt_regs (x86-64).
	RegsOff int
	// Offset is the CFA offset (SrcCFA) or link address minus site address
	// (SrcAddr).
	Offset int64
	// Value is the constant (SrcConst) or the link-time address (SrcAddr).
	Value uint64
}

// Op is one step of a Fetch, applied to the current 64-bit value.
type Op uint8

// Fetch steps. Binary ALU operations take their right operand from Step.Imm,
// or from the value of Step.Arg when Arg is non-nil. All arithmetic is 64-bit
// two's complement, as in BPF ALU64 instructions.
const (
	OpAdd  Op = iota + 1 // v += x
	OpSub                // v -= x
	OpMul                // v *= x
	OpDiv                // v /= x, signed (DWARF DW_OP_div)
	OpMod                // v %= x, unsigned (DWARF DW_OP_mod)
	OpAnd                // v &= x
	OpOr                 // v |= x
	OpXor                // v ^= x
	OpShl                // v <<= x
	OpShr                // v >>= x, logical
	OpShra               // v >>= x, arithmetic
	OpEq                 // v = v == x ? 1 : 0
	OpNe                 // v = v != x
	OpLt                 // v = v < x, signed
	OpLe                 // v = v <= x, signed
	OpGt                 // v = v > x, signed
	OpGe                 // v = v >= x, signed
	OpNeg                // v = -v (unary)
	OpNot                // v = ^v (unary)
	// OpDeref reads Step.Size bytes (1, 2, 4 or 8) of tracee memory at v and
	// zero-extends them: v = *(uN *)v (bpf_probe_read_user).
	OpDeref
)

var opNames = [...]string{
	OpAdd: "add", OpSub: "sub", OpMul: "mul", OpDiv: "div", OpMod: "mod",
	OpAnd: "and", OpOr: "or", OpXor: "xor", OpShl: "shl", OpShr: "shr",
	OpShra: "shra", OpEq: "eq", OpNe: "ne", OpLt: "lt", OpLe: "le",
	OpGt: "gt", OpGe: "ge", OpNeg: "neg", OpNot: "not", OpDeref: "deref",
}

func (o Op) String() string {
	if int(o) < len(opNames) && opNames[o] != "" {
		return opNames[o]
	}
	return fmt.Sprintf("op(%d)", uint8(o))
}

// Unary reports whether o takes no operand.
func (o Op) Unary() bool { return o == OpNeg || o == OpNot || o == OpDeref }

// Step is one operation of a Fetch.
type Step struct {
	Op Op
	// Imm is the constant right operand of a binary ALU op (when Arg is nil).
	Imm int64
	// Arg, when non-nil, computes the right operand of a binary ALU op
	// (e.g. the second register of "rbx + rsi").
	Arg *Fetch
	// Size is the number of bytes an OpDeref reads.
	Size int
}

// Fetch is a small straight-line program computing one 64-bit value at a
// probe site: start from Source, then apply Steps in order. Each step maps to
// one or two BPF instructions (a helper call for OpDeref), so a lowering pass
// translates it mechanically; a Step with Arg needs a second scratch value.
type Fetch struct {
	Start Source
	Steps []Step
}

// IsConst reports whether f is a plain constant and returns it.
func (f *Fetch) IsConst() (uint64, bool) {
	if f != nil && f.Start.Kind == SrcConst && len(f.Steps) == 0 {
		return f.Start.Value, true
	}
	return 0, false
}

// clone returns a deep-enough copy of f whose Steps can be appended to.
func (f *Fetch) clone() *Fetch {
	g := &Fetch{Start: f.Start, Steps: make([]Step, len(f.Steps), len(f.Steps)+2)}
	copy(g.Steps, f.Steps)
	return g
}

// then returns a copy of f with s appended, folding constant arithmetic.
func (f *Fetch) then(s Step) *Fetch {
	g := f.clone()
	if s.Arg != nil {
		if c, ok := s.Arg.IsConst(); ok {
			s.Arg, s.Imm = nil, int64(c)
		}
	}
	if c, ok := g.IsConst(); ok && s.Arg == nil && s.Op != OpDeref {
		g.Start.Value = uint64(applyALU(s.Op, int64(c), s.Imm))
		return g
	}
	if s.Arg == nil && (s.Op == OpAdd || s.Op == OpSub) {
		d := s.Imm
		if s.Op == OpSub {
			d = -d
		}
		if d == 0 {
			return g
		}
		if n := len(g.Steps); n > 0 && g.Steps[n-1].Op == OpAdd && g.Steps[n-1].Arg == nil {
			g.Steps[n-1].Imm += d
			if g.Steps[n-1].Imm == 0 {
				g.Steps = g.Steps[:n-1]
			}
			return g
		}
		g.Steps = append(g.Steps, Step{Op: OpAdd, Imm: d})
		return g
	}
	g.Steps = append(g.Steps, s)
	return g
}

// applyALU evaluates a binary or unary ALU op on constants, with the same
// semantics a BPF program would have.
func applyALU(op Op, a, b int64) int64 {
	switch op {
	case OpAdd:
		return a + b
	case OpSub:
		return a - b
	case OpMul:
		return a * b
	case OpDiv:
		if b == 0 {
			return 0
		}
		return a / b
	case OpMod:
		if b == 0 {
			return a
		}
		return int64(uint64(a) % uint64(b))
	case OpAnd:
		return a & b
	case OpOr:
		return a | b
	case OpXor:
		return a ^ b
	case OpShl:
		return int64(uint64(a) << (uint64(b) & 63))
	case OpShr:
		return int64(uint64(a) >> (uint64(b) & 63))
	case OpShra:
		return a >> (uint64(b) & 63)
	case OpEq:
		return b2i(a == b)
	case OpNe:
		return b2i(a != b)
	case OpLt:
		return b2i(a < b)
	case OpLe:
		return b2i(a <= b)
	case OpGt:
		return b2i(a > b)
	case OpGe:
		return b2i(a >= b)
	case OpNeg:
		return -a
	case OpNot:
		return ^a
	}
	return a
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Eval runs f over concrete register values and memory, the way a BPF
// program would at the probe. It exists for tests and for tools that
// replay a fetch over a recorded state (gdb, a core file). regs maps DWARF
// register numbers to values at the site, entry to values at function
// entry (only needed for SrcEntryValue); ip is the runtime address of the site; mem reads size bytes.
func (f *Fetch) Eval(regs, entry map[int]uint64, ip uint64, mem func(addr uint64, size int) (uint64, error)) (uint64, error) {
	var v uint64
	switch f.Start.Kind {
	case SrcConst:
		v = f.Start.Value
	case SrcReg:
		r, ok := regs[f.Start.Reg]
		if !ok {
			return 0, fmt.Errorf("register %s not available", regName(f.Start.Reg))
		}
		v = r
	case SrcAddr:
		v = ip + uint64(f.Start.Offset)
	case SrcCFA:
		r, ok := regs[f.Start.Reg]
		if !ok {
			return 0, fmt.Errorf("CFA register %s not available", regName(f.Start.Reg))
		}
		v = r + uint64(f.Start.Offset)
	case SrcEntryValue:
		r, ok := entry[f.Start.Reg]
		if !ok {
			return 0, fmt.Errorf("entry value of %s not available", regName(f.Start.Reg))
		}
		v = r
	default:
		return 0, fmt.Errorf("unknown source kind %d", f.Start.Kind)
	}
	for _, s := range f.Steps {
		if s.Op == OpDeref {
			m, err := mem(v, s.Size)
			if err != nil {
				return 0, err
			}
			v = m
			continue
		}
		x := s.Imm
		if s.Arg != nil {
			a, err := s.Arg.Eval(regs, entry, ip, mem)
			if err != nil {
				return 0, err
			}
			x = int64(a)
		}
		v = uint64(applyALU(s.Op, int64(v), x))
	}
	return v, nil
}
