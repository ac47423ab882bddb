package frontend

import (
	"slices"
	"strings"

	"modernc.org/cc/v4"
	"modernc.org/token"
)

// Func describes one function defined in a unit: what the binder needs to
// decide whether it is a handler, and what to bind.
type Func struct {
	Name string
	// Params are the parameter names, in order (none for (void)).
	Params []string
	// Section is the SEC() of a program; "" for a function without one
	// and for a static inline function, which is never a program
	// (BPF_KPROBE-style macros give the inner function the program's
	// section through typeof()).
	Section string
	// Static: internal linkage.
	Static bool
	// Inline: declared inline, __always_inline or noinline — a function
	// written to be called.
	Inline bool
	// CalledBy names the functions whose bodies call it or take its
	// address, and the file-scope variables whose initializers refer to
	// it; sorted.
	CalledBy []string
	// CtxFirst: its first parameter is a context pointer: struct pt_regs *
	// or struct user_pt_regs * (through typedefs such as
	// bpf_user_pt_regs_t), or void *ctx.
	CtxFirst bool
	Pos      token.Position
}

// Config is one file-scope SEC("config") string.
type Config struct {
	Text string
	Pos  token.Position
}

// Shape is a unit's functions, in definition order (the first definition of
// a name), and its SEC("config") strings, in source order.
type Shape struct {
	Funcs  []Func
	Config []Config
}

// Describe walks u's file-scope declarations once and describes its
// functions and config strings. Function bodies and initializers are read
// only for the references they make.
func Describe(u *Unit) *Shape {
	sh := &Shape{}
	if u == nil || u.AST == nil {
		return sh
	}
	index := map[string]int{}
	calledBy := map[string][]string{}
	for n := u.AST.TranslationUnit; n != nil; n = n.TranslationUnit {
		ed := n.ExternalDeclaration
		if ed == nil {
			continue
		}
		switch ed.Case {
		case cc.ExternalDeclarationFuncDef:
			fd := ed.FunctionDefinition
			f, ok := describeFunc(fd.Declarator)
			if !ok {
				continue
			}
			if _, dup := index[f.Name]; !dup {
				index[f.Name] = len(sh.Funcs)
				sh.Funcs = append(sh.Funcs, f)
			}
			funcRefs(fd.CompoundStatement, func(callee string) {
				if callee != f.Name {
					calledBy[callee] = append(calledBy[callee], f.Name)
				}
			})
		case cc.ExternalDeclarationDecl:
			sh.Config = append(sh.Config, declConfigs(ed.Declaration, calledBy)...)
		}
	}
	for callee, callers := range calledBy {
		if i, ok := index[callee]; ok {
			slices.Sort(callers)
			sh.Funcs[i].CalledBy = slices.Compact(callers)
		}
	}
	return sh
}

func describeFunc(d *cc.Declarator) (Func, bool) {
	ft, ok := d.Type().(*cc.FunctionType)
	if !ok {
		return Func{}, false
	}
	attrs := d.Type().Attributes()
	f := Func{
		Name:   d.Name(),
		Static: d.IsStatic() || d.Linkage() != cc.External,
		Inline: d.IsInline() || hasAttr(attrs, "always_inline") || hasAttr(attrs, "noinline") || attrs != nil && attrs.AlwaysInline(),
		Pos:    d.Position(),
	}
	alwaysInline := d.IsInline() || attrs != nil && (attrs.AlwaysInline() || hasAttr(attrs, "always_inline"))
	if !(f.Static && alwaysInline) {
		f.Section = SectionOf(attrs, nil)
	}
	for i, p := range ft.Parameters() {
		if i == 0 {
			f.CtxFirst = isCtxParam(p)
		}
		if p.Type().Kind() != cc.Void {
			f.Params = append(f.Params, p.Name())
		}
	}
	return f, true
}

