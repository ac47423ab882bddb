package codegen

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/bpfcc/bpfcc/bpfasm"
	"github.com/bpfcc/bpfcc/codegen/obj"
	"github.com/cilium/ebpf/asm"
)

// Listing renders o as readable text: per function a header, then every
// instruction in clang/llvm-objdump-like syntax at its raw instruction
// offset, preceded by "; file:line: source" when the source line changes
// and by "; note" lines. The output depends only on o.
func Listing(o *obj.Object) string {
	var sb strings.Builder
	for i, f := range o.Funcs {
		if i > 0 {
			sb.WriteString("\n")
		}
		writeFunc(&sb, f)
	}
	return sb.String()
}

func writeFunc(sb *strings.Builder, f *obj.Func) {
	fmt.Fprintf(sb, "%s: (section %s, %d insns, stack %d)\n", f.Name, f.Section, f.Insns.Size()/asm.InstructionSize, f.StackSize)
	li := 0
	raw := 0
	var lastFile string
	var lastLine uint32
	for i, ins := range f.Insns {
		for li < len(f.Lines) && f.Lines[li].Insn <= i {
			l := f.Lines[li]
			if l.Insn == i && (l.File != lastFile || l.Line != lastLine) {
				lastFile, lastLine = l.File, l.Line
				text := strings.TrimSpace(l.Text)
				fmt.Fprintf(sb, "; %s:%d:", filepath.Base(l.File), l.Line)
				if text != "" {
					sb.WriteString(" " + text)
				}
				sb.WriteString("\n")
			}
			li++
		}
		for _, n := range f.Notes[i] {
			fmt.Fprintf(sb, "; %s\n", n)
		}
		fmt.Fprintf(sb, "%4d: %s\n", raw, FormatInsn(ins, raw))
		if r := obj.CoreOf(ins); r != nil {
			fmt.Fprintf(sb, "      ; %s\n", r)
		}
		raw += int(ins.Width())
	}
}

func regName(r asm.Register, w32 bool) string {
	if w32 {
		return fmt.Sprintf("w%d", r)
	}
	return fmt.Sprintf("r%d", r)
}

var aluSyms = map[asm.ALUOp]string{
	asm.Add: "+=", asm.Sub: "-=", asm.Mul: "*=", asm.Div: "/=", asm.Mod: "%=", asm.Or: "|=",
	asm.And: "&=", asm.LSh: "<<=", asm.RSh: ">>=", asm.Xor: "^=", asm.ArSh: "s>>=", asm.SDiv: "s/=", asm.SMod: "s%=",
}

var jumpSyms = map[asm.JumpOp]string{
	asm.JEq: "==", asm.JNE: "!=", asm.JGT: ">", asm.JGE: ">=", asm.JLT: "<", asm.JLE: "<=",
	asm.JSGT: "s>", asm.JSGE: "s>=", asm.JSLT: "s<", asm.JSLE: "s<=", asm.JSet: "&",
}

var sizeNames = map[asm.Size]string{asm.Byte: "u8", asm.Half: "u16", asm.Word: "u32", asm.DWord: "u64"}

func memRef(size asm.Size, base asm.Register, off int16, signed bool) string {
	t := sizeNames[size]
	if signed {
		t = "s" + t[1:]
	}
	sign := "+"
	o := int(off)
	if o < 0 {
		sign, o = "-", -o
	}
	return fmt.Sprintf("*(%s *)(%s %s %d)", t, regName(base, false), sign, o)
}

// FormatInsn renders one instruction at raw offset pc in clang-like syntax.
func FormatInsn(ins asm.Instruction, pc int) string {
	op := ins.OpCode
	switch cls := op.Class(); {
	case ins.IsLoadFromMap():
		return fmt.Sprintf("%s = map[%s] ll", ins.Dst, ins.Reference())
	case op == asm.LoadImmOp(asm.DWord):
		if ref := ins.Reference(); ref != "" {
			if ins.Constant != 0 {
				return fmt.Sprintf("%s = %s + %d ll", ins.Dst, ref, ins.Constant)
			}
			return fmt.Sprintf("%s = %s ll", ins.Dst, ref)
		}
		return fmt.Sprintf("%s = %d ll", ins.Dst, ins.Constant)
	case cls == asm.LdXClass:
		return fmt.Sprintf("%s = %s", ins.Dst, memRef(op.Size(), ins.Src, ins.Offset, op.Mode() == asm.MemSXMode))
	case cls == asm.LdClass && op.Mode() == asm.AbsMode:
		// Legacy packet loads, written in inline asm.
		return fmt.Sprintf("r0 = *(u%d *)skb[%d]", op.Size().Sizeof()*8, ins.Constant)
	case cls == asm.LdClass && op.Mode() == asm.IndMode:
		return fmt.Sprintf("r0 = *(u%d *)skb[%s + %d]", op.Size().Sizeof()*8, ins.Src, ins.Constant)
	case cls == asm.StClass:
		return fmt.Sprintf("%s = %d", memRef(op.Size(), ins.Dst, ins.Offset, false), ins.Constant)
	case cls == asm.StXClass && op.Mode() == asm.AtomicMode:
		return formatAtomic(ins)
	case cls == asm.StXClass:
		return fmt.Sprintf("%s = %s", memRef(op.Size(), ins.Dst, ins.Offset, false), regName(ins.Src, false))
	case cls.IsALU():
		return formatALU(ins)
	case cls.IsJump():
		return formatJump(ins, pc)
	}
	return fmt.Sprintf("%v", ins)
}

