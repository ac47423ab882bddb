package ir

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cilium/ebpf/btf"
)

type btfType = btf.Type

// instr reads one instruction as Instr.String prints it.
func (p *parser) instr(line string) (*Instr, error) {
	in := &Instr{}
	if d, rest, ok := strings.Cut(line, " = "); ok && !strings.HasPrefix(line, "if ") {
		r, err := parseReg(d)
		if err != nil {
			return nil, err
		}
		in.Dst, line = r, rest
	}
	op, rest, _ := strings.Cut(line, " ")
	var err error
	if op == "goto" || op == "if" {
		if rest, in.Unroll, err = unrollSuffix(rest); err != nil {
			return nil, err
		}
		if r, ok := strings.CutSuffix(rest, " !likely"); ok {
			rest, in.Likely = r, LikelyThen
		} else if r, ok := strings.CutSuffix(rest, " !unlikely"); ok {
			rest, in.Likely = r, LikelyElse
		}
	}
	switch {
	case op == "mov":
		in.Op = OpMov
		in.A, err = operand(rest)
	case op == "neg" || op == "neg32":
		in.Op, in.W32 = OpNeg, op == "neg32"
		in.A, err = operand(rest)
	case strings.HasPrefix(op, "zext") || strings.HasPrefix(op, "sext"):
		in.Op, in.Signed = OpExt, op[0] == 's'
		in.Bits, err = strconv.Atoi(op[4:])
		if err == nil {
			in.A, err = operand(rest)
		}
	case strings.HasPrefix(op, "bswap"):
		in.Op = OpBswap
		in.Bits, err = strconv.Atoi(op[5:])
		if err == nil {
			in.A, err = operand(rest)
		}
	case strings.HasPrefix(op, "load."):
		in.Op = OpLoad
		in.Size, in.Signed, err = memTypeOf(op[5:])
		if err == nil {
			err = p.memory(in, rest, 0)
		}
	case strings.HasPrefix(op, "store."):
		in.Op = OpStore
		if in.Size, _, err = memTypeOf(op[6:]); err == nil {
			err = p.memory(in, rest, 1)
		}
	case strings.HasPrefix(op, "atomic."):
		err = p.atomic(in, op, rest)
	case op == "frame":
		in.Op = OpFrameAddr
		var slot string
		slot, in.Off, err = symWithOff(rest)
		if err == nil {
			var id int
			id, err = parseNumbered(slot, "s")
			in.Slot = p.slotRef(id)
		}
	case op == "sym":
		in.Op = OpSymAddr
		in.Sym, in.Off, err = symWithOff(rest)
	case op == "map" || op == "funcaddr":
		in.Op, in.Sym = OpMapPtr, rest
		if op == "funcaddr" {
			in.Op = OpFuncAddr
		}
		if rest == "" || strings.ContainsAny(rest, " ,") {
			err = fmt.Errorf("bad symbol %q", rest)
		}
	case op == "call" || op == "callfunc" || strings.HasPrefix(op, "ldpkt."):
		err = callInstr(in, line)
	case op == "goto":
		in.Op = OpJump
		in.Then, err = p.blockRef(rest)
	case op == "if":
		err = p.branch(in, rest)
	case op == "ret":
		in.Op = OpRet
		in.A, err = operand(rest)
	case op == "asm" || op == "core":
		return nil, fmt.Errorf("%s: %w", op, ErrUnsupported)
	default:
		err = p.alu(in, op, rest)
	}
	return in, err
}

func (p *parser) alu(in *Instr, op, rest string) error {
	op, in.NSW = strings.CutSuffix(op, ".nsw")
	name := strings.TrimSuffix(op, "32")
	in.Op, in.W32 = OpALU, name != op
	for a := Add; a <= Arsh; a++ {
		if a.String() == name {
			in.ALU = a
			var err error
			in.A, in.B, err = operandPair(rest)
			return err
		}
	}
	return fmt.Errorf("unknown operation %q", op)
}

