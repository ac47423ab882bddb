// Package ir is bpfcc's intermediate representation: functions made of basic
// blocks of three-address operations on virtual registers, with explicit loads
// and stores. It sits between lower (which builds it from C) and codegen
// (which turns it into eBPF instructions).
//
// Value model: every virtual register holds 64 bits. An operation marked W32
// computes on the low 32 bits and zeroes the upper 32 (as BPF's ALU32 does).
// lower inserts explicit Ext operations wherever C needs a value sign- or
// zero-extended, so codegen never has to know C types.
package ir

import (
	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/btf"
)

// Pos is a source position. The zero Pos means "unknown".
type Pos struct {
	File      string
	Line, Col int
}

// TrapSym is the callee of an OpCallFunc that __builtin_trap() lowers to:
// BPF has no trap instruction, so code generation reports one that is
// still reachable after optimisation as an error, as clang does.
// A trap whose Note is set carries the diagnostic of a construct lower
// could not compile (a memcpy of a size only inlining makes constant): it
// is an error only if optimisation leaves it reachable.
const TrapSym = "__builtin_trap"

// MemcpySym and MemsetSym are the callees of an OpCallFunc that stands for
// a memcpy (Args: destination, source, size) or memset (destination, byte,
// size) whose size lower could not read as a constant, but inlining and
// propagation may make one (a size passed to an inline helper). Size is
// the alignment both addresses are known to have. The optimiser expands
// each into loads and stores once the size is known; one it cannot
// becomes a trap carrying its Note.
const (
	MemcpySym = "__bpfcc_memcpy"
	MemsetSym = "__bpfcc_memset"
)

// StrcmpSym is the callee of an OpCallFunc that __builtin_strcmp(a, b)
// lowers to when a or b is no string literal there (Args: the two
// pointers): the optimiser folds it once inlining shows both are string
// literals (a file name passed to an always-inline helper), as clang
// does; one it cannot becomes a trap carrying its Note.
const StrcmpSym = "__bpfcc_strcmp"

// StrlenSym is the callee of an OpCallFunc that __builtin_strlen(s)
// lowers to when s is no string literal there (Args: the pointer); it is
// folded like StrcmpSym.
const StrlenSym = "__bpfcc_strlen"

// ConstPSym is the callee of an OpCallFunc that __builtin_constant_p(x)
// lowers to when the front end could not decide it: code generation
// replaces it with 1 when inlining and folding made x a constant, else 0,
// as clang decides it after optimisation.
const ConstPSym = "__builtin_constant_p"

// IndirectSym is the callee of an OpCallFunc through a function pointer,
// whose Args[0] is the pointer and the rest the arguments: code
// generation turns it into a direct call when inlining and propagation
// show the pointer holds one known function, as clang does, and rejects it
// otherwise (BPF has no indirect call).
const IndirectSym = "__bpfcc_indirect_call"

// Reg is a virtual register. Reg 0 means "no register".
type Reg int

// Operand is a register or a 64-bit immediate.
type Operand struct {
	Reg Reg   // used when IsImm is false
	Imm int64 // used when IsImm is true
	// IsImm marks an immediate operand.
	IsImm bool
}

// R makes a register operand.
func R(r Reg) Operand { return Operand{Reg: r} }

// Imm makes an immediate operand.
func Imm(v int64) Operand { return Operand{Imm: v, IsImm: true} }

// Op is an IR operation code.
type Op uint8

