package bpfasm

import (
	"fmt"
	"strings"
)

// stmt is one asm statement: the text between separators (newline or ';')
// with comments removed, and the line it is on.
type stmt struct {
	text string
	line int
}

// statements splits text into statements, dropping /* */, // and #
// comments.
func statements(text string) []stmt {
	var out []stmt
	var cur strings.Builder
	line, start := 1, 1
	flush := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			out = append(out, stmt{text: s, line: start})
		}
		cur.Reset()
		start = line
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case strings.HasPrefix(text[i:], "/*"):
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				end = len(text) - i - 2
			}
			line += strings.Count(text[i:i+2+end], "\n")
			i += end + 3
			cur.WriteByte(' ')
		case strings.HasPrefix(text[i:], "//") || c == '#':
			for i+1 < len(text) && text[i+1] != '\n' {
				i++
			}
		case c == '\n':
			flush()
			line++
			start = line
		case c == ';':
			flush()
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tNum
	tLabelRef // 1f, 1b: the next or previous numeric label 1
	tPunct
)

type token struct {
	kind tokKind
	text string
}

// puncts are the operators, longest first so that the scan takes the
// longest match.
var puncts = []string{
	"s>>=", "<<=", ">>=", "s>=", "s<=", "s/=", "s%=",
	"s>", "s<", "==", "!=", ">=", "<=", "+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=",
	"=", "<", ">", "&", "*", "(", ")", "+", "-", ",", "[", "]", ":",
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentChar(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// tokenize splits one statement; a character no token starts with is
// returned as a one-character punct token for the parser to reject.
func tokenize(s string) []token {
	var toks []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == 's' && i+1 < len(s) && strings.ContainsRune("<>/%", rune(s[i+1])):
			p := matchPunct(s[i:])
			if p == "" {
				p = "s"
			}
			toks = append(toks, token{tPunct, p})
			i += len(p)
		case isIdentStart(c):
			j := i + 1
			for j < len(s) && isIdentChar(s[j]) {
				j++
			}
			toks = append(toks, token{tIdent, s[i:j]})
			i = j
		case c >= '0' && c <= '9':
			j := i + 1
			for j < len(s) && isIdentChar(s[j]) {
				j++
			}
			num := s[i:j]
			kind := tNum
			if last := num[len(num)-1]; (last == 'f' || last == 'b') && !strings.HasPrefix(num, "0x") && !strings.HasPrefix(num, "0X") {
				kind = tLabelRef
			}
			toks = append(toks, token{kind, num})
			i = j
		default:
			p := matchPunct(s[i:])
			if p == "" {
				p = s[i : i+1]
			}
			toks = append(toks, token{tPunct, p})
			i += len(p)
		}
	}
	return toks
}

func matchPunct(s string) string {
	for _, p := range puncts {
		if strings.HasPrefix(s, p) {
			return p
		}
	}
	return ""
}

// firstWord is a statement's first word: its directive or mnemonic.
func firstWord(s string) string {
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i]
	}
	return s
}

// maxRept bounds what .rept may expand to, in statements.
const maxRept = 1 << 20

// expandRept repeats the statements between ".rept N" and its ".endr" N
// times (nested ones inside out), as the assembler does.
func expandRept(in []stmt) ([]stmt, error) {
	var out []stmt
	for i := 0; i < len(in); i++ {
		s := in[i]
		switch firstWord(s.text) {
		case ".endr":
			return nil, &Error{Line: s.line, Token: ".endr", Msg: ".endr without .rept"}
		case ".rept":
		default:
			out = append(out, s)
			continue
		}
		p := &parser{toks: tokenize(strings.TrimPrefix(s.text, ".rept")), line: s.line, stmt: s.text}
		n, err := p.imm()
		if err == nil {
			err = p.end()
		}
		if err != nil {
			return nil, err
		}
		depth, end := 1, -1
		for j := i + 1; j < len(in) && end < 0; j++ {
			switch firstWord(in[j].text) {
			case ".rept":
				depth++
			case ".endr":
				if depth--; depth == 0 {
					end = j
				}
			}
		}
		if end < 0 {
			return nil, &Error{Line: s.line, Token: ".rept", Msg: ".rept without .endr"}
		}
		body, err := expandRept(in[i+1 : end])
		if err != nil {
			return nil, err
		}
		if n < 0 || n*int64(len(body)) > maxRept-int64(len(out)) {
			return nil, &Error{Line: s.line, Token: ".rept", Msg: fmt.Sprintf("repeats %d times: at most %d statements", n, maxRept)}
		}
		for range n {
			out = append(out, body...)
		}
		i = end
	}
	return out, nil
}

// expandConditionals keeps the statements that .ifc A, B (A and B the
// same text) or .ifnc A, B select, up to .else or .endif, as the GNU
// assembler does; bpf_experimental.h picks an encoding by register so.
func expandConditionals(in []stmt) ([]stmt, error) {
	var out []stmt
	// keep has one entry per open conditional: whether its current arm is
	// kept; parent whether every enclosing arm is.
	var keep, parent []bool
	on := func() bool { return len(keep) == 0 || keep[len(keep)-1] && parent[len(parent)-1] }
	for _, s := range in {
		switch w := firstWord(s.text); w {
		case ".ifc", ".ifnc":
			a, b, ok := strings.Cut(strings.TrimPrefix(s.text, w), ",")
			if !ok {
				return nil, &Error{Line: s.line, Token: s.text, Msg: w + " needs two strings separated by a comma"}
			}
			same := strings.TrimSpace(a) == strings.TrimSpace(b)
			parent = append(parent, on())
			keep = append(keep, same == (w == ".ifc"))
		case ".else":
			if len(keep) == 0 {
				return nil, &Error{Line: s.line, Token: w, Msg: ".else without .ifc"}
			}
			keep[len(keep)-1] = !keep[len(keep)-1]
		case ".endif":
			if len(keep) == 0 {
				return nil, &Error{Line: s.line, Token: w, Msg: ".endif without .ifc"}
			}
			keep, parent = keep[:len(keep)-1], parent[:len(parent)-1]
		default:
			if on() {
				out = append(out, s)
			}
		}
	}
	if len(keep) > 0 {
		return nil, &Error{Line: in[len(in)-1].line, Token: ".ifc", Msg: ".ifc without .endif"}
	}
	return out, nil
}
