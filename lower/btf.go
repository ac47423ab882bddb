package lower

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cilium/ebpf/btf"
	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/abi"
)

// btfConv converts C types to BTF, caching so each C type maps to one BTF
// type (recursive structs included).
type btfConv struct {
	cache map[cc.Type]btf.Type
	// records maps a struct or union to its BTF by its first field: cc
	// copies a record type to attach attributes (btf_type_tag, const) to
	// it, and the copy is the same type.
	records map[*cc.Field]btf.Type
	typedef map[*cc.Declarator]btf.Type
	ints    map[string]*btf.Int
	// splitBits is lowerer.splitBits: the declared width of a bit-field
	// the front end split, else 0.
	splitBits func(*cc.Field) int64
	// memberTags are the btf_decl_tags of struct members, recordTags those
	// of structs and unions by their first member and of typedefs
	// (fileMemberTags).
	memberTags, recordTags map[*cc.Declarator][]string
}

func newBTFConv() *btfConv {
	return &btfConv{cache: map[cc.Type]btf.Type{}, records: map[*cc.Field]btf.Type{}, typedef: map[*cc.Declarator]btf.Type{}, ints: map[string]*btf.Int{}}
}

func (c *btfConv) intType(name string, size int, enc btf.IntEncoding) *btf.Int {
	if t, ok := c.ints[name]; ok {
		return t
	}
	t := &btf.Int{Name: name, Size: uint32(size), Encoding: enc}
	c.ints[name] = t
	return t
}

// typ converts t, naming it through its typedef when it has one.
func (c *btfConv) typ(t cc.Type) btf.Type {
	if t == nil {
		return &btf.Void{}
	}
	if td := t.Typedef(); td != nil && td.Name() != "" {
		if bt, ok := c.typedef[td]; ok {
			return bt
		}
		x := &btf.Typedef{Name: td.Name(), Tags: c.recordTags[td]}
		c.typedef[td] = x
		x.Type = c.bare(t)
		return x
	}
	return c.bare(t)
}

// tagged converts a pointer's target: its btf_type_tag attributes become
// TYPE_TAGs between the pointer and the type, as clang emits them (the
// kernel reads `__kptr` and `__percpu_kptr` fields of map values there).
func (c *btfConv) tagged(t cc.Type) btf.Type {
	bt := c.typ(t)
	if t == nil || t.Attributes() == nil {
		return bt
	}
	var tags []string
	for _, n := range []string{"btf_type_tag", "__btf_type_tag__"} {
		for _, v := range t.Attributes().AttrValue(n) {
			if s, ok := v.(cc.StringValue); ok {
				if s := strings.TrimRight(string(s), "\x00"); s != "" && !slices.Contains(tags, s) {
					tags = append(tags, s)
				}
			}
		}
	}
	for i := len(tags) - 1; i >= 0; i-- {
		bt = &btf.TypeTag{Value: tags[i], Type: bt}
	}
	return bt
}