const (
	OpInvalid Op = iota

	// Values.
	OpMov   // Dst = A
	OpALU   // Dst = A <ALU> B            (W32 selects 32-bit arithmetic)
	OpNeg   // Dst = -A                   (W32)
	OpExt   // Dst = extend(A) from Bits (8,16,32), Signed or not
	OpBswap // Dst = byte-swap of the low Bits (16,32,64) of A

	// Memory.
	OpLoad  // Dst = *(Size *)(A + Off); Signed asks for sign extension (codegen may expand it)
	OpStore // *(Size *)(A + Off) = B
	// OpAtomic: *(Size *)(A + Off) <Atomic> B. With Fetch, Dst receives the old
	// value. For AtomicCmpXchg, C is the expected value and Dst the old value.
	OpAtomic

	// Addresses.
	OpFrameAddr // Dst = address of Slot + Off (a stack object)
	OpSymAddr   // Dst = address of global Sym + Off (ld_imm64 with a relocation)
	OpMapPtr    // Dst = pointer to map Sym (ld_imm64 pseudo map fd)
	OpFuncAddr  // Dst = address of function Sym (ld_imm64 BPF_PSEUDO_FUNC: a callback)

	// Calls. Args of a helper call are at most 5 operands; a bpf-to-bpf
	// call may pass more to a function inlining removes.
	// OpCall with Size > 0 is instead a legacy packet load (BPF_LD_ABS,
	// BPF_LD_IND): Dst = ntoh(*(Size *)(skb Args[0] data + Args[1])). It
	// clobbers what a call clobbers and can end the program, as a call can.
	OpCall     // Dst = helper #Imm (Args...); Dst may be 0
	OpCallFunc // Dst = Sym(Args...) bpf-to-bpf call; Dst may be 0

	// Terminators: the last instruction of every block, and only there.
	OpJump   // goto Then
	OpBranch // if A <Cond> B goto Then else goto Else   (W32 compares the low 32 bits)
	OpRet    // return A (A is Imm 0 when the function returns void)

	// OpAsm: inline asm. Asm's instructions run with Args[i] in register
	// Asm.In[i]; Dst (may be 0) then receives register Asm.Out. It reads and
	// writes memory like a call.
	OpAsm

	// OpCore: Dst = the value of the CO-RE relocation Core, which the loader
	// computes against the running kernel's BTF; Imm is its value for the
	// program's own types. Passes must not fold it: it is not a constant.
	OpCore
)

// CoreKind is a CO-RE relocation kind (enum bpf_core_relo_kind).
type CoreKind uint32

const (
	CoreFieldByteOffset CoreKind = iota
	CoreFieldByteSize
	CoreFieldExists
	CoreFieldSigned
	CoreFieldLShiftU64
	CoreFieldRShiftU64
	CoreTypeIDLocal
	CoreTypeIDTarget
	CoreTypeExists
	CoreTypeSize
	CoreEnumValueExists
	CoreEnumValue
	CoreTypeMatches
)

// CoreReloc is one CO-RE relocation: Kind of the access Access (libbpf's
// access string, "0:1:2": indices of array elements and struct members,
// starting with the element of the root pointer) in Type.
type CoreReloc struct {
	Kind   CoreKind
	Type   btf.Type
	Access string
}

// ALU is a binary arithmetic operation.
type ALU uint8

const (
	Add ALU = iota
	Sub
	Mul
	UDiv
	UMod
	SDiv // codegen expands it for -mcpu < v4
	SMod // codegen expands it for -mcpu < v4
	Or
	And
	Xor
	Lsh
	Rsh  // logical
	Arsh // arithmetic
)

// Cond is a comparison for OpBranch.
type Cond uint8

const (
	Eq Cond = iota
	Ne
	Ugt
	Uge
	Ult
	Ule
	Sgt
	Sge
	Slt
	Sle
	Set // (A & B) != 0
)

// Atomic is an atomic read-modify-write operation.
type Atomic uint8

const (
	AtomicAdd Atomic = iota
	AtomicOr
	AtomicAnd
	AtomicXor
	AtomicXchg    // always fetches
	AtomicCmpXchg // always fetches
)

// Space says what kind of memory a load or store touches. It is advice for
// codegen and the listing; the verifier decides the real rules.
type Space uint8

const (
	SpaceUnknown Space = iota
	SpaceStack
	SpaceCtx
	SpacePacket
	SpaceMapValue
	SpaceGlobal
)

