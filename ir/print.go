package ir

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cilium/ebpf/btf"
)

// String names an ALU operation as the printer shows it.
func (a ALU) String() string {
	names := [...]string{"add", "sub", "mul", "udiv", "umod", "sdiv", "smod", "or", "and", "xor", "lsh", "rsh", "arsh"}
	if int(a) < len(names) {
		return names[a]
	}
	return fmt.Sprintf("alu(%d)", uint8(a))
}

// String names a comparison as the printer shows it.
func (c Cond) String() string {
	names := [...]string{"eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle", "set"}
	if int(c) < len(names) {
		return names[c]
	}
	return fmt.Sprintf("cond(%d)", uint8(c))
}

// String names an atomic operation as the printer shows it.
func (a Atomic) String() string {
	names := [...]string{"add", "or", "and", "xor", "xchg", "cmpxchg"}
	if int(a) < len(names) {
		return names[a]
	}
	return fmt.Sprintf("atomic(%d)", uint8(a))
}

// String names a memory space as the printer shows it ("" for unknown).
func (s Space) String() string {
	names := [...]string{"", "stack", "ctx", "packet", "mapvalue", "global"}
	if int(s) < len(names) {
		return names[s]
	}
	return fmt.Sprintf("space(%d)", uint8(s))
}

// String names a CO-RE relocation kind as libbpf's debug output does.
func (k CoreKind) String() string {
	names := [...]string{"byte_off", "byte_sz", "field_exists", "signed", "lshift_u64", "rshift_u64",
		"local_type_id", "target_type_id", "type_exists", "type_size", "enumval_exists", "enumval_value", "type_matches"}
	if int(k) < len(names) {
		return names[k]
	}
	return fmt.Sprintf("core_kind(%d)", uint32(k))
}

// TypeName names a BTF type the way C spells it ("struct task_struct").
func TypeName(t btf.Type) string {
	if t == nil {
		return "?"
	}
	name := t.TypeName()
	if name == "" {
		name = "(anon)"
	}
	switch t.(type) {
	case *btf.Struct:
		return "struct " + name
	case *btf.Union:
		return "union " + name
	case *btf.Enum:
		return "enum " + name
	}
	return name
}

// String names an operation.
func (o Op) String() string {
	names := [...]string{"invalid", "mov", "alu", "neg", "ext", "bswap", "load", "store", "atomic",
		"frame", "sym", "map", "funcaddr", "call", "callfunc", "goto", "if", "ret", "asm", "core"}
	if int(o) < len(names) {
		return names[o]
	}
	return fmt.Sprintf("op(%d)", uint8(o))
}

// String prints a register as "r5" (and "r0" for the absent register).
func (r Reg) String() string { return fmt.Sprintf("r%d", int(r)) }

// String prints an operand: a register or a decimal immediate.
func (o Operand) String() string {
	if o.IsImm {
		return fmt.Sprintf("%d", o.Imm)
	}
	return o.Reg.String()
}

// String prints the module: header, maps, globals, then every function.
func (m *Module) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "module %q\n", m.File)
	if m.License != "" {
		fmt.Fprintf(&sb, "license %q\n", m.License)
	}
	if m.HasVersion {
		fmt.Fprintf(&sb, "version %d\n", m.Version)
	}
	for _, mp := range m.Maps {
		fmt.Fprintf(&sb, "map %s%s", mp.Name, staticSuffix(mp.Static))
		for _, in := range mp.Inner {
			fmt.Fprintf(&sb, " [%d]=%s", in.Off, in.Sym)
		}
		sb.WriteString("\n")
	}
	if len(m.Output) > 0 {
		names := make([]string, 0, len(m.Output))
		for n := range m.Output {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			tn := "?"
			if t := m.Output[n]; t != nil {
				tn = t.TypeName()
			}
			fmt.Fprintf(&sb, "output %s %s\n", n, tn)
		}
	}
	for _, g := range m.Globals {
		fmt.Fprintf(&sb, "global %s%s section %q size %d align %d", g.Name, staticSuffix(g.Static), g.Section, g.Size, g.Align)
		if len(g.Init) > 0 {
			fmt.Fprintf(&sb, " init %x", g.Init)
		}
		for _, r := range g.Relocs {
			fmt.Fprintf(&sb, " addr@%d=%s%+d", r.Off, r.Sym, r.Addend)
		}
		for _, attr := range []struct {
			on   bool
			name string
		}{{g.Hidden, "hidden"}, {g.Const, "const"}, {g.Extern, "extern"}, {g.Weak, "weak"}} {
			if attr.on {
				sb.WriteString(" " + attr.name)
			}
		}
		sb.WriteString("\n")
	}
	for _, f := range m.Funcs {
		sb.WriteString("\n")
		sb.WriteString(f.String())
	}
	return sb.String()
}