// declConfigs returns the SEC("config") strings a file-scope declaration
// defines, and notes the functions its initializers refer to.
func declConfigs(decl *cc.Declaration, calledBy map[string][]string) []Config {
	if decl.Case != cc.DeclarationDecl {
		return nil
	}
	var out []Config
	for list := decl.InitDeclaratorList; list != nil; list = list.InitDeclaratorList {
		id := list.InitDeclarator
		d := id.Declarator
		if d == nil || d.IsTypename() || d.Type().Kind() == cc.Function {
			continue
		}
		if id.Initializer != nil {
			funcRefs(id.Initializer, func(callee string) { calledBy[callee] = append(calledBy[callee], d.Name()) })
		}
		sec := SectionOf(d.Type().Attributes(), id.AttributeSpecifierList)
		if pt, ok := d.Type().(*cc.PointerType); ok && sec == "" {
			// cc moves the attributes of a pointer variable's specifiers
			// to the pointed-to type.
			sec = attrString(pt.Elem().Attributes(), "section")
		}
		if sec != "config" {
			continue
		}
		// A config that is not a string literal is lower's error to
		// report; it binds nothing.
		c := Config{Pos: d.Position()}
		if id.Initializer != nil && id.Initializer.Case == cc.InitializerExpr {
			if s, ok := id.Initializer.AssignmentExpression.Value().(cc.StringValue); ok {
				c.Text = strings.TrimRight(string(s), "\x00")
			}
		}
		out = append(out, c)
	}
	return out
}

// SectionOf is the section attribute of a declaration: on its type's
// attributes (a function's SEC()) or on the init-declarator's own list (a
// variable's).
func SectionOf(a *cc.Attributes, list *cc.AttributeSpecifierList) string {
	if v := attrString(a, "section"); v != "" {
		return v
	}
	for ; list != nil; list = list.AttributeSpecifierList {
		if s := attrListString(list.AttributeSpecifier, "section"); s != "" {
			return s
		}
	}
	return ""
}

func attrListString(as *cc.AttributeSpecifier, name string) string {
	if as == nil {
		return ""
	}
	for vl := as.AttributeValueList; vl != nil; vl = vl.AttributeValueList {
		av := vl.AttributeValue
		if av == nil {
			continue
		}
		n := strings.Trim(av.Token.SrcStr(), "_")
		if n != name || av.ArgumentExpressionList == nil {
			continue
		}
		if v, ok := av.ArgumentExpressionList.AssignmentExpression.Value().(cc.StringValue); ok {
			return strings.TrimRight(string(v), "\x00")
		}
	}
	return ""
}

func attrString(a *cc.Attributes, name string) string {
	if a == nil {
		return ""
	}
	for _, n := range []string{name, "__" + name + "__"} {
		for _, v := range a.AttrValue(n) {
			if s, ok := v.(cc.StringValue); ok {
				return strings.TrimRight(string(s), "\x00")
			}
		}
	}
	return ""
}

func hasAttr(a *cc.Attributes, name string) bool {
	return a != nil && (a.IsAttrSet(name) || a.IsAttrSet("__"+name+"__"))
}

// isCtxParam reports whether p is struct pt_regs * (through typedefs), or
// void * named ctx.
func isCtxParam(p *cc.Parameter) bool {
	pt, ok := p.Type().(*cc.PointerType)
	if !ok || p.Type().Kind() != cc.Ptr {
		return false
	}
	elem := pt.Elem()
	if elem.Kind() == cc.Void {
		return p.Name() == "ctx"
	}
	if elem.Kind() != cc.Struct {
		return false
	}
	if st, ok := elem.(interface{ Tag() cc.Token }); ok {
		tag := st.Tag()
		switch tag.SrcStr() {
		case "pt_regs", "user_pt_regs":
			return true
		}
	}
	return false
}

// funcRefs calls f with the name of every function node refers to, in
// the syntax tree under node (see WalkAST).
func funcRefs(node any, f func(string)) {
	WalkAST(node, func(n any) bool {
		if pe, ok := n.(*cc.PrimaryExpression); ok && pe.Case == cc.PrimaryExpressionIdent {
			if d, ok := pe.ResolvedTo().(*cc.Declarator); ok && d.Type() != nil && d.Type().Kind() == cc.Function {
				f(d.Name())
			}
		}
		return true
	})
}