// Instr is one IR operation. Fields not used by an Op are zero.
type Instr struct {
	Op  Op
	Dst Reg
	A   Operand
	B   Operand
	C   Operand // AtomicCmpXchg's expected value

	ALU    ALU
	Cond   Cond
	Atomic Atomic
	W32    bool
	Fetch  bool
	// NSW marks an OpALU add, sub or mul of C signed integers, whose
	// overflow is undefined: the result is the exact one (the
	// optimiser may assume `n + 1` of a non-negative int is positive).
	NSW bool

	Bits   int  // OpExt, OpBswap
	Signed bool // OpExt, OpLoad
	// Volatile marks a load of a volatile-qualified object: it must
	// happen as written (not reused or removed).
	Volatile bool

	Size  int   // OpLoad/OpStore/OpAtomic: 1, 2, 4 or 8 bytes
	Off   int64 // OpLoad/OpStore/OpAtomic/OpFrameAddr/OpSymAddr offset
	Space Space

	// Slot is OpFrameAddr's stack object. On OpLoad, OpStore and OpAtomic a
	// non-nil Slot means the address is Slot + Off and A is unused (codegen
	// folds frame addresses into R10-relative accesses this way).
	Slot *Slot
	Sym  string // OpSymAddr, OpMapPtr, OpFuncAddr, OpCallFunc
	Imm  int64  // OpCall: helper id; OpCore: the local value
	// Core is OpCore's relocation; on OpLoad and OpStore it relocates Off
	// (A is then the base pointer and Off the local value: passes must
	// leave both as they are).
	Core *CoreReloc
	Args []Operand
	// Asm is OpAsm's code and register binding.
	Asm *Asm

	Then, Else *Block // OpJump (Then), OpBranch
	// Unroll is the unroll pragma of the loop whose head this OpJump or
	// OpBranch jumps back to (see Unroll).
	Unroll Unroll
	// Likely is which way an OpBranch is expected to go, by the C source
	// (__builtin_expect) or clang's static heuristics; codegen lays the
	// likely successor out as the fall-through, which the verifier walks
	// first, as clang's block placement does.
	Likely Likely

	// Scope is the C block an OpCallFunc is made in: the objects of an
	// inlined copy of the callee live inside it, and share memory with
	// those of blocks disjoint from it (see Scope.Disjoint).
	Scope *Scope

	// Note is free text shown in listings above the instruction, e.g. where a
	// DWARF-bound argument came from ("vara = rbx").
	Note string
	Pos  Pos
}

// Likely says which successor of a branch is expected.
type Likely int8

const (
	LikelyUnknown Likely = iota
	LikelyThen
	LikelyElse
)

// Flip is the hint for the same branch with Then and Else swapped.
func (l Likely) Flip() Likely {
	switch l {
	case LikelyThen:
		return LikelyElse
	case LikelyElse:
		return LikelyThen
	}
	return l
}

// Unroll is a loop's unroll pragma (`#pragma unroll`, `#pragma clang loop
// unroll(...)`, `#pragma nounroll`, `#pragma GCC unroll N`): 0 leaves the
// choice to the optimiser, UnrollNever forbids unrolling, a positive value
// asks for full unrolling when the loop runs at most that many times.
type Unroll int32

const (
	UnrollNever Unroll = -1
	UnrollFull  Unroll = 1<<31 - 1
)

// Asm is an inline asm statement after assembly: instructions on physical
// registers, and where its operands go.
type Asm struct {
	Insns asm.Instructions
	// In is the register of each input operand (the instruction's Args).
	In []asm.Register
	// Out is the register the output operand (the instruction's Dst) is
	// read from.
	Out asm.Register
	// Writes lists every register the code may change: its clobbers, the
	// registers its instructions write and the output.
	Writes []asm.Register

	// Late lists "i" operands whose value is known only after inlining
	// and constant folding (a parameter of an always-inline function):
	// codegen assembles Text again with them. Args past len(In) hold their
	// values; Insns were assembled with 0 in their place.
	Late []AsmLate
	// Text, Operands and ID are what the code was assembled from (ID
	// replaces %=); Funcs names the functions whose address it loads.
	Text     string
	Operands []AsmOperand
	ID       int
	Funcs    []string
}

// AsmLate binds operand Operand of an asm statement to Args[Arg].
type AsmLate struct {
	Operand, Arg int
}

// AsmOperand is what one operand reference of asm text stands for: a
// register, an immediate or a symbol.
type AsmOperand struct {
	Name  string
	IsReg bool
	Reg   asm.Register
	Imm   int64
	Sym   string
}

// Block is a basic block: straight-line instructions ending in a terminator.
type Block struct {
	ID     int
	Instrs []*Instr
}

