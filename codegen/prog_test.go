package codegen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc/ir"
	"github.com/cilium/ebpf"
)

const helperKtimeGetNS = 5

// TestLoop sums 1..100 in a bounded loop.
func TestLoop(t *testing.T) {
	x := newFunc("prog", "socket", 1)
	i, sum := x.mov(ir.Imm(1)), x.mov(ir.Imm(0))
	head, body, done := x.f.NewBlock(), x.f.NewBlock(), x.f.NewBlock()
	x.jump(head)
	x.b = head
	x.branch(ir.Ule, false, ir.R(i), ir.Imm(100), body, done)
	x.b = body
	x.add(&ir.Instr{Op: ir.OpALU, ALU: ir.Add, Dst: sum, A: ir.R(sum), B: ir.R(i)})
	x.add(&ir.Instr{Op: ir.OpALU, ALU: ir.Add, Dst: i, A: ir.R(i), B: ir.Imm(1)})
	x.jump(head)
	x.b = done
	x.ret(ir.R(sum))
	for _, o := range allOpts {
		t.Run(fmt.Sprint(o), func(t *testing.T) {
			if got := runModule(t, module(x.f), "prog", o, nil); got != 5050 {
				t.Fatalf("got %d, want 5050", got)
			}
		})
	}
}

// TestSpillAcrossCalls keeps more values alive across helper calls than
// there are callee-saved registers.
func TestSpillAcrossCalls(t *testing.T) {
	x := newFunc("prog", "socket", 1)
	l0 := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpLoad, Dst: l0, A: ir.R(x.param(0)), Off: 0, Size: 4, Space: ir.SpaceCtx})
	var vals []ir.Reg
	want := int64(0)
	for i := 0; i < 12; i++ {
		v := x.alu(ir.Mul, false, ir.R(x.mov(ir.Imm(int64(i)))), ir.R(x.mov(ir.Imm(3))))
		v = x.alu(ir.Add, false, ir.R(v), ir.Imm(1))
		vals = append(vals, v)
		want += int64(i*3 + 1)
		if i%3 == 2 {
			x.call(helperKtimeGetNS)
		}
	}
	x.call(helperKtimeGetNS)
	sum := x.mov(ir.Imm(0))
	for _, v := range vals {
		x.add(&ir.Instr{Op: ir.OpALU, ALU: ir.Add, Dst: sum, A: ir.R(sum), B: ir.R(v)})
	}
	// The context must survive the calls too: add skb->len twice, read
	// before and after the calls, and subtract it once.
	l := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpLoad, Dst: l, A: ir.R(x.param(0)), Off: 0, Size: 4, Space: ir.SpaceCtx})
	x.add(&ir.Instr{Op: ir.OpALU, ALU: ir.Add, Dst: sum, A: ir.R(sum), B: ir.R(l)})
	x.add(&ir.Instr{Op: ir.OpALU, ALU: ir.Add, Dst: sum, A: ir.R(sum), B: ir.R(l0)})
	x.add(&ir.Instr{Op: ir.OpALU, ALU: ir.Sub, Dst: sum, A: ir.R(sum), B: ir.R(l)})
	x.ret(ir.R(sum))
	for _, o := range allOpts {
		t.Run(fmt.Sprint(o), func(t *testing.T) {
			obj := generate(t, module(x.f), o)
			if o.OptLevel == 0 && obj.Funcs[0].StackSize == 0 {
				t.Error("expected spill slots")
			}
			if got := runModule(t, module(x.f), "prog", o, nil); int64(got) != want+50 {
				t.Fatalf("got %d, want %d (skb->len 50)", got, want+50)
			}
		})
	}
}