func (p *parser) atomic(in *Instr, op, rest string) error {
	in.Op = OpAtomic
	parts := strings.Split(strings.TrimPrefix(op, "atomic."), ".")
	if len(parts) == 3 && parts[0] == "fetch" {
		in.Fetch, parts = true, parts[1:]
	}
	if len(parts) != 2 {
		return fmt.Errorf("bad atomic %q", op)
	}
	found := false
	for a := AtomicAdd; a <= AtomicCmpXchg; a++ {
		if a.String() == parts[0] {
			in.Atomic, found = a, true
		}
	}
	if !found {
		return fmt.Errorf("unknown atomic operation %q", parts[0])
	}
	if in.Atomic == AtomicXchg || in.Atomic == AtomicCmpXchg {
		in.Fetch = true
	}
	var err error
	if in.Size, _, err = memTypeOf(parts[1]); err != nil {
		return err
	}
	n := 1
	if in.Atomic == AtomicCmpXchg {
		n = 2
	}
	return p.memory(in, rest, n)
}

// memory reads "[BASE+OFF]" then n operands (B, C) then an optional
// space and, for loads, "volatile".
func (p *parser) memory(in *Instr, rest string, n int) error {
	if !strings.HasPrefix(rest, "[") {
		return fmt.Errorf("want [address], got %q", rest)
	}
	addr, rest, ok := strings.Cut(rest[1:], "]")
	if !ok {
		return fmt.Errorf("unterminated address")
	}
	base, off, err := symWithOff(addr)
	if err != nil {
		return err
	}
	in.Off = off
	if strings.HasPrefix(base, "s") {
		id, err := parseNumbered(base, "s")
		if err != nil {
			return err
		}
		in.Slot = p.slotRef(id)
	} else if in.A, err = operand(base); err != nil {
		return err
	}
	words := strings.Fields(strings.ReplaceAll(rest, ",", " "))
	if len(words) < n {
		return fmt.Errorf("want %d operands after the address", n)
	}
	for i, w := range words[:n] {
		o, err := operand(w)
		if err != nil {
			return err
		}
		if i == 0 {
			in.B = o
		} else {
			in.C = o
		}
	}
	words = words[n:]
	if len(words) > 0 && words[0] != "volatile" {
		found := false
		for s := SpaceStack; s <= SpaceGlobal; s++ {
			if s.String() == words[0] {
				in.Space, found = s, true
			}
		}
		if !found {
			return fmt.Errorf("unknown space %q", words[0])
		}
		words = words[1:]
	}
	if len(words) > 0 && words[0] == "volatile" && (in.Op == OpLoad || in.Op == OpStore) {
		in.Volatile, words = true, words[1:]
	}
	if len(words) > 0 {
		return fmt.Errorf("unexpected %q", strings.Join(words, " "))
	}
	return nil
}

func (p *parser) branch(in *Instr, rest string) error {
	w := strings.Fields(rest)
	if len(w) != 7 || w[3] != "goto" || w[5] != "else" {
		return fmt.Errorf("want if A COND B goto bN else bM")
	}
	in.Op = OpBranch
	var err error
	if in.A, err = operand(w[0]); err != nil {
		return err
	}
	if in.B, err = operand(w[2]); err != nil {
		return err
	}
	name := strings.TrimSuffix(w[1], "32")
	in.W32 = name != w[1]
	found := false
	for c := Eq; c <= Set; c++ {
		if c.String() == name {
			in.Cond, found = c, true
		}
	}
	if !found {
		return fmt.Errorf("unknown comparison %q", w[1])
	}
	if in.Then, err = p.blockRef(w[4]); err != nil {
		return err
	}
	in.Else, err = p.blockRef(w[6])
	return err
}

func callInstr(in *Instr, line string) error {
	head, args, ok := strings.Cut(line, "(")
	if !ok || !strings.HasSuffix(args, ")") {
		return fmt.Errorf("want a call with (arguments)")
	}
	args = strings.TrimSuffix(args, ")")
	if strings.TrimSpace(args) != "" {
		for _, a := range strings.Split(args, ",") {
			o, err := operand(strings.TrimSpace(a))
			if err != nil {
				return err
			}
			in.Args = append(in.Args, o)
		}
	}
	op, target, _ := strings.Cut(head, " ")
	switch {
	case op == "call":
		in.Op = OpCall
		n, err := strconv.ParseInt(target, 10, 64)
		in.Imm = n
		return err
	case op == "callfunc":
		in.Op, in.Sym = OpCallFunc, target
		if target == "" {
			return fmt.Errorf("callfunc without a function")
		}
		return nil
	}
	in.Op = OpCall
	var err error
	in.Size, _, err = memTypeOf(strings.TrimPrefix(op, "ldpkt."))
	return err
}

