package ir

import (
	"errors"
	"fmt"
)

// MaxArgs is the number of arguments a BPF call can pass in registers.
const MaxArgs = 5

// Check verifies the structural invariants of f: every block ends in exactly
// one terminator and has none before it, branch targets belong to f, block
// IDs are their indices, registers are below NextReg, sizes and bit widths are
// valid, calls pass at most MaxArgs arguments, slots belong to f and params
// are distinct. It returns all problems found, joined.
func Check(f *Func) error {
	if f == nil {
		return errors.New("nil function")
	}
	c := checker{f: f, blocks: map[*Block]bool{}, slots: map[*Slot]bool{}}
	c.run()
	if len(c.errs) == 0 {
		return nil
	}
	return fmt.Errorf("function %q: %w", f.Name, errors.Join(c.errs...))
}

type checker struct {
	f      *Func
	blocks map[*Block]bool
	slots  map[*Slot]bool
	errs   []error
}

func (c *checker) errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf(format, args...))
}

func (c *checker) run() {
	f := c.f
	if len(f.Blocks) == 0 {
		c.errorf("no blocks")
	}
	for i, b := range f.Blocks {
		if b == nil {
			c.errorf("block %d is nil", i)
			continue
		}
		if b.ID != i {
			c.errorf("block at index %d has ID %d", i, b.ID)
		}
		c.blocks[b] = true
	}
	for i, s := range f.Slots {
		if s == nil {
			c.errorf("slot %d is nil", i)
			continue
		}
		if s.Size <= 0 {
			c.errorf("slot s%d %q: size %d", s.ID, s.Name, s.Size)
		}
		if s.Align <= 0 || s.Align&(s.Align-1) != 0 {
			c.errorf("slot s%d %q: alignment %d is not a power of two", s.ID, s.Name, s.Align)
		}
		c.slots[s] = true
	}
	seen := map[Reg]bool{}
	for _, p := range f.Params {
		c.reg(p, "param")
		if seen[p] {
			c.errorf("param %s listed twice", p)
		}
		seen[p] = true
	}
	// More than MaxArgs params or call arguments are fine in a function
	// every call inlines; codegen refuses what stays a BPF call.
	for _, b := range f.Blocks {
		if b == nil {
			continue
		}
		if len(b.Instrs) == 0 {
			c.errorf("b%d: empty block", b.ID)
		}
		for j, in := range b.Instrs {
			if in == nil {
				c.errorf("b%d[%d]: nil instruction", b.ID, j)
				continue
			}
			last := j == len(b.Instrs)-1
			term := in.Op == OpJump || in.Op == OpBranch || in.Op == OpRet
			switch {
			case term && !last:
				c.errorf("b%d[%d]: terminator %s in the middle of the block", b.ID, j, in.Op)
			case !term && last:
				c.errorf("b%d: does not end in a terminator", b.ID)
			}
			c.instr(b, j, in)
		}
	}
}

func (c *checker) reg(r Reg, what string) {
	if r <= 0 || r >= c.f.NextReg {
		c.errorf("%s register %s out of range (NextReg %d)", what, r, c.f.NextReg)
	}
}

func (c *checker) operand(o Operand, what string) {
	if !o.IsImm {
		c.reg(o.Reg, what)
	}
}

func (c *checker) target(b *Block, where string) {
	if b == nil {
		c.errorf("%s: nil branch target", where)
	} else if !c.blocks[b] {
		c.errorf("%s: target b%d does not belong to the function", where, b.ID)
	}
}

func validSize(n int) bool { return n == 1 || n == 2 || n == 4 || n == 8 }

func (c *checker) instr(b *Block, j int, in *Instr) {
	where := fmt.Sprintf("b%d[%d] %s", b.ID, j, in.Op)
	needDst := func() {
		if in.Dst == 0 {
			c.errorf("%s: missing destination", where)
		} else {
			c.reg(in.Dst, where+": destination")
		}
	}
	optDst := func() {
		if in.Dst != 0 {
			c.reg(in.Dst, where+": destination")
		}
	}
	switch in.Op {
	case OpMov, OpNeg:
		needDst()
		c.operand(in.A, where)
	case OpALU:
		needDst()
		c.operand(in.A, where)
		c.operand(in.B, where)
		if in.ALU > Arsh {
			c.errorf("%s: invalid ALU op %d", where, in.ALU)
		}
	case OpExt:
		needDst()
		c.operand(in.A, where)
		if in.Bits != 8 && in.Bits != 16 && in.Bits != 32 {
			c.errorf("%s: invalid extension width %d", where, in.Bits)
		}
	case OpBswap:
		needDst()
		c.operand(in.A, where)
		if in.Bits != 16 && in.Bits != 32 && in.Bits != 64 {
			c.errorf("%s: invalid byte swap width %d", where, in.Bits)
		}
	case OpLoad:
		needDst()
		c.mem(in, where)
	case OpStore:
		c.mem(in, where)
		c.operand(in.B, where)
	case OpAtomic:
		c.mem(in, where)
		c.operand(in.B, where)
		if in.Size != 4 && in.Size != 8 {
			c.errorf("%s: atomic size %d (want 4 or 8)", where, in.Size)
		}
		if in.Atomic > AtomicCmpXchg {
			c.errorf("%s: invalid atomic op %d", where, in.Atomic)
		}
		if in.Atomic == AtomicCmpXchg {
			c.operand(in.C, where)
		}
		optDst()
	case OpFrameAddr:
		needDst()
		if in.Slot == nil {
			c.errorf("%s: missing slot", where)
		} else if !c.slots[in.Slot] {
			c.errorf("%s: slot s%d does not belong to the function", where, in.Slot.ID)
		}
	case OpSymAddr, OpMapPtr, OpFuncAddr:
		needDst()
		if in.Sym == "" {
			c.errorf("%s: missing symbol", where)
		}
	case OpCall, OpCallFunc:
		optDst()
		if in.Op == OpCall && len(in.Args) > MaxArgs {
			c.errorf("%s: %d arguments, at most %d allowed", where, len(in.Args), MaxArgs)
		}
		for _, a := range in.Args {
			c.operand(a, where)
		}
		if in.Op == OpCallFunc && in.Sym == "" {
			c.errorf("%s: missing callee", where)
		}
	case OpAsm:
		optDst()
		switch {
		case in.Asm == nil:
			c.errorf("%s: missing asm code", where)
		case len(in.Asm.In)+len(in.Asm.Late) != len(in.Args):
			c.errorf("%s: %d inputs for %d registers and %d late immediates", where, len(in.Args), len(in.Asm.In), len(in.Asm.Late))
		}
		for _, a := range in.Args {
			c.operand(a, where)
		}
	case OpJump:
		c.target(in.Then, where)
	case OpBranch:
		c.operand(in.A, where)
		c.operand(in.B, where)
		if in.Cond > Set {
			c.errorf("%s: invalid condition %d", where, in.Cond)
		}
		c.target(in.Then, where)
		c.target(in.Else, where)
	case OpRet:
		c.operand(in.A, where)
	case OpCore:
		needDst()
		if in.Core == nil || in.Core.Type == nil {
			c.errorf("%s: CO-RE value without a relocation", where)
		}
	default:
		c.errorf("%s: invalid op %d", where, in.Op)
	}
}

func (c *checker) mem(in *Instr, where string) {
	if in.Slot == nil {
		c.operand(in.A, where)
	}
	if !validSize(in.Size) {
		c.errorf("%s: invalid access size %d", where, in.Size)
	}
}
