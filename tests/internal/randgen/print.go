package randgen

import (
	"fmt"
	"sort"
	"strings"
)

// Expr prints e as C.
func (e *Expr) String() string {
	switch e.Op {
	case OpConst:
		if e.Sub != "" {
			return e.Sub
		}
		return constText(e.T, e.V)
	case OpVar:
		return e.Var.Name
	case OpIndex:
		return fmt.Sprintf("%s[%s]", e.Var.Name, e.Args[0])
	case OpField:
		return e.Var.Name + "." + e.Field.Name
	case OpUnary:
		return "(" + e.Sub + e.Args[0].String() + ")"
	case OpBinary, OpLogical:
		return fmt.Sprintf("(%s %s %s)", e.Args[0], e.Sub, e.Args[1])
	case OpCond:
		return fmt.Sprintf("(%s ? %s : %s)", e.Args[0], e.Args[1], e.Args[2])
	case OpComma:
		return fmt.Sprintf("(%s, %s)", e.Args[0], e.Args[1])
	case OpCast:
		return fmt.Sprintf("((%s)%s)", e.T.Name, e.Args[0])
	case OpAssign:
		return fmt.Sprintf("(%s %s %s)", e.Args[0], e.Sub, e.Args[1])
	case OpIncDec:
		if e.Post {
			return fmt.Sprintf("(%s%s)", e.Args[0], e.Sub)
		}
		return fmt.Sprintf("(%s%s)", e.Sub, e.Args[0])
	case OpCall, OpSafe:
		name := e.Sub
		if e.Op == OpCall {
			name = e.Fn.Name
		}
		var args []string
		for _, a := range e.Args {
			args = append(args, a.String())
		}
		return name + "(" + strings.Join(args, ", ") + ")"
	}
	return "?"
}

type printer struct {
	b strings.Builder
}

func (p *printer) line(depth int, format string, args ...any) {
	p.b.WriteString(strings.Repeat("\t", depth))
	fmt.Fprintf(&p.b, format, args...)
	p.b.WriteByte('\n')
}

func declText(v *Var) string {
	q := ""
	if v.Volatile {
		q = "volatile "
	}
	switch v.Kind {
	case Array:
		return fmt.Sprintf("%s%s %s[%d]", q, v.T.Name, v.Name, v.N)
	case Struct:
		return fmt.Sprintf("%sstruct %s %s", q, v.S.Name, v.Name)
	}
	return fmt.Sprintf("%s%s %s", q, v.T.Name, v.Name)
}

func (p *printer) decl(depth int, d *Decl) {
	v := d.Var
	switch v.Kind {
	case Scalar:
		p.line(depth, "%s = %s;", declText(v), d.Init.Elems[0])
	case Array:
		var es []string
		for _, e := range d.Init.Elems {
			es = append(es, e.String())
		}
		if len(es) == 0 {
			es = []string{"0"}
		}
		p.line(depth, "%s = { %s };", declText(v), strings.Join(es, ", "))
	case Struct:
		var es []string
		for i, e := range d.Init.Fields {
			if e != nil {
				es = append(es, fmt.Sprintf(".%s = %s", v.S.Fields[i].Name, e))
			}
		}
		if len(es) == 0 {
			es = []string{"0"}
		}
		p.line(depth, "%s = { %s };", declText(v), strings.Join(es, ", "))
	}
}

func (p *printer) stmts(depth int, ss []*Stmt) {
	for _, s := range ss {
		p.stmt(depth, s)
	}
}

func (p *printer) stmt(depth int, s *Stmt) {
	switch s.Kind {
	case SExpr:
		p.line(depth, "%s;", s.E)
	case SIf:
		p.line(depth, "if (%s) {", s.E)
		p.stmts(depth+1, s.Body)
		if len(s.Else) > 0 {
			p.line(depth, "} else {")
			p.stmts(depth+1, s.Else)
		}
		p.line(depth, "}")
	case SFor:
		p.line(depth, "for (int %s = 0; %s < %d; %s++) {", s.Var.Name, s.Var.Name, s.N, s.Var.Name)
		p.stmts(depth+1, s.Body)
		p.line(depth, "}")
	case SSwitch:
		p.line(depth, "switch (%s) {", s.E)
		pt := promote(s.E.T)
		for _, c := range s.Cases {
			if c.Default {
				p.line(depth, "default:")
			} else {
				p.line(depth, "case %s:", constText(pt, c.Val))
			}
			p.stmts(depth+1, c.Body)
			if c.Break {
				p.line(depth+1, "break;")
			}
		}
		p.line(depth, "}")
	case SBlock:
		p.line(depth, "{")
		p.stmts(depth+1, s.Body)
		p.line(depth, "}")
	case SDecl:
		p.line(depth, "%s = %s;", declText(s.Var), s.E)
	case SBreak:
		p.line(depth, "break;")
	case SContinue:
		p.line(depth, "continue;")
	case SCopy:
		p.line(depth, "%s = %s;", s.Var.Name, s.Src.Name)
	case SReturn:
		p.line(depth, "return %s;", s.E)
	}
}

