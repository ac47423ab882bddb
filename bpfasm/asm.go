package bpfasm

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cilium/ebpf/asm"
)

// Assemble turns asm text into instructions. ops are the statement's
// operands in order (%0 is ops[0]); id replaces %= so that labels such as
// l0_%= are unique to the statement. Jumps to labels are resolved here;
// "call sym" and "rN = sym ll" keep sym as the instruction's Reference.
func Assemble(text string, ops []Operand, id int) (asm.Instructions, error) {
	text, err := substitute(text, ops, id)
	if err != nil {
		return nil, err
	}
	a := &assembler{labels: map[string]int{}, numeric: map[string][]int{}}
	stmts, err := expandConditionals(statements(text))
	if err == nil {
		stmts, err = expandRept(stmts)
	}
	if err != nil {
		return nil, err
	}
	for _, s := range stmts {
		if len(a.rawHalf) > 0 && dataSize[firstWord(s.text)] == 0 {
			return nil, &Error{Line: a.rawLine, Token: firstWord(s.text), Msg: "instruction given by data directives is incomplete"}
		}
		if err := a.statement(s); err != nil {
			return nil, err
		}
	}
	if len(a.rawHalf) > 0 {
		return nil, &Error{Line: a.rawLine, Token: "data", Msg: "instruction given by data directives is incomplete"}
	}
	if err := a.resolve(); err != nil {
		return nil, err
	}
	return a.insns, nil
}

// pending is a jump to a label, resolved once every label is known.
type pending struct {
	insn  int
	label string
	line  int
	// dir is 'f' or 'b' for a numeric label reference, 0 otherwise.
	dir byte
}

type assembler struct {
	insns   asm.Instructions
	labels  map[string]int   // label → instruction index
	numeric map[string][]int // numeric label → instruction indices, in order
	jumps   []pending
	// rawHalf holds the first half of a 64-bit immediate load given by
	// .8byte, from line rawLine, until its second half.
	rawHalf []byte
	rawLine int
}

// parser reads the tokens of one statement.
type parser struct {
	toks []token
	pos  int
	line int
	stmt string
}

func (p *parser) peek() token {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return token{kind: tEOF}
}

func (p *parser) next() token {
	t := p.peek()
	if p.pos < len(p.toks) {
		p.pos++
	}
	return t
}

func (p *parser) errorf(t token, format string, args ...any) error {
	tok := t.text
	if t.kind == tEOF {
		tok = "end of statement"
	}
	return &Error{Line: p.line, Token: tok, Msg: fmt.Sprintf(format, args...), Stmt: p.stmt}
}

func (p *parser) accept(text string) bool {
	if t := p.peek(); (t.kind == tPunct || t.kind == tIdent) && t.text == text {
		p.pos++
		return true
	}
	return false
}

func (p *parser) expect(text string) error {
	if !p.accept(text) {
		return p.errorf(p.peek(), "expected %q", text)
	}
	return nil
}

func (p *parser) end() error {
	if t := p.peek(); t.kind != tEOF {
		return p.errorf(t, "unexpected token")
	}
	return nil
}

// reg is a register name: rN (64-bit) or wN (32-bit).
type reg struct {
	r    asm.Register
	w32  bool
	text string
}

func parseReg(t token) (reg, bool) {
	if t.kind != tIdent || len(t.text) < 2 || (t.text[0] != 'r' && t.text[0] != 'w') {
		return reg{}, false
	}
	n, err := strconv.Atoi(t.text[1:])
	if err != nil || n < 0 || n > 10 || strconv.Itoa(n) != t.text[1:] {
		return reg{}, false
	}
	return reg{r: asm.Register(n), w32: t.text[0] == 'w', text: t.text}, true
}

func (p *parser) isReg() bool {
	_, ok := parseReg(p.peek())
	return ok
}

func (p *parser) reg() (reg, error) {
	t := p.next()
	r, ok := parseReg(t)
	if !ok {
		return reg{}, p.errorf(t, "expected a register")
	}
	return r, nil
}

// isImm reports whether an immediate starts here.
func (p *parser) isImm() bool {
	t := p.peek()
	if t.kind == tPunct && (t.text == "-" || t.text == "+") && p.pos+1 < len(p.toks) {
		t = p.toks[p.pos+1]
	}
	return t.kind == tNum
}

