package dwarfvars

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// LocKind says how a Location is read.
type LocKind uint8

// Location kinds.
const (
	// LocOptimizedOut: no value at this address.
	LocOptimizedOut LocKind = iota
	// LocValue: Fetch computes the value itself; its low Size bytes are
	// meaningful (a 4-byte int in rbx is the low half of rbx).
	LocValue
	// LocMemory: Fetch computes an address; the value is the Size bytes of
	// tracee memory there.
	LocMemory
	// LocPieces: the object is split; see Pieces.
	LocPieces
)

func (k LocKind) String() string {
	return [...]string{"optimized out", "value", "memory", "pieces"}[min(int(k), 3)]
}

// Location is where an object's bytes are at one address.
type Location struct {
	Kind   LocKind
	Fetch  *Fetch
	Size   int
	Pieces []Piece
}

// Piece is part of an object split by DW_OP_piece: bytes
// [Offset, Offset+Size) of the object are at Loc (which is never LocPieces).
type Piece struct {
	Offset, Size int
	Loc          Location
}

// UsesEntryValue reports whether reading l needs entry values.
func (l Location) UsesEntryValue() bool {
	return l.walk(func(f *Fetch) bool { return f.Start.Kind == SrcEntryValue })
}

// ReadsMemory reports whether reading l reads tracee memory.
func (l Location) ReadsMemory() bool {
	if l.Kind == LocMemory {
		return true
	}
	return l.walk(func(f *Fetch) bool {
		for _, s := range f.Steps {
			if s.Op == OpDeref {
				return true
			}
		}
		return false
	})
}

// EntryRegs lists the DWARF registers whose entry values l needs.
func (l Location) EntryRegs() []int {
	seen := map[int]bool{}
	var out []int
	l.walk(func(f *Fetch) bool {
		if f.Start.Kind == SrcEntryValue && !seen[f.Start.Reg] {
			seen[f.Start.Reg] = true
			out = append(out, f.Start.Reg)
		}
		return false
	})
	return out
}

// walk calls fn on every Fetch of l (including Step.Arg operands) until
// fn returns true.
func (l Location) walk(fn func(*Fetch) bool) bool {
	var visit func(f *Fetch) bool
	visit = func(f *Fetch) bool {
		if f == nil {
			return false
		}
		if fn(f) {
			return true
		}
		for _, s := range f.Steps {
			if visit(s.Arg) {
				return true
			}
		}
		return false
	}
	if visit(l.Fetch) {
		return true
	}
	for _, p := range l.Pieces {
		if p.Loc.walk(fn) {
			return true
		}
	}
	return false
}

// String describes a source: "rbx", "CFA", "&global", "rdi@entry".
func (s Source) String() string {
	switch s.Kind {
	case SrcConst:
		return fmtConst(s.Value)
	case SrcReg:
		return regName(s.Reg)
	case SrcAddr:
		return fmt.Sprintf("%#x", s.Value)
	case SrcCFA:
		return "CFA"
	case SrcEntryValue:
		return regName(s.Reg) + "@entry"
	}
	return "?"
}

func fmtConst(v uint64) string {
	if int64(v) < 0 && int64(v) > -1<<20 {
		return fmt.Sprint(int64(v))
	}
	if v < 10 {
		return fmt.Sprint(v)
	}
	return fmt.Sprintf("%#x", v)
}

var opSyms = map[Op]string{OpAdd: "+", OpSub: "-", OpMul: "*", OpDiv: "/", OpMod: "%",
	OpAnd: "&", OpOr: "|", OpXor: "^", OpShl: "<<", OpShr: ">>", OpShra: ">>s",
	OpEq: "==", OpNe: "!=", OpLt: "<", OpLe: "<=", OpGt: ">", OpGe: ">="}