// Term returns the block's terminator, or nil if it has none yet.
func (b *Block) Term() *Instr {
	if len(b.Instrs) == 0 {
		return nil
	}
	t := b.Instrs[len(b.Instrs)-1]
	if t.Op == OpJump || t.Op == OpBranch || t.Op == OpRet {
		return t
	}
	return nil
}

// Succs returns the block's successors.
func (b *Block) Succs() []*Block {
	t := b.Term()
	switch {
	case t == nil:
		return nil
	case t.Op == OpJump:
		return []*Block{t.Then}
	case t.Op == OpBranch:
		return []*Block{t.Then, t.Else}
	}
	return nil
}

// Slot is a stack object (a local whose address is taken, an aggregate, a
// spill area made by lower). codegen assigns frame offsets.
type Slot struct {
	ID    int
	Name  string
	Size  int
	Align int
	// Volatile marks an object declared volatile: codegen must keep every
	// load and store of it as written (no forwarding, no dead-store removal).
	Volatile bool
	// Scope is the C block the object lives in; nil means the whole
	// function. Objects of disjoint blocks may share memory.
	Scope *Scope
	// Born orders a declared C object's declaration among its function's
	// block openings and closings (0: a temporary, alive with its block).
	Born int
	// Scalar is the C size of a scalar given a word of its own (Size 8):
	// codegen may give it back its C size where the verifier cannot tell
	// (see codegen's halfWordSlots). 0: not such a scalar.
	Scalar int
}

// Scope is a C block (compound statement) of a function: its objects
// exist only while the block executes. Open and Close order the block's
// start and end among its function's declarations (0: not recorded).
type Scope struct {
	Parent      *Scope
	Open, Close int
}

// EndedBefore reports whether the object a is dead wherever b is alive:
// a's block, or a block enclosing it within b's, ended before b was
// declared. An object's memory is its own from its declaration on, as
// clang's lifetime markers place it (a statement expression's temporary
// and a variable declared after it share memory).
func EndedBefore(a, b *Slot) bool {
	if a == nil || b == nil || b.Born == 0 || a.Scope == nil || b.Scope == nil {
		return false
	}
	ended := false
	for c := a.Scope; c != nil; c = c.Parent {
		if c == b.Scope {
			return ended
		}
		if c.Close != 0 && c.Close < b.Born {
			ended = true
		}
	}
	return false
}

// Disjoint reports whether no execution has objects of both a and b alive:
// the blocks are in the same function and neither encloses the other.
func (a *Scope) Disjoint(b *Scope) bool {
	if a == nil || b == nil {
		return false
	}
	root := func(s *Scope) *Scope {
		for s.Parent != nil {
			s = s.Parent
		}
		return s
	}
	encloses := func(outer, inner *Scope) bool {
		for s := inner; s != nil; s = s.Parent {
			if s == outer {
				return true
			}
		}
		return false
	}
	return root(a) == root(b) && !encloses(a, b) && !encloses(b, a)
}

// Func is one C function: a BPF program (Section != "") or a subprogram.
type Func struct {
	Name    string
	Section string // ELF section for programs; "" for .text subprograms
	Static  bool   // local symbol
	// Hidden is visibility("hidden"): a global symbol the loader treats
	// as static (libbpf verifies such functions as static subprograms).
	Hidden bool
	// Weak is __weak: an STB_WEAK symbol another object's definition may
	// replace at link time, so its body is not inlined (unless Inline), as
	// with clang.
	Weak bool
	// Params are the registers that hold the arguments on entry, in order.
	Params []Reg
	// Returns is false for void functions.
	Returns bool
	Blocks  []*Block // Blocks[0] is the entry
	Slots   []*Slot
	NextReg Reg // the next unused virtual register number
	Pos     Pos
	// BTF is the function's type for .BTF and func_info.
	BTF *btf.Func
	// Inline asks for inlining at every call site (__always_inline).
	Inline   bool
	NoInline bool
	// Naked marks __attribute__((naked)): the function is exactly the code
	// of its asm statements, with no prologue or epilogue.
	Naked bool
	// Variadic marks a function declared with `...`: its calls pass the
	// named parameters only (the body cannot read more: there is no
	// va_arg), and it must be inlined everywhere, as clang requires.
	Variadic bool
}

