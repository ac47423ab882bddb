package frontend

import (
	"reflect"
	"strconv"
	"strings"

	"modernc.org/cc/v4"
)

// clang folds a const local with a constant initializer where a constant
// is asked for: bpf_experimental.h's bpf_assert_range and friends copy
// their bound into `const typeof(RHS) rhs_var = (RHS);` and then assert
// _Static_assert(__builtin_constant_p(rhs_var), ...). cc decides such an
// assertion false. When the assertions are all cc refuses in a file, Parse
// translates it again with every _Static_assert's condition wrapped in
// `1 || (e)`, which cc folds to true, and holds e to what cc knows itself:
// one outside a function fails unless cc finds e true; one inside a
// function that cc does not find true goes to lower
// (Unit.LateStaticAssert), which knows the const locals' values.

// staticAssertError is in each of cc's errors for a false assertion.
const staticAssertError = ": assertion failed: "

// staticAssertWrap wraps the conditions of the second translation.
const staticAssertWrap = "#define _Static_assert(e, ...) _Static_assert(1 || (e), __VA_ARGS__)\n"

// lateAssert is an assertion lower decides: its condition and message.
type lateAssert struct {
	cond cc.ExpressionNode
	msg  string
}

// onlyAssertFailures reports whether every error cc reported is a false
// static assertion.
func onlyAssertFailures(err error) bool {
	n := 0
	for _, line := range strings.Split(err.Error(), "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		if !strings.Contains(line, staticAssertError) {
			return false
		}
		n++
	}
	return n > 0
}

// translateLateAsserts translates sources again with the assertions'
// conditions wrapped; ok is false when cc refuses the file still, or an
// assertion fails that a const local cannot make true.
func translateLateAsserts(cfg *cc.Config, sources []cc.Source) (*cc.AST, map[*cc.StaticAssertDeclaration]lateAssert, bool) {
	last := len(sources) - 1 // the main file comes after the predefined sources
	wrapped := append(sources[:last:last], cc.Source{Name: "<bpfcc-static-assert>", Value: staticAssertWrap}, sources[last])
	ast, err := translate(cfg, wrapped)
	if err != nil {
		return nil, nil, false
	}
	late := map[*cc.StaticAssertDeclaration]lateAssert{}
	ok := true
	for l := ast.TranslationUnit; l != nil && ok; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		inFunc := ed != nil && ed.Case == cc.ExternalDeclarationFuncDef
		walkCC(reflect.ValueOf(ed), func(n any) bool {
			sa, isAssert := n.(*cc.StaticAssertDeclaration)
			if !isAssert || !ok {
				return ok
			}
			cond := wrappedCondition(sa)
			if cond == nil {
				ok = false
				return ok
			}
			switch v := cond.Value(); {
			case v != cc.Unknown && v != nil && !isZeroValue(v):
				// True for cc.
			case !inFunc:
				ok = false
			default:
				// cc's false may be a __builtin_constant_p of a const local.
				late[sa] = lateAssert{cond: cond, msg: assertMessage(sa)}
			}
			return ok
		})
	}
	return ast, late, ok
}

// wrappedCondition returns e of the condition `1 || (e)`.
func wrappedCondition(sa *cc.StaticAssertDeclaration) cc.ExpressionNode {
	ce, ok := sa.ConstantExpression.(*cc.ConstantExpression)
	if !ok {
		return nil
	}
	or, ok := ce.ConditionalExpression.(*cc.LogicalOrExpression)
	if !ok || or.Case != cc.LogicalOrExpressionLOr {
		return nil
	}
	return or.LogicalAndExpression
}

func isZeroValue(v cc.Value) bool {
	switch x := v.(type) {
	case cc.Int64Value:
		return x == 0
	case cc.UInt64Value:
		return x == 0
	}
	return false
}

// assertMessage is an assertion's message as cc prints it.
func assertMessage(sa *cc.StaticAssertDeclaration) string {
	s := sa.Token4.SrcStr()
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return s
}

// LateStaticAssert returns the condition and message of a _Static_assert
// in a function that lower decides (see translateLateAsserts).
func (u *Unit) LateStaticAssert(sa *cc.StaticAssertDeclaration) (cc.ExpressionNode, string, bool) {
	a, ok := u.lateAsserts[sa]
	return a.cond, a.msg, ok
}

// walkCC visits the AST nodes under v (exported pointer fields to cc's
// node structs: the syntax tree, not the resolved links) until visit
// returns false.
func walkCC(v reflect.Value, visit func(any) bool) bool {
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return true
	}
	if !visit(v.Interface()) {
		return false
	}
	s := v.Elem()
	t := s.Type()
	for i := 0; i < s.NumField(); i++ {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		fv := s.Field(i)
		switch {
		case sf.Type.Kind() == reflect.Interface && sf.Type.PkgPath() == ccPkg && !fv.IsNil():
			fv = fv.Elem()
		case sf.Type.Kind() != reflect.Pointer:
			continue
		}
		if fv.Kind() == reflect.Pointer && fv.Type().Elem().PkgPath() == ccPkg && !walkCC(fv, visit) {
			return false
		}
	}
	return true
}