// TestBPFToBPFCall calls a subprogram with values live across the call,
// both as a real call and inlined.
func TestBPFToBPFCall(t *testing.T) {
	for _, inline := range []bool{false, true} {
		callee := newFunc("muladd", "", 3)
		callee.f.Static = true
		callee.f.NoInline = !inline
		callee.f.Inline = inline
		p := callee.alu(ir.Mul, false, ir.R(callee.param(0)), ir.R(callee.param(1)))
		s := callee.alu(ir.Add, false, ir.R(p), ir.R(callee.param(2)))
		callee.ret(ir.R(s))

		x := newFunc("prog", "socket", 1)
		a, b := x.mov(ir.Imm(6)), x.mov(ir.Imm(7))
		r1 := x.f.NewReg()
		x.add(&ir.Instr{Op: ir.OpCallFunc, Sym: "muladd", Dst: r1, Args: []ir.Operand{ir.R(a), ir.R(b), ir.Imm(3)}})
		r2 := x.f.NewReg()
		x.add(&ir.Instr{Op: ir.OpCallFunc, Sym: "muladd", Dst: r2, Args: []ir.Operand{ir.R(r1), ir.R(a), ir.R(b)}})
		// (6*7+3)*6+7 = 277, plus a and b still live: 290
		t1 := x.alu(ir.Add, false, ir.R(r2), ir.R(a))
		t2 := x.alu(ir.Add, false, ir.R(t1), ir.R(b))
		x.ret(ir.R(t2))
		m := module(x.f, callee.f)
		for _, o := range allOpts {
			t.Run(fmt.Sprintf("inline=%v/%v", inline, o), func(t *testing.T) {
				obj := generate(t, m, o)
				if inline != (len(obj.Funcs) == 1) {
					t.Errorf("inline=%v but %d functions emitted", inline, len(obj.Funcs))
				}
				if got := runModule(t, m, "prog", o, nil); got != 290 {
					t.Fatalf("got %d, want 290", got)
				}
			})
		}
	}
}

// TestAtomics runs every atomic operation on a stack slot.
func TestAtomics(t *testing.T) {
	for _, size := range []int{4, 8} {
		x := newFunc("prog", "socket", 1)
		slot := x.f.NewSlot("v", 8, 8)
		p := x.f.NewReg()
		x.add(&ir.Instr{Op: ir.OpFrameAddr, Dst: p, Slot: slot})
		x.add(&ir.Instr{Op: ir.OpStore, A: ir.R(p), B: ir.Imm(10), Size: 8})
		at := func(op ir.Atomic, fetch bool, b ir.Operand, c ir.Operand) ir.Reg {
			var d ir.Reg
			if fetch {
				d = x.f.NewReg()
			}
			x.add(&ir.Instr{Op: ir.OpAtomic, Atomic: op, Fetch: fetch, Dst: d, A: ir.R(p), B: b, C: c, Size: size})
			return d
		}
		load := func() ir.Operand {
			d := x.f.NewReg()
			x.add(&ir.Instr{Op: ir.OpLoad, Dst: d, A: ir.R(p), Size: size})
			return ir.R(d)
		}
		at(ir.AtomicAdd, false, ir.R(x.mov(ir.Imm(5))), ir.Operand{})
		x.check(load(), 15, 1)
		x.check(ir.R(at(ir.AtomicAdd, true, ir.Imm(3), ir.Operand{})), 15, 2)
		x.check(ir.R(at(ir.AtomicXchg, true, ir.Imm(100), ir.Operand{})), 18, 3)
		x.check(ir.R(at(ir.AtomicCmpXchg, true, ir.Imm(7), ir.Imm(100))), 100, 4)
		x.check(ir.R(at(ir.AtomicCmpXchg, true, ir.Imm(9), ir.Imm(1))), 7, 5)
		x.check(load(), 7, 6)
		at(ir.AtomicOr, false, ir.Imm(0x30), ir.Operand{})
		x.check(ir.R(at(ir.AtomicAnd, true, ir.Imm(0x31), ir.Operand{})), 0x37, 7)
		x.check(ir.R(at(ir.AtomicXor, true, ir.Imm(0xff), ir.Operand{})), 0x31, 8)
		x.check(ir.R(at(ir.AtomicOr, true, ir.Imm(0x100), ir.Operand{})), 0xce, 9)
		at(ir.AtomicAnd, false, ir.Imm(0xf0f), ir.Operand{})
		at(ir.AtomicXor, false, ir.Imm(1), ir.Operand{})
		x.check(load(), 0x10f, 10)
		x.ret(ir.Imm(0))
		for _, o := range []Options{{CPU: 3}, {CPU: 3, OptLevel: 2}, {CPU: 4, OptLevel: 2}} {
			t.Run(fmt.Sprintf("size%d/%v", size, o), func(t *testing.T) {
				if got := runModule(t, module(x.f), "prog", o, nil); got != 0 {
					t.Fatalf("check %d failed\n%s", got, Listing(generate(t, module(x.f), o)))
				}
			})
		}
	}
}