// imm reads an integer expression: numbers joined by +, - and *, as
// macro-built asm text has them ("r0 = 8 - 1").
func (p *parser) imm() (int64, error) {
	v, err := p.product()
	for err == nil && p.followsNumber("+", "-") {
		neg := p.next().text == "-"
		var w int64
		if w, err = p.product(); neg {
			w = -w
		}
		v += w
	}
	return v, err
}

// followsNumber reports whether the next token is one of ops with a
// number after it.
func (p *parser) followsNumber(ops ...string) bool {
	t := p.peek()
	if t.kind != tPunct || p.pos+1 >= len(p.toks) || p.toks[p.pos+1].kind != tNum {
		return false
	}
	for _, op := range ops {
		if t.text == op {
			return true
		}
	}
	return false
}

func (p *parser) product() (int64, error) {
	v, err := p.number()
	for err == nil && p.followsNumber("*") {
		p.next()
		var w int64
		w, err = p.number()
		v *= w
	}
	return v, err
}

// number reads an integer with an optional sign: decimal, 0x hex or 0
// octal, up to 64 bits (unsigned values wrap, as the assembler's do).
func (p *parser) number() (int64, error) {
	neg := false
	if p.accept("-") {
		neg = true
	} else {
		p.accept("+")
	}
	t := p.next()
	if t.kind != tNum {
		return 0, p.errorf(t, "expected a number")
	}
	// The assembler ignores C integer suffixes (1ULL), which macro-built
	// asm text carries.
	v, err := strconv.ParseUint(strings.TrimRight(t.text, "uUlL"), 0, 64)
	if err != nil {
		return 0, p.errorf(t, "bad number")
	}
	if neg {
		return -int64(v), nil
	}
	return int64(v), nil
}

// imm32 reads an immediate that must fit the 32-bit imm field; like the
// assembler, values up to 0xffffffff are accepted and kept as their bits.
func (p *parser) imm32() (int64, error) {
	t := p.peek()
	v, err := p.imm()
	if err != nil {
		return 0, err
	}
	if v < math.MinInt32 || v > math.MaxUint32 {
		return 0, p.errorf(t, "immediate %d does not fit in 32 bits", v)
	}
	return int64(int32(uint32(v))), nil
}

func (p *parser) off16() (int16, error) {
	t := p.peek()
	v, err := p.imm()
	if err != nil {
		return 0, err
	}
	if v < math.MinInt16 || v > math.MaxInt16 {
		return 0, p.errorf(t, "offset %d does not fit in 16 bits", v)
	}
	return int16(v), nil
}

// memOff reads "rN + off" or "rN - off" (the offset may itself be signed:
// "r1 + -8" after operand substitution).
func (p *parser) memOff() (reg, int16, error) {
	r, err := p.reg()
	if err != nil {
		return r, 0, err
	}
	neg := false
	switch t := p.next(); {
	case t.kind == tPunct && t.text == "+":
	case t.kind == tPunct && t.text == "-":
		neg = true
	default:
		return r, 0, p.errorf(t, "expected '+' or '-' and an offset")
	}
	tok := p.peek()
	v, err := p.imm()
	if err != nil {
		return r, 0, err
	}
	if neg {
		v = -v
	}
	if v < math.MinInt16 || v > math.MaxInt16 {
		return r, 0, p.errorf(tok, "offset %d does not fit in 16 bits", v)
	}
	return r, int16(v), nil
}

// sizeCast reads "u8 *", "s16 *", ... (the part inside "*(...)").
func (p *parser) sizeCast() (asm.Size, bool, error) {
	t := p.next()
	size, signed, ok := sizeName(t.text)
	if t.kind != tIdent || !ok {
		return 0, false, p.errorf(t, "expected an access size (u8, u16, u32, u64, s8, s16, s32)")
	}
	if err := p.expect("*"); err != nil {
		return 0, false, err
	}
	return size, signed, nil
}

func sizeName(s string) (asm.Size, bool, bool) {
	switch s {
	case "u8":
		return asm.Byte, false, true
	case "u16":
		return asm.Half, false, true
	case "u32":
		return asm.Word, false, true
	case "u64":
		return asm.DWord, false, true
	case "s8":
		return asm.Byte, true, true
	case "s16":
		return asm.Half, true, true
	case "s32":
		return asm.Word, true, true
	}
	return 0, false, false
}