func staticSuffix(static bool) string {
	if static {
		return " static"
	}
	return ""
}

// String prints the function, one line per instruction.
func (f *Func) String() string {
	var sb strings.Builder
	params := make([]string, len(f.Params))
	for i, p := range f.Params {
		params[i] = p.String()
	}
	fmt.Fprintf(&sb, "func %s(%s)", f.Name, strings.Join(params, ", "))
	if f.Section != "" {
		fmt.Fprintf(&sb, " section %q", f.Section)
	}
	for _, attr := range []struct {
		on   bool
		name string
	}{{f.Static, "static"}, {f.Hidden, "hidden"}, {f.Weak, "weak"}, {f.Returns, "returns"}, {f.Inline, "inline"}, {f.NoInline, "noinline"}, {f.Naked, "naked"}} {
		if attr.on {
			sb.WriteString(" " + attr.name)
		}
	}
	sb.WriteString(" {\n")
	for _, s := range f.Slots {
		if s == nil {
			continue
		}
		vol := ""
		if s.Volatile {
			vol = " volatile"
		}
		if s.Scalar != 0 {
			vol += fmt.Sprintf(" scalar %d", s.Scalar)
		}
		fmt.Fprintf(&sb, "  slot s%d %q size %d align %d%s\n", s.ID, s.Name, s.Size, s.Align, vol)
	}
	for _, b := range f.Blocks {
		if b == nil {
			sb.WriteString("<nil block>\n")
			continue
		}
		fmt.Fprintf(&sb, "b%d:\n", b.ID)
		for _, in := range b.Instrs {
			if in == nil {
				sb.WriteString("  <nil>\n")
				continue
			}
			if in.Note != "" {
				for _, l := range strings.Split(in.Note, "\n") {
					fmt.Fprintf(&sb, "  ; %s\n", l)
				}
			}
			sb.WriteString("  ")
			sb.WriteString(in.String())
			sb.WriteString("\n")
		}
	}
	sb.WriteString("}\n")
	return sb.String()
}

func w32Suffix(w bool) string {
	if w {
		return "32"
	}
	return ""
}

func memType(size int, signed bool) string {
	if signed {
		return fmt.Sprintf("s%d", size*8)
	}
	return fmt.Sprintf("u%d", size*8)
}

func addr(a Operand, off int64) string {
	switch {
	case off > 0:
		return fmt.Sprintf("[%s+%d]", a, off)
	case off < 0:
		return fmt.Sprintf("[%s%d]", a, off)
	}
	return fmt.Sprintf("[%s]", a)
}

// address prints a memory access's address: A+Off, or Slot+Off for a
// slot-addressed access.
func (in *Instr) address() string {
	if in.Slot != nil {
		return "[" + symOff(fmt.Sprintf("s%d", in.Slot.ID), in.Off) + "]"
	}
	return addr(in.A, in.Off)
}

func spaceSuffix(s Space) string {
	if s == SpaceUnknown {
		return ""
	}
	return " " + s.String()
}

func blockName(b *Block) string {
	if b == nil {
		return "b?"
	}
	return fmt.Sprintf("b%d", b.ID)
}

func symOff(sym string, off int64) string {
	switch {
	case off > 0:
		return fmt.Sprintf("%s+%d", sym, off)
	case off < 0:
		return fmt.Sprintf("%s%d", sym, off)
	}
	return sym
}

