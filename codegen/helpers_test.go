package codegen

import (
	"errors"
	"testing"

	"github.com/bpfcc/bpfcc/codegen/obj"
	"github.com/bpfcc/bpfcc/ir"
	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
)

// fb builds an ir.Func one block at a time.
type fb struct {
	f *ir.Func
	b *ir.Block
}

func newFunc(name, section string, params int) *fb {
	f := &ir.Func{Name: name, Section: section, Returns: true}
	for i := 0; i < params; i++ {
		f.Params = append(f.Params, f.NewReg())
	}
	x := &fb{f: f}
	x.b = f.NewBlock()
	return x
}

func (x *fb) param(i int) ir.Reg { return x.f.Params[i] }

func (x *fb) add(in *ir.Instr) *ir.Instr {
	x.b.Instrs = append(x.b.Instrs, in)
	return in
}

func (x *fb) mov(a ir.Operand) ir.Reg {
	d := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpMov, Dst: d, A: a})
	return d
}

func (x *fb) alu(op ir.ALU, w32 bool, a, b ir.Operand) ir.Reg {
	d := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpALU, ALU: op, W32: w32, Dst: d, A: a, B: b})
	return d
}

func (x *fb) call(helper int64, args ...ir.Operand) ir.Reg {
	d := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpCall, Dst: d, Imm: helper, Args: args})
	return d
}

func (x *fb) ret(a ir.Operand) { x.add(&ir.Instr{Op: ir.OpRet, A: a}) }

func (x *fb) jump(t *ir.Block) { x.add(&ir.Instr{Op: ir.OpJump, Then: t}) }

func (x *fb) branch(c ir.Cond, w32 bool, a, b ir.Operand, then, els *ir.Block) {
	x.add(&ir.Instr{Op: ir.OpBranch, Cond: c, W32: w32, A: a, B: b, Then: then, Else: els})
}

// check appends "if got != want return code" and continues in a new block.
func (x *fb) check(got ir.Operand, want int64, code int64) {
	fail, next := x.f.NewBlock(), x.f.NewBlock()
	w := x.mov(ir.Imm(want))
	x.branch(ir.Ne, false, got, ir.R(w), fail, next)
	fail.Instrs = []*ir.Instr{{Op: ir.OpRet, A: ir.Imm(code)}}
	x.b = next
}

// generate compiles m and checks the IR invariants of the result.
func generate(t *testing.T, m *ir.Module, opts Options) *obj.Object {
	t.Helper()
	o, err := Generate(m, opts)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	return o
}

// program links the named program with every .text function of o.
func program(t *testing.T, o *obj.Object, name string, maps map[string]*ebpf.Map) asm.Instructions {
	t.Helper()
	var insns asm.Instructions
	for _, f := range o.Funcs {
		if f.Name == name {
			insns = append(insns, f.Insns...)
		}
	}
	if len(insns) == 0 {
		t.Fatalf("no program %q", name)
	}
	// Append the subprograms the program reaches, as a linker would.
	linked := map[string]bool{name: true}
	for changed := true; changed; {
		changed = false
		for _, ref := range insns.FunctionReferences() {
			for _, f := range o.Funcs {
				if f.Name == ref && !linked[ref] {
					linked[ref] = true
					insns = append(insns, f.Insns...)
					changed = true
				}
			}
		}
	}
	insns = append(asm.Instructions(nil), insns...)
	for i := range insns {
		ref := insns[i].Reference()
		if ref == "" {
			continue
		}
		if m, ok := maps[ref]; ok {
			if insns[i].Src != asm.PseudoMapFD {
				// Global data: point into the map value at Constant.
				insns[i].Src = asm.PseudoMapValue
				insns[i].Constant <<= 32
			}
			if err := insns[i].AssociateMap(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	return insns
}

// load loads instructions as a program of type typ.
func load(t *testing.T, typ ebpf.ProgramType, insns asm.Instructions) *ebpf.Program {
	t.Helper()
	p, err := ebpf.NewProgramWithOptions(&ebpf.ProgramSpec{Type: typ, Instructions: insns, License: "GPL"},
		ebpf.ProgramOptions{LogSizeStart: 1 << 20})
	if err != nil {
		var ve *ebpf.VerifierError
		if errors.As(err, &ve) {
			t.Fatalf("load: %+v\nprogram:\n%v", ve, insns)
		}
		t.Fatalf("load: %v\nprogram:\n%v", err, insns)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// runModule compiles m, loads program name as a socket filter and runs it.
func runModule(t *testing.T, m *ir.Module, name string, opts Options, maps map[string]*ebpf.Map) uint32 {
	t.Helper()
	o := generate(t, m, opts)
	p := load(t, ebpf.SocketFilter, program(t, o, name, maps))
	ret, _, err := p.Test(make([]byte, 64))
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return ret
}

func module(fs ...*ir.Func) *ir.Module { return &ir.Module{File: "test.c", License: "GPL", Funcs: fs} }

// allOpts are the option sets most tests run under.
var allOpts = []Options{
	{CPU: 1, OptLevel: 0}, {CPU: 2, OptLevel: 1}, {CPU: 3, OptLevel: 0}, {CPU: 3, OptLevel: 2}, {CPU: 4, OptLevel: 0}, {CPU: 4, OptLevel: 2},
}