// statement assembles one statement, with any labels in front of it.
func (a *assembler) statement(s stmt) error {
	p := &parser{toks: tokenize(s.text), line: s.line, stmt: s.text}
	for len(p.toks) >= p.pos+2 && p.toks[p.pos+1].kind == tPunct && p.toks[p.pos+1].text == ":" {
		t := p.toks[p.pos]
		switch t.kind {
		case tIdent:
			if _, dup := a.labels[t.text]; dup {
				return p.errorf(t, "label defined twice")
			}
			a.labels[t.text] = len(a.insns)
		case tNum:
			a.numeric[t.text] = append(a.numeric[t.text], len(a.insns))
		default:
			return p.errorf(t, "bad label")
		}
		p.pos += 2
	}
	if p.peek().kind == tEOF {
		return nil
	}
	return a.instruction(p)
}

func (a *assembler) emit(ins asm.Instruction) {
	a.insns = append(a.insns, ins)
}

func (a *assembler) instruction(p *parser) error {
	t := p.peek()
	if t.kind == tIdent {
		if _, ok := parseReg(t); !ok {
			return a.keyword(p)
		}
		return a.assignment(p)
	}
	if t.kind == tPunct && t.text == "*" {
		return a.store(p)
	}
	return p.errorf(t, "unknown instruction")
}

// keyword handles statements that start with a word other than a register.
func (a *assembler) keyword(p *parser) error {
	t := p.next()
	switch t.text {
	case "exit":
		a.emit(asm.Return())
	case "goto":
		return a.jump(p, asm.Instruction{OpCode: asm.Ja.Op(asm.ImmSource)})
	case "gotol":
		return a.jump(p, asm.Instruction{OpCode: asm.OpCode(asm.Jump32Class).SetJumpOp(asm.Ja).SetSource(asm.ImmSource)})
	case "may_goto":
		return a.jump(p, asm.Instruction{OpCode: asm.JCOND.Op(asm.ImmSource)})
	case "call":
		return a.call(p)
	case "callx":
		r, err := p.reg()
		if err != nil {
			return err
		}
		a.emit(asm.Instruction{OpCode: asm.Call.Op(asm.RegSource), Dst: r.r})
	case "if":
		return a.branch(p)
	case "lock":
		return a.lock(p)
	default:
		if n := dataSize[t.text]; n > 0 {
			return a.raw(p, n)
		}
		return p.errorf(t, "unknown instruction")
	}
	return p.end()
}

// jump finishes a goto-like instruction: its target is a raw offset
// ("+3", "-1"), a label or a numeric label reference ("1f").
func (a *assembler) jump(p *parser, ins asm.Instruction) error {
	t := p.peek()
	switch {
	case t.kind == tIdent:
		p.next()
		a.jumps = append(a.jumps, pending{insn: len(a.insns), label: t.text, line: p.line})
	case t.kind == tLabelRef:
		p.next()
		a.jumps = append(a.jumps, pending{insn: len(a.insns), label: t.text[:len(t.text)-1], line: p.line, dir: t.text[len(t.text)-1]})
	case p.isImm():
		v, err := p.imm()
		if err != nil {
			return err
		}
		if err := setJumpOffset(&ins, v); err != nil {
			return p.errorf(t, "%v", err)
		}
	default:
		return p.errorf(t, "expected a jump target")
	}
	a.emit(ins)
	return p.end()
}

func setJumpOffset(ins *asm.Instruction, v int64) error {
	if ins.OpCode.Class() == asm.Jump32Class && ins.OpCode.JumpOp() == asm.Ja {
		if v < math.MinInt32 || v > math.MaxInt32 {
			return fmt.Errorf("jump offset %d does not fit in 32 bits", v)
		}
		ins.Constant = v
		return nil
	}
	if v < math.MinInt16 || v > math.MaxInt16 {
		return fmt.Errorf("jump offset %d does not fit in 16 bits", v)
	}
	ins.Offset = int16(v)
	return nil
}

// call is "call N" (helper N) or "call sym" (a BPF function or kfunc).
func (a *assembler) call(p *parser) error {
	t := p.peek()
	switch {
	case t.kind == tIdent:
		p.next()
		a.emit(asm.Call.Label(t.text))
	case p.isImm():
		v, err := p.imm32()
		if err != nil {
			return err
		}
		a.emit(asm.BuiltinFunc(v).Call())
	default:
		return p.errorf(t, "expected a helper number or a function name")
	}
	return p.end()
}

var conds = map[string]asm.JumpOp{
	"==": asm.JEq, "!=": asm.JNE, ">": asm.JGT, ">=": asm.JGE, "<": asm.JLT, "<=": asm.JLE,
	"s>": asm.JSGT, "s>=": asm.JSGE, "s<": asm.JSLT, "s<=": asm.JSLE, "&": asm.JSet,
}