func formatALU(ins asm.Instruction) string {
	op := ins.OpCode
	w := op.Class() == asm.ALUClass
	dst := regName(ins.Dst, w)
	src := fmt.Sprint(ins.Constant)
	if op.Source() == asm.RegSource {
		src = regName(ins.Src, w)
	}
	switch a := op.ALUOp(); a {
	case asm.Mov:
		if bpfasm.IsAddrSpaceCast(ins) {
			return fmt.Sprintf("%s = addr_space_cast(%s, %d, %d)", dst, src, ins.Constant>>16, ins.Constant&0xffff)
		}
		return fmt.Sprintf("%s = %s", dst, src)
	case asm.MovSX8, asm.MovSX16, asm.MovSX32:
		bits := map[asm.ALUOp]int{asm.MovSX8: 8, asm.MovSX16: 16, asm.MovSX32: 32}[a]
		return fmt.Sprintf("%s = (s%d)%s", dst, bits, regName(ins.Src, bits == 32 || w))
	case asm.Neg:
		return fmt.Sprintf("%s = -%s", dst, dst)
	case asm.Swap:
		switch {
		case op.Class() == asm.ALU64Class:
			return fmt.Sprintf("%s = bswap%d %s", ins.Dst, ins.Constant, ins.Dst)
		case op.Endianness() == asm.BE:
			return fmt.Sprintf("%s = be%d %s", ins.Dst, ins.Constant, ins.Dst)
		}
		return fmt.Sprintf("%s = le%d %s", ins.Dst, ins.Constant, ins.Dst)
	default:
		if s, ok := aluSyms[a]; ok {
			return fmt.Sprintf("%s %s %s", dst, s, src)
		}
	}
	return fmt.Sprintf("%v", ins)
}

func formatJump(ins asm.Instruction, pc int) string {
	op := ins.OpCode
	target := func(off int) string {
		sign := "+"
		if off < 0 {
			sign = ""
		}
		return fmt.Sprintf("goto %s%d <%d>", sign, off, pc+1+off)
	}
	switch j := op.JumpOp(); j {
	case asm.Exit:
		return "exit"
	case asm.Call:
		switch {
		case op.Source() == asm.RegSource:
			return "callx " + ins.Dst.String()
		case ins.Src == asm.PseudoCall && ins.Reference() != "":
			return "call " + ins.Reference()
		case ins.Src == asm.PseudoCall:
			return fmt.Sprintf("call pc%+d", ins.Constant)
		}
		return fmt.Sprintf("call %d", ins.Constant)
	case asm.JCOND:
		return "may_" + target(int(ins.Offset))
	case asm.Ja:
		if op.Class() == asm.Jump32Class {
			return "gotol " + target(int(ins.Constant))[5:]
		}
		return target(int(ins.Offset))
	default:
		w := op.Class() == asm.Jump32Class
		src := fmt.Sprint(ins.Constant)
		if op.Source() == asm.RegSource {
			src = regName(ins.Src, w)
		}
		s, ok := jumpSyms[j]
		if !ok {
			return fmt.Sprintf("%v", ins)
		}
		return fmt.Sprintf("if %s %s %s %s", regName(ins.Dst, w), s, src, target(int(ins.Offset)))
	}
}

func formatAtomic(ins asm.Instruction) string {
	op := ins.OpCode
	w := op.Size() != asm.DWord
	mem := memRef(op.Size(), ins.Dst, ins.Offset, false)
	src := regName(ins.Src, w)
	switch a := op.AtomicOp(); a {
	case asm.Xchg:
		return fmt.Sprintf("%s = xchg(%s, %s)", src, mem, src)
	case asm.CmpXchg:
		return fmt.Sprintf("%s = cmpxchg(%s, %s, %s)", regName(asm.R0, w), mem, regName(asm.R0, w), src)
	case asm.AddAtomic, asm.OrAtomic, asm.AndAtomic, asm.XorAtomic:
		return fmt.Sprintf("lock %s %s %s", mem, aluSyms[asm.ALUOp(a>>8)], src)
	case asm.FetchAdd, asm.FetchOr, asm.FetchAnd, asm.FetchXor:
		name := map[asm.AtomicOp]string{asm.FetchAdd: "add", asm.FetchOr: "or", asm.FetchAnd: "and", asm.FetchXor: "xor"}[a]
		return fmt.Sprintf("%s = atomic_fetch_%s(%s, %s)", src, name, mem, src)
	}
	return fmt.Sprintf("%v", ins)
}
