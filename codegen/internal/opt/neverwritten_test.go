package opt

import (
	"slices"
	"testing"

	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/btf"

	"github.com/bpfcc/bpfcc/ir"
)

// Only a static variable every use of whose address is a load is never
// written: not one stored through, passed to a call, global, or volatile.
func TestNeverWritten(t *testing.T) {
	m := parse(t, `
global hex static section ".data" size 8 align 8 init 0000000000000000 addr@0=.str.0+0
global sel static section ".data" size 8 align 8 init 0000000000000000
global esc static section ".data" size 8 align 8 init 0000000000000000
global pub section ".data" size 8 align 8 init 0000000000000000
global vol static section ".data" size 8 align 8 init 0000000000000000

func prog(r1) section "socket" returns {
b0:
  r2 = sym hex
  r3 = load.u64 [r2]
  r4 = sym sel
  store.u64 [r4], r1
  r5 = sym esc
  r6 = callfunc f(r5)
  r7 = sym pub
  r8 = load.u64 [r7]
  r9 = sym vol
  r10 = load.u64 [r9]
  ret r3
}
`)
	for _, g := range m.Globals {
		if g.Name == "vol" {
			g.BTF = &btf.Volatile{Type: &btf.Int{Name: "long", Size: 8}}
		}
	}
	var got []string
	for _, g := range neverWritten(m) {
		got = append(got, g.Name)
	}
	if !slices.Equal(got, []string{"hex"}) {
		t.Errorf("never written: %v, want [hex]", got)
	}
}

// Inline asm takes from the never-written variables only those its code
// names: one naming no variable leaves hex foldable (beyla's
// bpf_clamp_umax kept its static char *reverse_hex a load of .data), one
// loading named's address does not.
func TestNeverWrittenAsm(t *testing.T) {
	m := parse(t, `
global hex static section ".data" size 8 align 8 init 0000000000000000 addr@0=.str.0+0
global named static section ".data" size 8 align 8 init 0000000000000000

func prog(r1) section "socket" returns {
b0:
  r2 = sym hex
  r3 = load.u64 [r2]
  ret r3
}
`)
	b := m.Funcs[0].Blocks[0]
	clamp := &ir.Instr{Op: ir.OpAsm, Asm: &ir.Asm{Insns: asm.Instructions{asm.JGT.Imm(asm.R1, 3, "x"), asm.Mov.Imm(asm.R1, 3).WithSymbol("x")}}}
	load := &ir.Instr{Op: ir.OpAsm, Asm: &ir.Asm{Insns: asm.Instructions{asm.LoadImm(asm.R2, 0, asm.DWord).WithReference("named")}}}
	b.Instrs = append([]*ir.Instr{clamp, load}, b.Instrs...)
	var got []string
	for _, g := range neverWritten(m) {
		got = append(got, g.Name)
	}
	if !slices.Equal(got, []string{"hex"}) {
		t.Errorf("never written: %v, want [hex]", got)
	}
}