// String renders f as a C-like expression: "rbx", "rsp+36",
// "*(u32 *)(CFA-28 = rsp+36)".
func (f *Fetch) String() string {
	if f == nil {
		return "?"
	}
	cur := f.Start.String()
	steps := f.Steps
	atom := true
	if f.Start.Kind == SrcCFA {
		cfa := fmt.Sprintf("%s%+d", regName(f.Start.Reg), f.Start.Offset)
		if len(steps) > 0 && steps[0].Op == OpAdd && steps[0].Arg == nil {
			cur = fmt.Sprintf("CFA%+d = %s%+d", steps[0].Imm, regName(f.Start.Reg), f.Start.Offset+steps[0].Imm)
			steps = steps[1:]
		} else {
			cur = "CFA = " + cfa
		}
		atom = false
	}
	for _, s := range steps {
		switch {
		case s.Op == OpDeref:
			cur = fmt.Sprintf("*(u%d *)(%s)", s.Size*8, cur)
			atom = true
			continue
		case s.Op == OpNeg:
			cur = "-" + paren(cur, atom)
		case s.Op == OpNot:
			cur = "~" + paren(cur, atom)
		case s.Arg != nil:
			cur = fmt.Sprintf("%s %s %s", paren(cur, atom), opSyms[s.Op], paren(s.Arg.String(), len(s.Arg.Steps) == 0))
		case s.Op == OpAdd && s.Imm < 0:
			cur = fmt.Sprintf("%s-%d", paren(cur, atom || len(steps) == 1), -s.Imm)
		case s.Op == OpAdd:
			cur = fmt.Sprintf("%s+%d", paren(cur, atom || len(steps) == 1), s.Imm)
		default:
			cur = fmt.Sprintf("%s %s %s", paren(cur, atom), opSyms[s.Op], fmtConst(uint64(s.Imm)))
		}
		atom = false
	}
	return cur
}

func paren(s string, atom bool) string {
	if atom {
		return s
	}
	return "(" + s + ")"
}

// Describe renders l for a value of type t: "rbx", "*(s32 *)(CFA-28 =
// rsp+36)", "{x: rax, y: <optimized out>}".
func (l Location) Describe(t *Type) string {
	switch l.Kind {
	case LocOptimizedOut:
		return "<optimized out>"
	case LocValue:
		if c, ok := l.Fetch.IsConst(); ok {
			return "const " + fmtConst(c)
		}
		s := l.Fetch.String()
		if n := len(l.Fetch.Steps); n > 0 && l.Fetch.Steps[n-1].Op == OpDeref && t.Scalar() {
			// Name the result type at the final read.
			s = strings.Replace(s, fmt.Sprintf("*(u%d *)", l.Fetch.Steps[n-1].Size*8),
				fmt.Sprintf("*(%s *)", t.Short()), 1)
		}
		return s
	case LocMemory:
		return fmt.Sprintf("*(%s)(%s)", ptrSpelling(t), l.Fetch.String())
	case LocPieces:
		if str, ok := l.constString(t); ok {
			return "const " + strconv.Quote(str)
		}
		var parts []string
		for _, p := range l.Pieces {
			name := fmt.Sprintf("[%d..%d]", p.Offset, p.Offset+p.Size)
			if t != nil {
				for _, m := range t.Members {
					if m.Offset == p.Offset && m.BitSize == 0 {
						name = m.Name
						break
					}
				}
			}
			var pt *Type
			if p.Loc.Kind == LocMemory {
				pt = &Type{Kind: KindBase, Spelling: fmt.Sprintf("u%d", p.Size*8)}
			}
			parts = append(parts, name+": "+p.Loc.Describe(pt))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "?"
}

// constString reads a char array whose bytes are all constants (a string
// DW_AT_const_value) up to its first NUL, as gdb prints it.
func (l Location) constString(t *Type) (string, bool) {
	if t == nil || t.Kind != KindArray || t.Elem == nil || t.Elem.Size != 1 {
		return "", false
	}
	var b []byte
	for _, p := range l.Pieces {
		if p.Loc.Kind != LocValue || p.Offset != len(b) {
			return "", false
		}
		c, ok := p.Loc.Fetch.IsConst()
		if !ok {
			return "", false
		}
		for i := 0; i < p.Size; i++ {
			b = append(b, byte(uint64(c)>>(8*i)))
		}
	}
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b), true
}