// bare converts t ignoring its typedef name.
func (c *btfConv) bare(t cc.Type) btf.Type {
	if bt, ok := c.cache[t]; ok {
		return bt
	}
	switch t.Kind() {
	case cc.Void:
		return &btf.Void{}
	case cc.Bool:
		return c.intType("_Bool", 1, btf.Bool)
	case cc.Char:
		return c.intType("char", 1, btf.Signed)
	case cc.SChar:
		return c.intType("signed char", 1, btf.Signed)
	case cc.UChar:
		return c.intType("unsigned char", 1, btf.Unsigned)
	case cc.Short:
		return c.intType("short", 2, btf.Signed)
	case cc.UShort:
		return c.intType("unsigned short", 2, btf.Unsigned)
	case cc.Int:
		return c.intType("int", 4, btf.Signed)
	case cc.UInt:
		return c.intType("unsigned int", 4, btf.Unsigned)
	case cc.Long:
		return c.intType("long", 8, btf.Signed)
	case cc.ULong:
		return c.intType("unsigned long", 8, btf.Unsigned)
	case cc.LongLong:
		return c.intType("long long", 8, btf.Signed)
	case cc.ULongLong:
		return c.intType("unsigned long long", 8, btf.Unsigned)
	case cc.Int128:
		return c.intType("__int128", 16, btf.Signed)
	case cc.UInt128:
		return c.intType("unsigned __int128", 16, btf.Unsigned)
	case cc.Ptr:
		p := &btf.Pointer{}
		c.cache[t] = p
		p.Target = c.tagged(elemType(t))
		return p
	case cc.Array:
		at := t.(*cc.ArrayType)
		n := at.Len()
		if n < 0 {
			n = 0
		}
		a := &btf.Array{Index: c.intType("__ARRAY_SIZE_TYPE__", 4, btf.Unsigned), Nelems: uint32(n)}
		c.cache[t] = a
		a.Type = c.typ(at.Elem())
		return a
	case cc.Struct, cc.Union:
		return c.record(t)
	case cc.Enum:
		et := t.(*cc.EnumType)
		tag := et.Tag()
		e := &btf.Enum{Name: tag.SrcStr(), Size: uint32(max(t.Size(), 4)), Signed: isSigned(et.UnderlyingType())}
		for _, en := range et.Enumerators() {
			var v uint64
			switch x := en.Value().(type) {
			case cc.Int64Value:
				v = uint64(x)
			case cc.UInt64Value:
				v = uint64(x)
			}
			e.Values = append(e.Values, btf.EnumValue{Name: en.Token.SrcStr(), Value: v})
		}
		c.cache[t] = e
		return e
	case cc.Function:
		ft := t.(*cc.FunctionType)
		return c.proto(ft)
	}
	// Floating point and other kinds: an opaque integer of the right size
	// keeps layouts intact (lower rejects their use).
	size := int(t.Size())
	if size <= 0 {
		size = 1
	}
	return c.intType(fmt.Sprintf(abi.ReservedPrefix+"opaque%d", size), min(size, 16), btf.Unsigned)
}

func (c *btfConv) record(t cc.Type) btf.Type {
	type rec interface {
		NumFields() int
		FieldByIndex(int) *cc.Field
		Tag() cc.Token
	}
	r, ok := t.(rec)
	if !ok {
		return &btf.Void{}
	}
	var f0 *cc.Field
	if r.NumFields() > 0 {
		f0 = r.FieldByIndex(0)
		if bt, ok := c.records[f0]; ok {
			return bt
		}
	}
	tag := r.Tag()
	name := tag.SrcStr()
	size := uint32(max(t.Size(), 0))
	var members *[]btf.Member
	var out btf.Type
	if t.IsIncomplete() {
		kind := btf.FwdStruct
		if t.Kind() == cc.Union {
			kind = btf.FwdUnion
		}
		f := &btf.Fwd{Name: name, Kind: kind}
		c.cache[t] = f
		return f
	}
	var tags []string
	if f0 != nil && f0.Declarator() != nil {
		tags = c.recordTags[f0.Declarator()]
	}
	if t.Kind() == cc.Union {
		u := &btf.Union{Name: name, Size: size, Tags: tags}
		members, out = &u.Members, u
	} else {
		s := &btf.Struct{Name: name, Size: size, Tags: tags}
		members, out = &s.Members, s
	}
	c.cache[t] = out
	if f0 != nil {
		c.records[f0] = out
	}
	var end btf.Bits // where the previous member ends
	for i := 0; i < r.NumFields(); i++ {
		f := r.FieldByIndex(i)
		if !btfMember(f) {
			continue
		}
		m := btf.Member{Name: f.Name(), Type: c.typ(f.Type()), Offset: btf.Bits(f.Offset() * 8)}
		if d := f.Declarator(); d != nil {
			m.Tags = c.memberTags[d]
		}
		size := btf.Bits(8 * typeSize(f.Type()))
		switch {
		case f.IsBitfield():
			// cc's OffsetBits means something only for bit-fields: after
			// one, a zero-length array member reports stale bits.
			m.Offset += btf.Bits(f.OffsetBits())
			m.BitfieldSize = btf.Bits(f.ValueBits())
			if c.splitBits != nil && c.splitBits(f) > 0 {
				m.BitfieldSize = btf.Bits(c.splitBits(f))
			}
			size = m.BitfieldSize
		case t.Kind() == cc.Struct && size == 0 && m.Offset < end:
			// cc places an empty member that follows an array of empty
			// structs a byte early (vmlinux.h's lock_class_key arrays);
			// the kernel rejects BTF whose member offsets go backwards.
			m.Offset = end
		}
		end = max(end, m.Offset+size)
		*members = append(*members, m)
	}
	return out
}