// NewReg allocates a fresh virtual register.
func (f *Func) NewReg() Reg {
	if f.NextReg == 0 {
		f.NextReg = 1
	}
	r := f.NextReg
	f.NextReg++
	return r
}

// NewBlock appends a new empty block.
func (f *Func) NewBlock() *Block {
	b := &Block{ID: len(f.Blocks)}
	f.Blocks = append(f.Blocks, b)
	return b
}

// NewSlot allocates a stack object.
func (f *Func) NewSlot(name string, size, align int) *Slot {
	s := &Slot{ID: len(f.Slots), Name: name, Size: size, Align: align}
	f.Slots = append(f.Slots, s)
	return s
}

// Global is a variable in a data section.
type Global struct {
	Name    string
	Section string // ".data", ".rodata", ".bss", ".data.foo", ...
	Static  bool
	// Hidden is visibility("hidden"): loaders treat the variable as
	// static (not part of the mmapable, user-visible data).
	Hidden bool
	Size   int
	Align  int
	Init   []byte // nil or all zero for .bss
	BTF    btf.Type
	Pos    Pos
	// Const marks an object whose initializer is its value for the whole
	// life of the program: a const, non-volatile C object or a string
	// literal. codegen folds loads from it at constant offsets. A const
	// volatile object (which the loader may rewrite before loading) must
	// not be marked. (Added for codegen's load folding; lower sets it.)
	Const bool
	// Tags are the variable's btf_decl_tag attributes.
	Tags []string
	// Extern marks a variable the loader provides (Section ".kconfig" or
	// ".ksyms") or, with Section "", one another object defines, which the
	// BPF static linker resolves. Weak lets an extern stay undefined, and
	// a definition be overridden by another object's (STB_WEAK).
	Extern, Weak bool
	// Relocs are the addresses inside Init: a struct_ops map's function
	// pointers, pointers to other globals or string literals.
	Relocs []DataReloc
}

// DataReloc says that the 8 bytes at Off of a global's contents hold the
// address of Sym (a function, global, map or extern) plus Addend: an
// R_BPF_64_ABS64 relocation, which libbpf reads for struct_ops maps and
// the BPF static linker resolves.
type DataReloc struct {
	Off    int
	Sym    string
	Addend int64
}

// Map is a map definition in ".maps". BTF is the anonymous struct of
// __uint/__type/__array members as libbpf reads it. Legacy `SEC("maps")`
// definitions are converted into the same form by lower.
type Map struct {
	Name   string
	Static bool
	BTF    *btf.Struct
	// Inner lists map-in-map initialisers: the byte offset in the map's
	// definition where a pointer to Sym goes (the `values` array).
	Inner []MapInit
	Pos   Pos
	// Tags are the map variable's btf_decl_tag attributes.
	Tags []string
	// Extern marks a map another object defines (`extern T m
	// SEC(".maps")`), for the BPF static linker. Weak lets an extern stay
	// undefined, and a definition be overridden by another object's.
	Extern, Weak bool
}

// MapInit is one relocation inside a map definition.
type MapInit struct {
	Off int
	Sym string
}

// Module is a translation unit.
type Module struct {
	File       string
	Funcs      []*Func
	Globals    []*Global
	Maps       []*Map
	License    string
	Version    uint32
	HasVersion bool
	// Kfuncs are the kernel functions (extern __ksym) the code calls.
	Kfuncs []*Kfunc
	// Output says which struct type a perf event array or ring buffer map
	// carries (map name → type), recorded for the runtime's decoder.
	Output map[string]btf.Type
}

// Kfunc is a kernel function the program calls (OpCallFunc of Name, which
// is not a function of the module): the loader resolves it through the
// kernel's BTF.
type Kfunc struct {
	Name string
	BTF  *btf.Func // linkage extern
	Weak bool
	Pos  Pos
	// Plain marks a function declared extern without __ksym, whose address
	// the program takes: an undefined symbol for the BPF static linker,
	// outside DATASEC ".ksyms" (as clang emits it).
	Plain bool
	// Hidden is visibility("hidden") on the extern declaration, which the
	// static linker propagates to the definition.
	Hidden bool
}

// JoinNotes joins two instruction notes (see Instr.Note), one per line.
func JoinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}
