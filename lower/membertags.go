package lower

import (
	"modernc.org/cc/v4"
)

// memberTags finds the btf_decl_tag attributes written after struct and
// union members (`struct bpf_rb_root r __contains(node_data, node);`),
// keyed by the member's declarator. cc keeps such an attribute list only
// in the AST (it reads alignment and packing from it), so the struct
// definitions of file-scope declarations are walked, nested ones included.
func memberTags(ast *cc.AST) map[*cc.Declarator][]string {
	tags := map[*cc.Declarator][]string{}
	if ast == nil {
		return tags
	}
	var record func(s *cc.StructOrUnionSpecifier)
	spec := func(ts *cc.TypeSpecifier) {
		if ts != nil && ts.StructOrUnionSpecifier != nil {
			record(ts.StructOrUnionSpecifier)
		}
	}
	record = func(s *cc.StructOrUnionSpecifier) {
		for l := s.StructDeclarationList; l != nil; l = l.StructDeclarationList {
			sd := l.StructDeclaration
			if sd == nil {
				continue
			}
			for q := sd.SpecifierQualifierList; q != nil; q = q.SpecifierQualifierList {
				spec(q.TypeSpecifier)
			}
			if sd.AttributeSpecifierList == nil {
				continue
			}
			t := declTags(nil, sd.AttributeSpecifierList)
			if len(t) == 0 {
				continue
			}
			for dl := sd.StructDeclaratorList; dl != nil; dl = dl.StructDeclaratorList {
				if dl.StructDeclarator != nil && dl.StructDeclarator.Declarator != nil {
					tags[dl.StructDeclarator.Declarator] = t
				}
			}
		}
	}
	for l := ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		if ed := l.ExternalDeclaration; ed != nil && ed.Declaration != nil {
			for ds := ed.Declaration.DeclarationSpecifiers; ds != nil; ds = ds.DeclarationSpecifiers {
				spec(ds.TypeSpecifier)
			}
		}
	}
	return tags
}