func (c *btfConv) proto(ft *cc.FunctionType) *btf.FuncProto {
	p := &btf.FuncProto{Return: c.typ(ft.Result())}
	for _, par := range ft.Parameters() {
		if par.Type().Kind() == cc.Void {
			continue
		}
		p.Params = append(p.Params, btf.FuncParam{Name: par.Name(), Type: c.typ(par.Type())})
	}
	return p
}

// calledProto is a defined function's prototype as it is called: structs
// and unions passed or returned by value are pointers (see lower's
// byValue), so that the verifier sees the registers' real types.
func (c *btfConv) calledProto(ft *cc.FunctionType) *btf.FuncProto {
	p := &btf.FuncProto{Return: c.typ(ft.Result())}
	if isAggregate(ft.Result()) {
		p.Return = &btf.Void{}
		p.Params = append(p.Params, btf.FuncParam{Name: "__result", Type: &btf.Pointer{Target: c.typ(ft.Result())}})
	}
	for _, par := range ft.Parameters() {
		if par.Type().Kind() == cc.Void {
			continue
		}
		t := c.typ(par.Type())
		if isAggregate(par.Type()) {
			t = &btf.Pointer{Target: t}
		}
		p.Params = append(p.Params, btf.FuncParam{Name: par.Name(), Type: t})
	}
	return p
}

// funcBTF builds the BTF FUNC of a function definition; d, when set, is
// its declarator, whose parameter declarations carry btf_decl_tags.
func (c *btfConv) funcBTF(name string, ft *cc.FunctionType, static bool, d *cc.Declarator) *btf.Func {
	linkage := btf.GlobalFunc
	if static {
		linkage = btf.StaticFunc
	}
	fn := &btf.Func{Name: name, Type: c.calledProto(ft), Linkage: linkage}
	// btf_decl_tag on parameters (libbpf's __arg_ctx, __arg_nonnull...):
	// the verifier reads them for global functions.
	var tags [][]string
	if isAggregate(ft.Result()) {
		tags = append(tags, nil)
	}
	any := false
	decls := paramDecls(d)
	for i, par := range ft.Parameters() {
		if par.Type().Kind() == cc.Void {
			continue
		}
		var list *cc.AttributeSpecifierList
		if i < len(decls) {
			list = decls[i].AttributeSpecifierList
		}
		t := declTags(par.Type().Attributes(), list)
		any = any || len(t) > 0
		tags = append(tags, t)
	}
	if any {
		fn.ParamTags = tags
	}
	return fn
}

// funcTags are the btf_decl_tags of a function definition itself, in
// source order (libbpf's __exception_cb names a program's exception
// callback with one). They are read from the declaration specifiers'
// syntax, where an attribute after the declarator is moved too: cc's
// attribute set keeps one value per attribute name.
func funcTags(def *cc.FunctionDefinition) []string {
	var tags []string
	for ds := def.DeclarationSpecifiers; ds != nil; ds = ds.DeclarationSpecifiers {
		tags = append(tags, declTags(nil, ds.AttributeSpecifierList)...)
	}
	if len(tags) == 0 {
		tags = declTags(def.Declarator.Type().Attributes(), nil)
	}
	return tags
}

