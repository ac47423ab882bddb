// Package bpfasm assembles BPF inline asm text, in the syntax clang's BPF
// target accepts (llvm/lib/Target/BPF: "r0 = *(u32 *)(r1 + 8)",
// "if w1 s> 5 goto l0_%=", "call 1", "r1 = map ll", ...), into cilium/ebpf
// asm instructions. Operand references (%0, %[name], %=) are replaced first,
// the way clang prints them, then the text is parsed statement by statement.
package bpfasm

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cilium/ebpf/asm"
)

// Kind says what an operand stands for in the asm text.
type Kind uint8

const (
	// KindReg is an "r" operand: a register, printed "rN".
	KindReg Kind = iota
	// KindImm is an "i" operand with a constant value.
	KindImm
	// KindSym is an "i" operand naming a symbol (a map, a global, a
	// function): "r1 = %[map] ll" loads its address, "call %[f]" calls it.
	KindSym
	// KindMem is an "m" operand: memory at the address in a register,
	// printed "(rN + 0)" for "*(u64 *)%[x]".
	KindMem
)

// Operand is the value one asm operand reference stands for.
type Operand struct {
	// Name is the symbolic name ([name]) or "" when the operand has none.
	Name string
	Kind Kind
	Reg  asm.Register
	Imm  int64
	Sym  string
}

func (o Operand) text() string {
	switch o.Kind {
	case KindReg:
		return fmt.Sprintf("r%d", o.Reg)
	case KindImm:
		return strconv.FormatInt(o.Imm, 10)
	case KindMem:
		return fmt.Sprintf("(r%d + 0)", o.Reg)
	}
	return o.Sym
}

// Error is a malformed asm statement: Line is the line of the asm text
// (counting from 1) and Token the text that could not be assembled.
// Stmt, when known, is the statement (after operand substitution), which
// locates the error in asm text written as one long line.
type Error struct {
	Line  int
	Token string
	Msg   string
	Stmt  string
}

func (e *Error) Error() string {
	s := fmt.Sprintf("inline asm line %d: %s", e.Line, e.Msg)
	if e.Token != "" {
		s += fmt.Sprintf(" at %q", e.Token)
	}
	if e.Stmt != "" && e.Stmt != e.Token {
		s += fmt.Sprintf(" in %q", e.Stmt)
	}
	return s
}

// substitute replaces operand references: %N and %[name] by the operand's
// text, %= by id (a number unique to the asm statement, for labels) and %%
// by %.
func substitute(text string, ops []Operand, id int) (string, error) {
	var b strings.Builder
	line := 1
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\n' {
			line++
		}
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		ref, n, err := operandRef(text[i+1:], ops, id)
		if err != nil {
			return "", &Error{Line: line, Token: text[i:min(len(text), i+2+n)], Msg: err.Error()}
		}
		b.WriteString(ref)
		i += n
	}
	return b.String(), nil
}

// operandRef resolves the reference after a '%' in rest; n is how many
// bytes of rest it took.
func operandRef(rest string, ops []Operand, id int) (text string, n int, err error) {
	switch {
	case rest == "":
		return "", 0, fmt.Errorf("'%%' at the end of the asm text")
	case rest[0] == '%':
		return "%", 1, nil
	case rest[0] == '=':
		return strconv.Itoa(id), 1, nil
	case rest[0] == '[':
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return "", len(rest), fmt.Errorf("unterminated operand name")
		}
		name := rest[1:end]
		for _, o := range ops {
			if o.Name == name && name != "" {
				return o.text(), end + 1, nil
			}
		}
		return "", end, fmt.Errorf("no operand named %q", name)
	case rest[0] >= '0' && rest[0] <= '9':
		n = 0
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		k, _ := strconv.Atoi(rest[:n])
		if k >= len(ops) {
			return "", n, fmt.Errorf("operand %%%d does not exist (the statement has %d)", k, len(ops))
		}
		return ops[k].text(), n, nil
	}
	return "", 1, fmt.Errorf("unsupported operand modifier")
}
