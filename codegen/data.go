package codegen

import (
	"fmt"
	"strings"

	"github.com/bpfcc/bpfcc/codegen/obj"
	"github.com/bpfcc/bpfcc/ir"
)

// isBSS reports whether a section holds only zeros and has no file contents.
func isBSS(section string) bool {
	return section == ".bss" || strings.HasPrefix(section, ".bss.")
}

// dataSections groups globals by section in first-appearance order, placing
// each variable at an offset aligned to its Align.
func dataSections(globals []*ir.Global) ([]*obj.DataSection, error) {
	var secs []*obj.DataSection
	index := map[string]*obj.DataSection{}
	for _, g := range globals {
		if g == nil {
			continue
		}
		if g.Extern {
			continue
		}
		if g.Section == "" {
			return nil, fmt.Errorf("global %q: no section", g.Name)
		}
		if g.Size < 0 || len(g.Init) > g.Size {
			return nil, fmt.Errorf("global %q: initialiser of %d bytes for size %d", g.Name, len(g.Init), g.Size)
		}
		sec := index[g.Section]
		if sec == nil {
			sec = &obj.DataSection{Name: g.Section, Align: 1}
			index[g.Section] = sec
			secs = append(secs, sec)
		}
		align := max(g.Align, 1)
		sec.Align = max(sec.Align, align)
		off := alignUp(sec.Size, align)
		sec.Vars = append(sec.Vars, &obj.Var{Name: g.Name, Offset: off, Size: g.Size, Static: g.Static, Hidden: g.Hidden, Weak: g.Weak, BTF: g.BTF, Tags: g.Tags})
		sec.Size = off + g.Size
		if !isBSS(g.Section) {
			for len(sec.Bytes) < off {
				sec.Bytes = append(sec.Bytes, 0)
			}
			sec.Bytes = append(sec.Bytes, g.Init...)
			for _, r := range g.Relocs {
				if r.Off < 0 || r.Off+8 > g.Size {
					return nil, fmt.Errorf("global %q: address at offset %d outside its %d bytes", g.Name, r.Off, g.Size)
				}
				sec.Relocs = append(sec.Relocs, obj.DataReloc{Off: off + r.Off, Sym: r.Sym, Addend: r.Addend})
			}
			for len(sec.Bytes) < sec.Size {
				sec.Bytes = append(sec.Bytes, 0)
			}
		}
	}
	for _, s := range secs {
		if !isBSS(s.Name) && s.Bytes == nil {
			s.Bytes = []byte{}
		}
	}
	return secs, nil
}