var safeText = map[string]string{
	"sdiv32": "static __always_inline int sdiv32(int a, int b) { return (b == 0 || (a == (-2147483647 - 1) && b == -1)) ? a : a / b; }",
	"smod32": "static __always_inline int smod32(int a, int b) { return (b == 0 || (a == (-2147483647 - 1) && b == -1)) ? a : a % b; }",
	"udiv32": "static __always_inline unsigned int udiv32(unsigned int a, unsigned int b) { return b == 0 ? a : a / b; }",
	"umod32": "static __always_inline unsigned int umod32(unsigned int a, unsigned int b) { return b == 0 ? a : a % b; }",
	"sdiv64": "static __always_inline long sdiv64(long a, long b) { return (b == 0 || (a == (-9223372036854775807L - 1) && b == -1)) ? a : a / b; }",
	"smod64": "static __always_inline long smod64(long a, long b) { return (b == 0 || (a == (-9223372036854775807L - 1) && b == -1)) ? a : a % b; }",
	"udiv64": "static __always_inline unsigned long udiv64(unsigned long a, unsigned long b) { return b == 0 ? a : a / b; }",
	"umod64": "static __always_inline unsigned long umod64(unsigned long a, unsigned long b) { return b == 0 ? a : a % b; }",
}

// Source prints the program.
func (prog *Program) Source() string {
	p := &printer{}
	p.line(0, "/* randgen seed %d */", prog.Seed)
	p.line(0, "#include <linux/types.h>")
	p.line(0, "#include <linux/bpf.h>")
	p.line(0, "#include <bpf/bpf_helpers.h>")
	p.line(0, "")
	p.line(0, "struct {")
	p.line(1, "__uint(type, BPF_MAP_TYPE_ARRAY);")
	p.line(1, "__uint(max_entries, %d);", max(1, len(prog.Outs)))
	p.line(1, "__type(key, __u32);")
	p.line(1, "__type(value, __u64);")
	p.line(0, "} out SEC(\".maps\");")
	p.line(0, "")
	p.line(0, "enum E0 { E0_A = -3, E0_B = 1, E0_C = 1000 };")
	p.line(0, "enum E1 { E1_A, E1_B = 7, E1_C = 40000 };")
	for _, st := range prog.Structs {
		p.line(0, "struct %s {", st.Name)
		for _, f := range st.Fields {
			if f.Width > 0 {
				p.line(1, "%s %s : %d;", f.Base.Name, f.Name, f.Width)
			} else {
				p.line(1, "%s %s;", f.Base.Name, f.Name)
			}
		}
		p.line(0, "};")
	}
	var names []string
	for n := range prog.safeUsed {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p.line(0, "%s", safeText[n])
	}
	for _, f := range prog.Funcs {
		p.line(0, "")
		attr := "static"
		if f.NoInline {
			attr = "static __attribute__((noinline))"
		}
		var ps []string
		for _, v := range f.Params {
			ps = append(ps, declText(v))
		}
		p.line(0, "%s %s %s(%s)", attr, f.Ret.Name, f.Name, strings.Join(ps, ", "))
		p.line(0, "{")
		for _, d := range f.Decls {
			p.decl(1, d)
		}
		p.stmts(1, f.Body)
		p.line(0, "}")
	}
	p.line(0, "")
	p.line(0, "#define PUT(k, v) do { key = (k); val = (v); bpf_map_update_elem(&out, &key, &val, BPF_ANY); } while (0)")
	p.line(0, "")
	p.line(0, "SEC(\"socket\")")
	p.line(0, "int prog(struct __sk_buff *skb)")
	p.line(0, "{")
	p.line(1, "__u32 key;")
	p.line(1, "__u64 val;")
	p.line(1, "__u64 in[8];")
	p.line(1, "if (bpf_skb_load_bytes(skb, 0, in, sizeof(in)) < 0)")
	p.line(2, "return 1;")
	p.line(1, "volatile __u32 len = skb->len;")
	for _, d := range prog.Main.Decls {
		p.decl(1, d)
	}
	p.stmts(1, prog.Main.Body)
	for i, e := range prog.Outs {
		p.line(1, "PUT(%d, (__u64)%s);", i, e)
	}
	p.line(1, "return 0;")
	p.line(0, "}")
	p.line(0, "")
	p.line(0, "char LICENSE[] SEC(\"license\") = \"GPL\";")
	return p.b.String()
}