// String prints one instruction without indentation or note.
func (in *Instr) String() string {
	dst := ""
	if in.Dst != 0 {
		dst = in.Dst.String() + " = "
	}
	switch in.Op {
	case OpMov:
		return fmt.Sprintf("%smov %s", dst, in.A)
	case OpALU:
		nsw := ""
		if in.NSW {
			nsw = ".nsw"
		}
		return fmt.Sprintf("%s%s%s%s %s, %s", dst, in.ALU, w32Suffix(in.W32), nsw, in.A, in.B)
	case OpNeg:
		return fmt.Sprintf("%sneg%s %s", dst, w32Suffix(in.W32), in.A)
	case OpExt:
		kind := "zext"
		if in.Signed {
			kind = "sext"
		}
		return fmt.Sprintf("%s%s%d %s", dst, kind, in.Bits, in.A)
	case OpBswap:
		return fmt.Sprintf("%sbswap%d %s", dst, in.Bits, in.A)
	case OpLoad:
		vol := ""
		if in.Volatile {
			vol = " volatile"
		}
		return fmt.Sprintf("%sload.%s %s%s%s", dst, memType(in.Size, in.Signed), in.address(), spaceSuffix(in.Space), vol)
	case OpStore:
		vol := ""
		if in.Volatile {
			vol = " volatile"
		}
		return fmt.Sprintf("store.%s %s, %s%s%s", memType(in.Size, false), in.address(), in.B, spaceSuffix(in.Space), vol)
	case OpAtomic:
		op := "atomic."
		if in.Fetch && in.Atomic != AtomicXchg && in.Atomic != AtomicCmpXchg {
			op += "fetch."
		}
		s := fmt.Sprintf("%s%s%s.%s %s, %s", dst, op, in.Atomic, memType(in.Size, false), in.address(), in.B)
		if in.Atomic == AtomicCmpXchg {
			s += ", " + in.C.String()
		}
		return s + spaceSuffix(in.Space)
	case OpFrameAddr:
		slot := "s?"
		if in.Slot != nil {
			slot = fmt.Sprintf("s%d", in.Slot.ID)
		}
		return fmt.Sprintf("%sframe %s", dst, symOff(slot, in.Off))
	case OpSymAddr:
		return fmt.Sprintf("%ssym %s", dst, symOff(in.Sym, in.Off))
	case OpMapPtr:
		return fmt.Sprintf("%smap %s", dst, in.Sym)
	case OpFuncAddr:
		return fmt.Sprintf("%sfuncaddr %s", dst, in.Sym)
	case OpCall:
		if in.Size > 0 {
			return fmt.Sprintf("%sldpkt.%s(%s)", dst, memType(in.Size, false), argList(in.Args))
		}
		return fmt.Sprintf("%scall %d(%s)", dst, in.Imm, argList(in.Args))
	case OpCallFunc:
		return fmt.Sprintf("%scallfunc %s(%s)", dst, in.Sym, argList(in.Args))
	case OpAsm:
		return fmt.Sprintf("%sasm %s", dst, asmSummary(in))
	case OpJump:
		return "goto " + blockName(in.Then) + in.Unroll.suffix()
	case OpBranch:
		return fmt.Sprintf("if %s %s%s %s goto %s else %s%s%s", in.A, in.Cond, w32Suffix(in.W32), in.B, blockName(in.Then), blockName(in.Else), in.Likely.suffix(), in.Unroll.suffix())
	case OpRet:
		return "ret " + in.A.String()
	case OpCore:
		if in.Core == nil {
			return fmt.Sprintf("%score ? %d", dst, in.Imm)
		}
		return fmt.Sprintf("%score %s %s %q %d", dst, in.Core.Kind, TypeName(in.Core.Type), in.Core.Access, in.Imm)
	}
	return fmt.Sprintf("%s%s", dst, in.Op)
}

func argList(args []Operand) string {
	s := make([]string, len(args))
	for i, a := range args {
		s[i] = a.String()
	}
	return strings.Join(s, ", ")
}

// asmSummary shows an asm statement's size and register binding:
// "3 insns (r1=v4, r2=5) -> r0".
func asmSummary(in *Instr) string {
	if in.Asm == nil {
		return "?"
	}
	binds := make([]string, len(in.Args))
	for i, a := range in.Args {
		r := "?"
		if i < len(in.Asm.In) {
			r = in.Asm.In[i].String()
		}
		binds[i] = r + "=" + a.String()
	}
	s := fmt.Sprintf("%d insns (%s)", len(in.Asm.Insns), strings.Join(binds, ", "))
	if in.Dst != 0 {
		s += " -> " + in.Asm.Out.String()
	}
	return s
}

// suffix is how a back edge's unroll pragma prints after its targets.
func (l Likely) suffix() string {
	switch l {
	case LikelyThen:
		return " !likely"
	case LikelyElse:
		return " !unlikely"
	}
	return ""
}

func (u Unroll) suffix() string {
	switch {
	case u == 0:
		return ""
	case u == UnrollNever:
		return " !nounroll"
	case u == UnrollFull:
		return " !unroll"
	}
	return fmt.Sprintf(" !unroll=%d", int32(u))
}