// TestMapLookup looks a key up in an array map, null-checks the result,
// increments the value atomically and returns it.
func TestMapLookup(t *testing.T) {
	m, err := ebpf.NewMap(&ebpf.MapSpec{Type: ebpf.Array, KeySize: 4, ValueSize: 8, MaxEntries: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Put(uint32(2), uint64(41)); err != nil {
		t.Fatal(err)
	}
	x := newFunc("prog", "socket", 1)
	key := x.f.NewSlot("key", 4, 4)
	kp := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpFrameAddr, Dst: kp, Slot: key})
	x.add(&ir.Instr{Op: ir.OpStore, A: ir.R(kp), B: ir.Imm(2), Size: 4, Space: ir.SpaceStack})
	mp := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpMapPtr, Dst: mp, Sym: "counts"})
	v := x.call(1, ir.R(mp), ir.R(kp))
	found, missing := x.f.NewBlock(), x.f.NewBlock()
	x.branch(ir.Eq, false, ir.R(v), ir.Imm(0), missing, found)
	missing.Instrs = []*ir.Instr{{Op: ir.OpRet, A: ir.Imm(1000)}}
	x.b = found
	x.add(&ir.Instr{Op: ir.OpAtomic, Atomic: ir.AtomicAdd, A: ir.R(v), B: ir.Imm(1), Size: 8, Space: ir.SpaceMapValue})
	r := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpLoad, Dst: r, A: ir.R(v), Size: 8, Space: ir.SpaceMapValue})
	x.ret(ir.R(r))
	for i, o := range allOpts {
		t.Run(fmt.Sprint(o), func(t *testing.T) {
			if got := runModule(t, module(x.f), "prog", o, map[string]*ebpf.Map{"counts": m}); got != uint32(42+i) {
				t.Fatalf("got %d, want %d", got, 42+i)
			}
		})
	}
}

// TestGlobalData reads and writes a global through its address.
func TestGlobalData(t *testing.T) {
	m, err := ebpf.NewMap(&ebpf.MapSpec{Type: ebpf.Array, KeySize: 4, ValueSize: 16, MaxEntries: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Put(uint32(0), []byte{0, 0, 0, 0, 0, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	x := newFunc("prog", "socket", 1)
	g := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpSymAddr, Dst: g, Sym: "data", Off: 8})
	v := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpLoad, Dst: v, A: ir.R(g), Size: 4, Signed: true, Space: ir.SpaceGlobal})
	x.check(ir.R(v), -2, 1)
	v16 := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpLoad, Dst: v16, A: ir.R(g), Off: 1, Size: 2, Signed: true})
	x.check(ir.R(v16), -1, 2)
	v8 := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpLoad, Dst: v8, A: ir.R(g), Size: 1})
	x.check(ir.R(v8), 0xfe, 3)
	x.add(&ir.Instr{Op: ir.OpStore, A: ir.R(g), Off: -8, B: ir.Imm(-3), Size: 8})
	v64 := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpLoad, Dst: v64, A: ir.R(g), Off: -8, Size: 8})
	x.check(ir.R(v64), -3, 4)
	x.add(&ir.Instr{Op: ir.OpStore, A: ir.R(g), Off: -8, B: ir.Imm(0x1122334455), Size: 8})
	x.add(&ir.Instr{Op: ir.OpStore, A: ir.R(g), Off: -8, B: ir.Imm(0x1ff), Size: 1})
	x.add(&ir.Instr{Op: ir.OpLoad, Dst: v64, A: ir.R(g), Off: -8, Size: 8})
	x.check(ir.R(v64), 0x11223344ff, 5)
	x.ret(ir.Imm(0))
	for _, o := range allOpts {
		t.Run(fmt.Sprint(o), func(t *testing.T) {
			if got := runModule(t, module(x.f), "prog", o, map[string]*ebpf.Map{"data": m}); got != 0 {
				t.Fatalf("check %d failed", got)
			}
		})
	}
}

