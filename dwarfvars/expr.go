package dwarfvars

import (
	"fmt"
	"strconv"
	"strings"
)

// PathKind is one step of a binding path.
type PathKind uint8

// Path steps.
const (
	PathField PathKind = iota // .name
	PathArrow                 // ->name
	PathIndex                 // [n], or [i] with IndexExpr
)

// PathElem is one step of an Expr's path.
type PathElem struct {
	Kind  PathKind
	Name  string
	Index int64
	// IndexExpr is an index read from the target, as in "v[i]" or
	// "v[s->n]": another binding expression at the same site.
	IndexExpr *Expr
}

// Expr is a parsed binding expression: a variable with an optional path,
// as in "v", "v->f", "v.f.g", "v[3]", "v[i]", "*v", "&v", "v->a[2].b". Postfix steps
// bind tighter than the prefix operators, as in C.
type Expr struct {
	Text string
	// Var is the variable name ($retval at a return probe).
	Var  string
	Path []PathElem
	// Derefs counts leading '*'; AddrOf is a leading '&'.
	Derefs int
	AddrOf bool
}

func (e Expr) String() string { return e.Text }

// ParseExpr parses a binding expression.
func ParseExpr(s string) (Expr, error) {
	e := Expr{Text: strings.TrimSpace(s)}
	p := &exprParser{s: e.Text}
	p.space()
	for p.peek() == '*' || p.peek() == '&' {
		if p.peek() == '&' {
			if e.AddrOf || e.Derefs > 0 {
				return Expr{}, p.fail("'&' must come first, once")
			}
			e.AddrOf = true
		} else {
			e.Derefs++
		}
		p.i++
		p.space()
	}
	paren := false
	if p.peek() == '(' {
		paren = true
		p.i++
		p.space()
	}
	name := p.ident(true)
	if name == "" {
		return Expr{}, p.fail("expected a variable name")
	}
	// A C++ namespaced or static member variable: ns::C::v.
	for strings.HasPrefix(p.s[p.i:], "::") && name[0] != '$' {
		p.i += 2
		n := p.ident(false)
		if n == "" {
			return Expr{}, p.fail("expected a name after '::'")
		}
		name += "::" + n
	}
	e.Var = name
	for {
		p.space()
		switch {
		case p.eat("->"):
			p.space()
			f := p.ident(false)
			if f == "" {
				return Expr{}, p.fail("expected a member name after '->'")
			}
			e.Path = append(e.Path, PathElem{Kind: PathArrow, Name: f})
		case p.eat("."):
			p.space()
			f := p.ident(false)
			if f == "" {
				return Expr{}, p.fail("expected a member name after '.'")
			}
			e.Path = append(e.Path, PathElem{Kind: PathField, Name: f})
		case p.eat("["):
			p.space()
			j, depth := p.i, 0
			for p.i < len(p.s) && (p.s[p.i] != ']' || depth > 0) {
				switch p.s[p.i] {
				case '[':
					depth++
				case ']':
					depth--
				}
				p.i++
			}
			if p.i >= len(p.s) {
				return Expr{}, p.fail("missing ']'")
			}
			text := strings.TrimSpace(p.s[j:p.i])
			p.i++
			n, err := strconv.ParseInt(text, 0, 64)
			if err == nil {
				if n < 0 || n > 1<<31 {
					return Expr{}, p.fail(fmt.Sprintf("array index %q is out of range", text))
				}
				e.Path = append(e.Path, PathElem{Kind: PathIndex, Index: n})
				break
			}
			ix, err := ParseExpr(text)
			if err != nil || ix.AddrOf {
				return Expr{}, p.fail(fmt.Sprintf("array index %q is neither a constant nor a variable expression", text))
			}
			e.Path = append(e.Path, PathElem{Kind: PathIndex, IndexExpr: &ix})
		case paren && p.eat(")"):
			paren = false
		case p.i >= len(p.s) && !paren:
			return e, nil
		default:
			if paren && p.i >= len(p.s) {
				return Expr{}, p.fail("missing ')'")
			}
			return Expr{}, p.fail(fmt.Sprintf("unexpected %q", p.s[p.i:]))
		}
	}
}

type exprParser struct {
	s string
	i int
}

func (p *exprParser) fail(msg string) error {
	return fmt.Errorf("binding expression %q: column %d: %s", p.s, p.i+1, msg)
}

func (p *exprParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *exprParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *exprParser) eat(tok string) bool {
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

// ident reads a C identifier ($ allowed first for $retval when dollar).
func (p *exprParser) ident(dollar bool) string {
	j := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		ok := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || p.i > j && c >= '0' && c <= '9' ||
			dollar && p.i == j && c == '$'
		if !ok {
			break
		}
		p.i++
	}
	return p.s[j:p.i]
}