// paramDecls lists the parameter declarations of function declarator d.
func paramDecls(d *cc.Declarator) []*cc.ParameterDeclaration {
	var out []*cc.ParameterDeclaration
	if d == nil {
		return nil
	}
	for dd := d.DirectDeclarator; dd != nil; dd = dd.DirectDeclarator {
		if dd.ParameterTypeList != nil {
			for l := dd.ParameterTypeList.ParameterList; l != nil; l = l.ParameterList {
				out = append(out, l.ParameterDeclaration)
			}
			return out
		}
	}
	return nil
}

// fileMemberTags returns the btf_decl_tag attributes written after struct
// and union member declarators (`__u64 frames[32] BPFCC_USTACK;`), by
// member declarator, and those of the structs and unions themselves
// (`struct s {...} __tag;`) by first member declarator and of typedefs
// (`typedef struct {...} t __tag;`) by their declarator, for the structs,
// unions and typedefs defined at file scope (nested definitions included). cc checks such attributes but keeps only
// aligned and packed, so they are read from the syntax tree; the walk
// visits declaration specifiers only, never expressions or bodies.
func fileMemberTags(tu *cc.TranslationUnit) (members, records map[*cc.Declarator][]string) {
	out, recs := map[*cc.Declarator][]string{}, map[*cc.Declarator][]string{}
	for n := tu; n != nil; n = n.TranslationUnit {
		ed := n.ExternalDeclaration
		if ed == nil || ed.Case != cc.ExternalDeclarationDecl || ed.Declaration == nil {
			continue
		}
		for ds := ed.Declaration.DeclarationSpecifiers; ds != nil; ds = ds.DeclarationSpecifiers {
			if ts := ds.TypeSpecifier; ts != nil && ts.StructOrUnionSpecifier != nil {
				structMemberTags(ts.StructOrUnionSpecifier, out, recs)
			}
		}
		for l := ed.Declaration.InitDeclaratorList; l != nil; l = l.InitDeclaratorList {
			if id := l.InitDeclarator; id != nil && id.Declarator != nil && id.Declarator.IsTypename() {
				if tags := declTags(nil, id.AttributeSpecifierList); len(tags) > 0 {
					recs[id.Declarator] = tags
				}
			}
		}
	}
	return out, recs
}

func structMemberTags(s *cc.StructOrUnionSpecifier, out, recs map[*cc.Declarator][]string) {
	if tags := append(declTags(nil, s.AttributeSpecifierList), declTags(nil, s.AttributeSpecifierList2)...); len(tags) > 0 {
		if first := firstMember(s); first != nil {
			recs[first] = tags
		}
	}
	for l := s.StructDeclarationList; l != nil; l = l.StructDeclarationList {
		sd := l.StructDeclaration
		if sd == nil {
			continue
		}
		for sq := sd.SpecifierQualifierList; sq != nil; sq = sq.SpecifierQualifierList {
			if ts := sq.TypeSpecifier; ts != nil && ts.StructOrUnionSpecifier != nil {
				structMemberTags(ts.StructOrUnionSpecifier, out, recs)
			}
		}
		tags := declTags(nil, sd.AttributeSpecifierList)
		if len(tags) == 0 {
			continue
		}
		// As with aligned, an attribute after the last declarator is that
		// declarator's only.
		var last *cc.Declarator
		for dl := sd.StructDeclaratorList; dl != nil; dl = dl.StructDeclaratorList {
			if dl.StructDeclarator != nil && dl.StructDeclarator.Declarator != nil {
				last = dl.StructDeclarator.Declarator
			}
		}
		if last != nil {
			out[last] = tags
		}
	}
}

// firstMember is the declarator of a record definition's first member, by
// which cc's record type is found again; nil when it has none.
func firstMember(s *cc.StructOrUnionSpecifier) *cc.Declarator {
	if l := s.StructDeclarationList; l != nil && l.StructDeclaration != nil {
		if dl := l.StructDeclaration.StructDeclaratorList; dl != nil && dl.StructDeclarator != nil {
			return dl.StructDeclarator.Declarator
		}
	}
	return nil
}