func TestStackLimit(t *testing.T) {
	x := newFunc("foo", "socket", 1)
	s := x.f.NewSlot("big", 560, 8)
	p := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpFrameAddr, Dst: p, Slot: s})
	x.ret(ir.Imm(0))
	_, err := Generate(module(x.f), Options{})
	want := `function "foo": stack frame of 560 bytes exceeds BPF's 512-byte limit`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

func TestFrameLayout(t *testing.T) {
	f := &ir.Func{}
	a := f.NewSlot("a", 4, 4)
	b := f.NewSlot("b", 16, 4)
	c := f.NewSlot("c", 1, 1)
	useSlots(f)
	offs, size := layoutSlots(f)
	if offs[a] != -4 || offs[b] != -24 || offs[c] != -25 || size != 32 {
		t.Fatalf("offsets a=%d b=%d c=%d size=%d", offs[a], offs[b], offs[c], size)
	}
}

// Objects of disjoint C blocks share memory; an enclosing block's object
// and objects of other functions' scopes do not.
func TestFrameLayoutScopes(t *testing.T) {
	f := &ir.Func{}
	body := &ir.Scope{}
	left, right := &ir.Scope{Parent: body}, &ir.Scope{Parent: body}
	inner := &ir.Scope{Parent: right}
	slot := func(name string, size int, sc *ir.Scope) *ir.Slot {
		s := f.NewSlot(name, size, 8)
		s.Scope = sc
		return s
	}
	outer := slot("outer", 8, body)
	l := slot("l", 200, left)
	r := slot("r", 100, right)
	in := slot("in", 16, inner)
	other := slot("other", 8, &ir.Scope{}) // an inlined callee's block
	whole := slot("whole", 8, nil)
	f.NewSlot("unused", 64, 8) // optimised away: takes no memory
	useSlots(f, f.Slots[:len(f.Slots)-1]...)
	offs, size := layoutSlots(f)
	want := map[*ir.Slot]int{outer: -8, l: -208, r: -112, in: -128, other: -216, whole: -224}
	for s, o := range want {
		if offs[s] != o {
			t.Errorf("%s at %d, want %d", s.Name, offs[s], o)
		}
	}
	if size != 224 {
		t.Errorf("frame %d bytes, want 224", size)
	}
}

// useSlots makes f's entry block take the address of the given slots (all
// of f's when none are given) and pass them all to one helper call, so
// that their accesses overlap: layoutSlots places only referenced slots,
// and lets objects whose accesses never meet share memory.
func useSlots(f *ir.Func, slots ...*ir.Slot) {
	if len(slots) == 0 {
		slots = f.Slots
	}
	b := f.NewBlock()
	call := &ir.Instr{Op: ir.OpCall, Imm: 1}
	for _, s := range slots {
		r := f.NewReg()
		b.Instrs = append(b.Instrs, &ir.Instr{Op: ir.OpFrameAddr, Dst: r, Slot: s})
		call.Args = append(call.Args, ir.R(r))
	}
	b.Instrs = append(b.Instrs, call, &ir.Instr{Op: ir.OpRet, A: ir.Imm(0)})
}