func (p *parser) blockRef(s string) (*Block, error) {
	id, err := parseNumbered(strings.TrimSpace(s), "b")
	if err != nil {
		return nil, err
	}
	return p.block(id), nil
}

// operand reads "rN" or a decimal immediate.
func operand(s string) (Operand, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "r") {
		r, err := parseReg(s)
		return R(r), err
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return Operand{}, fmt.Errorf("want a register or a number, got %q", s)
	}
	return Imm(n), nil
}

func operandPair(s string) (a, b Operand, err error) {
	x, y, ok := strings.Cut(s, ",")
	if !ok {
		return a, b, fmt.Errorf("want two operands, got %q", s)
	}
	if a, err = operand(x); err != nil {
		return a, b, err
	}
	b, err = operand(y)
	return a, b, err
}

// symWithOff reads "NAME", "NAME+N" or "NAME-N".
func symWithOff(s string) (string, int64, error) {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexAny(s, "+-"); i > 0 {
		if n, err := strconv.ParseInt(s[i:], 10, 64); err == nil {
			return s[:i], n, nil
		}
	}
	if s == "" || strings.ContainsAny(s, " ,") {
		return "", 0, fmt.Errorf("bad symbol %q", s)
	}
	return s, 0, nil
}

// memTypeOf reads "u8".."u64", "s8".."s64".
func memTypeOf(s string) (size int, signed bool, err error) {
	bits, err := strconv.Atoi(s[min(1, len(s)):])
	if err != nil || len(s) < 2 || (s[0] != 'u' && s[0] != 's') || (bits != 8 && bits != 16 && bits != 32 && bits != 64) {
		return 0, false, fmt.Errorf("bad memory type %q", s)
	}
	return bits / 8, s[0] == 's', nil
}

// toks reads space-separated words of a header line, recording the first
// error.
type toks struct {
	s   string
	err error
}

func (t *toks) more() bool { return strings.TrimSpace(t.s) != "" }

func (t *toks) rest() string { return strings.TrimSpace(t.s) }

func (t *toks) word() string {
	t.s = strings.TrimLeft(t.s, " ")
	w, rest, _ := strings.Cut(t.s, " ")
	t.s = rest
	if w == "" && t.err == nil {
		t.err = fmt.Errorf("unexpected end of line")
	}
	return w
}

func (t *toks) take(w string) bool {
	s := strings.TrimLeft(t.s, " ")
	if s == w || strings.HasPrefix(s, w+" ") {
		t.s = strings.TrimPrefix(s, w)
		return true
	}
	return false
}

func (t *toks) expect(w string) {
	if got := t.word(); got != w && t.err == nil {
		t.err = fmt.Errorf("want %q, got %q", w, got)
	}
}

func (t *toks) int() int64 {
	w := t.word()
	n, err := strconv.ParseInt(w, 10, 64)
	if err != nil && t.err == nil {
		t.err = fmt.Errorf("want a number, got %q", w)
	}
	return n
}

// quoted reads a Go-quoted string (the printer's %q).
func (t *toks) quoted() string {
	s := strings.TrimLeft(t.s, " ")
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		if t.err == nil {
			t.err = fmt.Errorf("want a quoted string at %q", s)
		}
		return ""
	}
	t.s = s[len(q):]
	v, _ := strconv.Unquote(q)
	return v
}

// unrollSuffix splits the unroll pragma Unroll.suffix prints off a jump's
// or branch's text.
func unrollSuffix(rest string) (string, Unroll, error) {
	i := strings.LastIndex(rest, " !")
	if i < 0 {
		return rest, 0, nil
	}
	switch w := rest[i+2:]; {
	case w == "likely" || w == "unlikely":
		return rest, 0, nil // a branch hint, with no pragma after it
	case w == "nounroll":
		return rest[:i], UnrollNever, nil
	case w == "unroll":
		return rest[:i], UnrollFull, nil
	case strings.HasPrefix(w, "unroll="):
		n, err := strconv.ParseInt(w[len("unroll="):], 10, 32)
		if err != nil || n <= 0 {
			return "", 0, fmt.Errorf("bad unroll count %q", w)
		}
		return rest[:i], Unroll(n), nil
	}
	return "", 0, fmt.Errorf("unexpected %q", rest[i+1:])
}
