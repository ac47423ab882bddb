package bind

import (
	"reflect"

	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/frontend"
)

// Func is what decides whether a function without SEC() is a handler that
// --load PROBE binds, or a helper that stays a plain BPF function.
type Func struct {
	// Static: declared static (internal linkage).
	Static bool
	// Inline: declared inline, __always_inline or __attribute__((noinline))
	// — a function written to be called.
	Inline bool
	// Called: another function calls it or takes its address, or a
	// file-scope initializer refers to it.
	Called bool
	// CtxFirst: its first parameter is a context pointer: struct pt_regs *
	// (or a typedef of it, such as bpf_user_pt_regs_t *), or void *ctx.
	CtxFirst bool
}

// IsHandler reports whether --load PROBE makes f a DWARF-bound handler: a
// function with external linkage, not inline or noinline, not called by any
// other function, whose first parameter is a context pointer. Everything
// else stays a helper.
func (f Func) IsHandler() bool { return !f.Static && !f.Inline && !f.Called && f.CtxFirst }

// Funcs describes every function defined in u, by name.
func Funcs(u *frontend.Unit) (out map[string]Func) {
	out = map[string]Func{}
	if u == nil || u.AST == nil {
		return out
	}
	defer func() {
		// A malformed tree leaves the description partial; lower reports
		// the errors.
		recover()
	}()
	called := map[string]bool{}
	for n := u.AST.TranslationUnit; n != nil; n = n.TranslationUnit {
		ed := n.ExternalDeclaration
		if ed == nil {
			continue
		}
		switch ed.Case {
		case cc.ExternalDeclarationFuncDef:
			fd := ed.FunctionDefinition
			d := fd.Declarator
			ft, ok := d.Type().(*cc.FunctionType)
			if !ok {
				continue
			}
			name := d.Name()
			attrs := d.Type().Attributes()
			f := Func{
				Static: d.IsStatic() || d.Linkage() != cc.External,
				Inline: d.IsInline() || hasAttr(attrs, "always_inline") || hasAttr(attrs, "noinline") || attrs != nil && attrs.AlwaysInline(),
			}
			if ps := ft.Parameters(); len(ps) > 0 {
				f.CtxFirst = isCtxParam(ps[0])
			}
			out[name] = f
			refs(fd.CompoundStatement, func(callee string) {
				if callee != name {
					called[callee] = true
				}
			})
		case cc.ExternalDeclarationDecl:
			refs(ed.Declaration, func(callee string) { called[callee] = true })
		}
	}
	for name, f := range out {
		f.Called = called[name]
		out[name] = f
	}
	return out
}

func hasAttr(a *cc.Attributes, name string) bool {
	return a != nil && (a.IsAttrSet(name) || a.IsAttrSet("__"+name+"__"))
}

// isCtxParam reports whether p is struct pt_regs * (through typedefs), or
// void * named ctx.
func isCtxParam(p *cc.Parameter) bool {
	t := p.Type()
	if t.Kind() != cc.Ptr {
		return false
	}
	pt, ok := t.(*cc.PointerType)
	if !ok {
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

// refs calls f with the name of every function that node refers to.
func refs(node any, f func(string)) {
	seen := map[uintptr]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Pointer:
			if v.IsNil() || seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
			if pe, ok := v.Interface().(*cc.PrimaryExpression); ok && pe.Case == cc.PrimaryExpressionIdent {
				if d, ok := pe.ResolvedTo().(*cc.Declarator); ok && d.Type() != nil && d.Type().Kind() == cc.Function {
					f(d.Name())
				}
			}
			walk(v.Elem())
		case reflect.Struct:
			t := v.Type()
			for i := 0; i < v.NumField(); i++ {
				if sf := t.Field(i); sf.IsExported() && !sf.Anonymous {
					walk(v.Field(i))
				}
			}
		}
	}
	walk(reflect.ValueOf(node))
}
