package lower

import "modernc.org/cc/v4"

// cc/v4 applies a declaration's `volatile` to the right object in
// ordinary declarations only: in a parameter list (`const volatile void
// *p`, READ_ONCE's helper) the declarator itself is marked volatile, and in
// a cast's type name (`*(volatile __u64 *)p`, READ_ONCE itself) the
// pointee type carries no qualifier. These helpers read the qualifiers
// from the syntax instead.

// objectVolatile reports whether the object d declares is volatile. In
// `volatile T *p` the qualifier is the pointee's and p an ordinary
// variable; a pointer declarator's object is volatile when its own `*`
// (the one next to the name) is qualified: `T *volatile p`.
func objectVolatile(d *cc.Declarator) bool {
	if d.Pointer == nil {
		// A parameter `volatile int a[]` is a pointer to volatile ints.
		if dd := d.DirectDeclarator; d.IsParam() && dd != nil && (dd.Case == cc.DirectDeclaratorArr ||
			dd.Case == cc.DirectDeclaratorStaticArr || dd.Case == cc.DirectDeclaratorArrStatic || dd.Case == cc.DirectDeclaratorStar) {
			return false
		}
		return d.IsVolatile()
	}
	return qualifiersVolatile(lastPointer(d.Pointer).TypeQualifiers)
}

// pointeeVolatile reports whether the object that dereferencing e reaches
// is volatile by e's syntax: e is a cast to a pointer to volatile, or a
// parameter declared as one.
func pointeeVolatile(e cc.ExpressionNode) bool {
	switch x := stripParens(e).(type) {
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionIdent {
			d, ok := x.ResolvedTo().(*cc.Declarator)
			// Only a parameter keeps the specifiers' volatile on its
			// declarator (see above).
			return ok && d.IsParam() && d.IsVolatile() && d.Pointer != nil && d.Pointer.Pointer == nil
		}
	case *cc.CastExpression:
		return x.Case == cc.CastExpressionCast && x.TypeName != nil && castPointeeVolatile(x.TypeName)
	}
	return false
}

// castPointeeVolatile reports whether type name tn is a pointer to a
// volatile object: with one `*`, the specifiers say so; with more, the
// qualifiers of the `*` before the last.
func castPointeeVolatile(tn *cc.TypeName) bool {
	ad := tn.AbstractDeclarator
	if ad == nil || ad.Pointer == nil || ad.DirectAbstractDeclarator != nil {
		return false
	}
	// The `*` before the last one qualifies what the pointer points to.
	var prev, last *cc.Pointer
	for p := ad.Pointer; p != nil; p = p.Pointer {
		prev, last = last, p
		if p.Case != cc.PointerPtr {
			break
		}
	}
	if prev != nil {
		return qualifiersVolatile(prev.TypeQualifiers)
	}
	for l := tn.SpecifierQualifierList; l != nil; l = l.SpecifierQualifierList {
		if l.TypeQualifier != nil && l.TypeQualifier.Case == cc.TypeQualifierVolatile {
			return true
		}
	}
	return false
}

func lastPointer(p *cc.Pointer) *cc.Pointer {
	for p.Case == cc.PointerPtr && p.Pointer != nil {
		p = p.Pointer
	}
	return p
}

func qualifiersVolatile(q *cc.TypeQualifiers) bool {
	for ; q != nil; q = q.TypeQualifiers {
		if q.TypeQualifier != nil && q.TypeQualifier.Case == cc.TypeQualifierVolatile {
			return true
		}
	}
	return false
}