// branch is "if rA OP rB|imm goto target"; w registers compare 32 bits.
func (a *assembler) branch(p *parser) error {
	dst, err := p.reg()
	if err != nil {
		return err
	}
	t := p.next()
	op, ok := conds[t.text]
	if t.kind != tPunct || !ok {
		return p.errorf(t, "expected a comparison")
	}
	class := asm.JumpClass
	if dst.w32 {
		class = asm.Jump32Class
	}
	ins := asm.Instruction{Dst: dst.r}
	if p.isReg() {
		src, _ := p.reg()
		if src.w32 != dst.w32 {
			return p.errorf(token{tIdent, src.text}, "register width differs from %s", dst.text)
		}
		ins.OpCode = asm.OpCode(class).SetJumpOp(op).SetSource(asm.RegSource)
		ins.Src = src.r
	} else {
		v, err := p.imm32()
		if err != nil {
			return err
		}
		ins.OpCode = asm.OpCode(class).SetJumpOp(op).SetSource(asm.ImmSource)
		ins.Constant = v
	}
	if err := p.expect("goto"); err != nil {
		return err
	}
	return a.jump(p, ins)
}

// dataSize is the size of each value of a data directive.
var dataSize = map[string]int{
	".byte": 1, ".short": 2, ".hword": 2, ".2byte": 2, ".long": 4, ".int": 4, ".4byte": 4, ".quad": 8, ".8byte": 8,
}

// raw is a data directive (".byte 0xe5", ".short -3", ".8byte N"): values
// of size bytes, little-endian, that spell instructions. They collect
// until an instruction is whole (a 64-bit immediate load takes 16 bytes).
func (a *assembler) raw(p *parser, size int) error {
	for {
		t := p.peek()
		v, err := p.imm()
		if err != nil {
			return err
		}
		if size < 8 && (v >= 1<<(8*size) || v < -(1<<(8*size-1))) {
			return p.errorf(t, "value %d does not fit in %d bytes", v, size)
		}
		a.rawHalf = binary.LittleEndian.AppendUint64(a.rawHalf, uint64(v))[:len(a.rawHalf)+size]
		a.rawLine = p.line
		for len(a.rawHalf) >= 8 {
			n := 8
			if asm.OpCode(a.rawHalf[0]).IsDWordLoad() {
				n = 16
			}
			if len(a.rawHalf) < n {
				break
			}
			var ins asm.Instruction
			if err := ins.Unmarshal(bytes.NewReader(a.rawHalf[:n]), binary.LittleEndian, "linux"); err != nil {
				return p.errorf(t, "not an instruction: %v", err)
			}
			if ins.OpCode.Class().IsALU() && ins.Offset != 0 && !IsAddrSpaceCast(ins) {
				// cilium/ebpf, which writes the object, keeps no
				// offset of an ALU instruction it does not model.
				return p.errorf(t, "%v with offset %d is not supported", ins.OpCode, ins.Offset)
			}
			a.emit(ins)
			a.rawHalf = append(a.rawHalf[:0], a.rawHalf[n:]...)
		}
		if !p.accept(",") {
			return p.end()
		}
	}
}

// resolve fills in the offsets of jumps to labels.
func (a *assembler) resolve() error {
	raw := make([]int64, len(a.insns)+1)
	for i, ins := range a.insns {
		raw[i+1] = raw[i] + int64(ins.Width())
	}
	for _, j := range a.jumps {
		name := j.label
		if j.dir != 0 {
			name += string(rune(j.dir))
		}
		target, ok := a.target(j)
		if !ok {
			return &Error{Line: j.line, Token: name, Msg: "undefined label"}
		}
		if err := setJumpOffset(&a.insns[j.insn], raw[target]-raw[j.insn]-1); err != nil {
			return &Error{Line: j.line, Token: name, Msg: err.Error()}
		}
	}
	return nil
}

// target finds the instruction a jump's label names: 1f is the next
// numeric label 1 after the jump, 1b the last one at or before it.
func (a *assembler) target(j pending) (int, bool) {
	if j.dir == 0 {
		t, ok := a.labels[j.label]
		return t, ok
	}
	defs := a.numeric[j.label]
	if j.dir == 'f' {
		for _, d := range defs {
			if d > j.insn {
				return d, true
			}
		}
		return 0, false
	}
	for i := len(defs) - 1; i >= 0; i-- {
		if defs[i] <= j.insn {
			return defs[i], true
		}
	}
	return 0, false
}
