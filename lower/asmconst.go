package lower

// Constant values asm operands need: C string literals, the bytes of a constant object, addresses cc leaves unfolded.

import (
	"fmt"
	"strconv"
	"strings"

	"modernc.org/cc/v4"
)

// constObjectBytes evaluates *(long *)&(struct T){...} (bpf_misc.h's
// __imm_insn): the bytes of a compound literal with constant members.
func (fl *fnLowerer) constObjectBytes(e cc.ExpressionNode) ([]byte, bool) {
	u, _ := stripParens(e).(*cc.UnaryExpression)
	if u == nil || u.Case != cc.UnaryExpressionDeref {
		return nil, false
	}
	cl, _ := stripParens(stripAddr(u.CastExpression)).(*cc.PostfixExpression)
	if cl == nil || cl.Case != cc.PostfixExpressionComplit || cl.TypeName == nil {
		return nil, false
	}
	t := cl.TypeName.Type()
	img := &dataImage{buf: make([]byte, typeSize(t))}
	fl.l.constInit(img, 0, t, &cc.Initializer{Case: cc.InitializerInitList, InitializerList: cl.InitializerList})
	if len(img.relocs) > 0 {
		return nil, false // an address is no instruction immediate
	}
	return img.buf, true
}

func stripParens(e cc.ExpressionNode) cc.ExpressionNode {
	for {
		switch x := e.(type) {
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionExpr {
				e = x.ExpressionList
				continue
			}
		case *cc.ExpressionList:
			if x.ExpressionList == nil {
				e = x.AssignmentExpression
				continue
			}
		}
		return e
	}
}

// cString decodes C string literal source: one or more adjacent quoted
// pieces with C escapes.
func cString(src string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c != '"':
			return "", fmt.Errorf("malformed string literal %s", src)
		}
		i++
		for i < len(src) && src[i] != '"' {
			if src[i] != '\\' {
				b.WriteByte(src[i])
				i++
				continue
			}
			n, err := cEscape(src[i:], &b)
			if err != nil {
				return "", err
			}
			i += n
		}
		i++
	}
	return b.String(), nil
}

// cEscape decodes the escape sequence at the start of s (s[0] == '\\').
func cEscape(s string, b *strings.Builder) (int, error) {
	if len(s) < 2 {
		return 0, fmt.Errorf("bad escape at the end of a string")
	}
	simple := map[byte]byte{'n': '\n', 't': '\t', 'r': '\r', 'a': 7, 'b': 8, 'f': 12, 'v': 11, '\\': '\\', '"': '"', '\'': '\'', '?': '?'}
	if c, ok := simple[s[1]]; ok {
		b.WriteByte(c)
		return 2, nil
	}
	if s[1] == 'x' {
		n := 2
		for n < len(s) && strings.IndexByte("0123456789abcdefABCDEF", s[n]) >= 0 {
			n++
		}
		v, err := strconv.ParseUint(s[2:n], 16, 8)
		if err != nil {
			return 0, fmt.Errorf("bad escape %s", s[:n])
		}
		b.WriteByte(byte(v))
		return n, nil
	}
	n := 1
	for n < len(s) && n < 4 && s[n] >= '0' && s[n] <= '7' {
		n++
	}
	if n == 1 {
		return 0, fmt.Errorf("unknown escape \\%c", s[1])
	}
	v, _ := strconv.ParseUint(s[1:n], 8, 16)
	b.WriteByte(byte(v))
	return n, nil
}

// constAddress evaluates an integer constant that cc leaves unfolded
// because it goes through a null pointer: offsetof as libbpf defines it,
// ((unsigned long)&((T *)0)->m[i]), plus or minus constants. Members of
// CO-RE types get their local offsets, as clang's "i" operands do.
func constAddress(e cc.ExpressionNode) (int64, bool) {
	switch v := e.Value().(type) {
	case cc.Int64Value:
		return int64(v), true
	case cc.UInt64Value:
		return int64(v), true
	}
	switch x := e.(type) {
	case *cc.PrimaryExpression, *cc.ExpressionList:
		if s := stripParens(x); s != e {
			return constAddress(s)
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast {
			return constAddress(x.CastExpression)
		}
		return constAddress(x.UnaryExpression)
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionAddrof:
			return constLvalueAddress(x.CastExpression)
		case cc.UnaryExpressionPostfix:
			return constAddress(x.PostfixExpression)
		}
	case *cc.PostfixExpression:
		if x.Case == cc.PostfixExpressionPrimary {
			return constAddress(x.PrimaryExpression)
		}
	case *cc.AdditiveExpression:
		a, ok1 := constAddress(x.AdditiveExpression)
		b, ok2 := constAddress(x.MultiplicativeExpression)
		if !ok1 || !ok2 || isPtr(x.Type()) {
			return 0, false
		}
		if x.Case == cc.AdditiveExpressionSub {
			return a - b, true
		}
		return a + b, true
	}
	return 0, false
}

// constLvalueAddress is the address of an object designated through a
// constant pointer: p->m, s.m, a[i], *p.
func constLvalueAddress(e cc.ExpressionNode) (int64, bool) {
	switch x := stripParens(e).(type) {
	case *cc.CastExpression:
		if x.Case != cc.CastExpressionCast {
			return constLvalueAddress(x.UnaryExpression)
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionPostfix:
			return constLvalueAddress(x.PostfixExpression)
		case cc.UnaryExpressionDeref:
			return constAddress(x.CastExpression)
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionPrimary:
			return constLvalueAddress(x.PrimaryExpression)
		case cc.PostfixExpressionPSelect:
			base, ok := constAddress(x.PostfixExpression)
			return base + fieldOffset(x.Field()), ok
		case cc.PostfixExpressionSelect:
			base, ok := constLvalueAddress(x.PostfixExpression)
			return base + fieldOffset(x.Field()), ok
		case cc.PostfixExpressionIndex:
			idx, ok := constAddress(x.ExpressionList)
			if !ok {
				return 0, false
			}
			base, ok := constLvalueAddress(x.PostfixExpression)
			if !ok {
				base, ok = constAddress(x.PostfixExpression)
			}
			return base + idx*typeSize(x.Type()), ok
		}
	}
	return 0, false
}
