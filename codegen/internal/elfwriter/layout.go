package elfwriter

import (
	"debug/elf"
	"slices"
	"strings"

	"github.com/cilium/ebpf/asm"

	"github.com/bpfcc/bpfcc/codegen/obj"
)

// reservedPrefixes are section names a program section may not use: the
// loaders classify sections by name, so code there would be misread.
var reservedPrefixes = []string{"license", "version", "maps", ".maps", ".data", ".rodata", ".bss", ".rel", ".BTF", ".symtab", ".strtab", ".shstrtab", ".kconfig", ".ksyms", ".struct_ops"}

// layoutFuncs groups functions by section (".text" first, then the other
// sections in order of first appearance) and computes their offsets.
func (w *writer) layoutFuncs() error {
	var order []string
	bySec := make(map[string][]*obj.Func)
	for i, fn := range w.o.Funcs {
		if fn == nil {
			return invalid("function #%d is nil", i)
		}
		if err := w.claim(fn.Name, "function"); err != nil {
			return err
		}
		if fn.Section == "" {
			return invalid("function %s: empty section name", fn.Name)
		}
		for _, p := range reservedPrefixes {
			if strings.HasPrefix(fn.Section, p) {
				return invalid("function %s: section %q is reserved for non-code contents", fn.Name, fn.Section)
			}
		}
		if len(fn.Insns) == 0 {
			return invalid("function %s: no instructions", fn.Name)
		}
		if _, ok := bySec[fn.Section]; !ok {
			order = append(order, fn.Section)
		}
		bySec[fn.Section] = append(bySec[fn.Section], fn)
	}
	// Subprograms first, as clang does.
	if i := slices.Index(order, ".text"); i > 0 {
		order = append([]string{".text"}, slices.Delete(order, i, i+1)...)
	}

	for _, name := range order {
		ps := &progSection{name: name}
		ps.sec = w.file.add(&section{
			name:  name,
			typ:   elf.SHT_PROGBITS,
			flags: elf.SHF_ALLOC | elf.SHF_EXECINSTR,
			align: 8,
		})
		for _, fn := range bySec[name] {
			fl := &funcLayout{fn: fn, prog: ps, off: ps.size}
			var raw uint64
			fl.raw = make([]uint64, 0, len(fn.Insns)+1)
			for i := range fn.Insns {
				fl.raw = append(fl.raw, raw)
				raw += uint64(fn.Insns[i].Width())
			}
			fl.raw = append(fl.raw, raw)
			fl.size = raw * asm.InstructionSize
			ps.size += fl.size
			ps.funcs = append(ps.funcs, fl)
			w.funcs[fn.Name] = fl
		}
		w.progs = append(w.progs, ps)
		w.progsBy[name] = ps
	}
	return nil
}

// layoutMaps places each map in ".maps" at an 8-byte aligned offset. A
// map's size is its BTF struct's size, extended to cover map-in-map
// initialisers (which live in the flexible "values" array after the struct,
// as with clang).
func (w *writer) layoutMaps() error {
	if len(w.o.Maps) == 0 {
		return nil
	}
	var off uint64
	defined := false
	for i, m := range w.o.Maps {
		if m == nil {
			return invalid("map #%d is nil", i)
		}
		if err := w.claim(m.Name, "map"); err != nil {
			return err
		}
		if m.BTF == nil {
			return invalid("map %s: no BTF struct", m.Name)
		}
		if m.Extern {
			if len(m.Inner) > 0 {
				return invalid("extern map %s has initialisers", m.Name)
			}
			ml := &mapLayout{m: m, size: uint64(m.BTF.Size)}
			w.maps[m.Name] = ml
			w.mapList = append(w.mapList, ml)
			continue
		}
		size := uint64(m.BTF.Size)
		for _, in := range m.Inner {
			if in.Off < 0 || in.Off%8 != 0 {
				return invalid("map %s: initialiser for %s at misaligned offset %d", m.Name, in.Sym, in.Off)
			}
			size = max(size, uint64(in.Off)+8)
		}
		if size == 0 {
			return invalid("map %s: zero-sized definition", m.Name)
		}
		ml := &mapLayout{m: m, off: off, size: size}
		w.maps[m.Name] = ml
		w.mapList = append(w.mapList, ml)
		off += (size + 7) &^ 7
		defined = true
	}
	if !defined {
		return nil // extern maps only: no section, as with clang
	}
	w.mapsSec = w.file.add(&section{
		name:  ".maps",
		typ:   elf.SHT_PROGBITS,
		flags: elf.SHF_ALLOC | elf.SHF_WRITE,
		align: 8,
		data:  make([]byte, off),
	})
	return nil
}

// reservedDataName reports section names the writer or the loaders give
// another meaning: code, maps, license, externs, BTF, ELF tables.
func reservedDataName(name string) bool {
	switch name {
	case ".text", ".maps", ".kconfig", ".ksyms", ".symtab", ".strtab", ".shstrtab":
		return true
	}
	for _, p := range []string{"license", "version", "maps", ".rel", ".BTF", ".debug"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// isBSS reports whether a data section name denotes zero-initialised data.
func isBSS(name string) bool { return name == ".bss" || strings.HasPrefix(name, ".bss.") }

// layoutData creates the data sections and checks their variables.
func (w *writer) layoutData() error {
	seen := make(map[string]bool)
	for i, ds := range w.o.Data {
		if ds == nil {
			return invalid("data section #%d is nil", i)
		}
		name := ds.Name
		if name == "" || reservedDataName(name) {
			return invalid("data section %q: the name is reserved", name)
		}
		if seen[name] {
			return invalid("data section %s appears twice", name)
		}
		seen[name] = true
		if _, ok := w.progsBy[name]; ok {
			return invalid("data section %s clashes with a program section", name)
		}

		align := uint64(8)
		if ds.Align > 0 {
			align = uint64(ds.Align)
		}
		if align&(align-1) != 0 {
			return invalid("data section %s: alignment %d is not a power of two", name, ds.Align)
		}
		if ds.Size < 0 {
			return invalid("data section %s: negative size", name)
		}
		sec := &section{name: name, align: align, flags: elf.SHF_ALLOC | elf.SHF_WRITE, typ: elf.SHT_PROGBITS}
		if strings.HasPrefix(name, ".rodata") {
			sec.flags = elf.SHF_ALLOC
		}
		var size uint64
		switch {
		case isBSS(name):
			for _, b := range ds.Bytes {
				if b != 0 {
					return invalid("data section %s: .bss contents must be zero", name)
				}
			}
			sec.typ = elf.SHT_NOBITS
			size = uint64(max(ds.Size, len(ds.Bytes)))
			sec.size = size
		case ds.Bytes != nil:
			sec.data = slices.Clone(ds.Bytes)
			size = uint64(len(ds.Bytes))
		default:
			sec.data = make([]byte, ds.Size)
			size = uint64(ds.Size)
		}
		dl := &dataLayout{ds: ds, sec: w.file.add(sec)}
		w.data = append(w.data, dl)

		vs := slices.Clone(ds.Vars)
		for j, v := range vs {
			if v == nil {
				return invalid("data section %s: variable #%d is nil", name, j)
			}
			if err := w.claim(v.Name, "variable"); err != nil {
				return err
			}
			if v.Offset < 0 || v.Size < 0 || uint64(v.Offset)+uint64(v.Size) > size {
				return invalid("data section %s: variable %s [%d, +%d) exceeds section size %d", name, v.Name, v.Offset, v.Size, size)
			}
			w.vars[v.Name] = &varLayout{v: v, data: dl}
		}
		slices.SortStableFunc(vs, func(a, b *obj.Var) int { return a.Offset - b.Offset })
		for j := 1; j < len(vs); j++ {
			if vs[j-1].Offset+vs[j-1].Size > vs[j].Offset {
				return invalid("data section %s: variables %s and %s overlap", name, vs[j-1].Name, vs[j].Name)
			}
		}
	}
	return nil
}

// bindOf maps the Static flag to an ELF binding.
func bindOf(static bool) elf.SymBind {
	if static {
		return elf.STB_LOCAL
	}
	return elf.STB_GLOBAL
}

// visOf maps the Hidden flag to an ELF symbol visibility.
func visOf(hidden bool) elf.SymVis {
	if hidden {
		return elf.STV_HIDDEN
	}
	return elf.STV_DEFAULT
}

// bindOfWeak is bindOf for a symbol that may be __weak.
func bindOfWeak(static, weak bool) elf.SymBind {
	if weak && !static {
		return elf.STB_WEAK
	}
	return bindOf(static)
}

// addSymbols creates the symbol table entries: section symbols first (they
// are the targets of relocations against static functions and variables),
// then functions, maps and variables in Object order.
func (w *writer) addSymbols() error {
	for _, ps := range w.progs {
		ps.sym = w.file.addSymbol(&symbol{bind: elf.STB_LOCAL, typ: elf.STT_SECTION, sec: ps.sec})
	}
	for _, dl := range w.data {
		dl.sym = w.file.addSymbol(&symbol{bind: elf.STB_LOCAL, typ: elf.STT_SECTION, sec: dl.sec})
	}
	for _, ps := range w.progs {
		for _, fl := range ps.funcs {
			fl.sym = w.file.addSymbol(&symbol{
				name: fl.fn.Name, bind: bindOfWeak(fl.fn.Static, fl.fn.Weak), typ: elf.STT_FUNC, vis: visOf(fl.fn.Hidden),
				sec: ps.sec, value: fl.off, size: fl.size,
			})
		}
	}
	for _, ml := range w.mapList {
		if ml.m.Extern {
			continue // undefined: with the externs
		}
		// A __weak map definition stays STB_GLOBAL, unlike clang's:
		// cilium/ebpf (and so --load) refuses references to weak maps,
		// and usdt.bpf.h's maps are __weak.
		ml.sym = w.file.addSymbol(&symbol{
			name: ml.m.Name, bind: bindOfWeak(ml.m.Static, ml.m.Weak), typ: elf.STT_OBJECT,
			sec: w.mapsSec, value: ml.off, size: ml.size,
		})
	}
	for _, ml := range w.mapList {
		if ml.m.Extern {
			bind := elf.STB_GLOBAL
			if ml.m.Weak {
				bind = elf.STB_WEAK
			}
			ml.sym = w.file.addSymbol(&symbol{name: ml.m.Name, bind: bind, typ: elf.STT_NOTYPE})
		}
	}
	for _, dl := range w.data {
		for _, v := range dl.ds.Vars {
			vl := w.vars[v.Name]
			vl.sym = w.file.addSymbol(&symbol{
				name: v.Name, bind: bindOfWeak(v.Static, v.Weak), typ: elf.STT_OBJECT, vis: visOf(v.Hidden),
				sec: dl.sec, value: uint64(v.Offset), size: uint64(v.Size),
			})
		}
	}
	for _, e := range w.o.Externs {
		w.file.addSymbol(w.externs[e.Name].sym)
	}
	for _, k := range w.o.Kfuncs {
		w.file.addSymbol(w.kfuncs[k.Name])
	}
	return nil
}

// externLayout is an extern variable and its undefined symbol.
type externLayout struct {
	e   *obj.Extern
	sym *symbol
}

// layoutExterns checks the extern variables and gives each an undefined
// symbol (STT_NOTYPE, global or weak), as clang does.
func (w *writer) layoutExterns() error {
	for i, e := range w.o.Externs {
		if e == nil {
			return invalid("extern #%d is nil", i)
		}
		if e.Section != ".kconfig" && e.Section != ".ksyms" && e.Section != "" {
			return invalid("extern %s: section %q (want .kconfig, .ksyms or none)", e.Name, e.Section)
		}
		if err := w.claim(e.Name, "extern"); err != nil {
			return err
		}
		bind := elf.STB_GLOBAL
		if e.Weak {
			bind = elf.STB_WEAK
		}
		w.externs[e.Name] = &externLayout{e: e, sym: &symbol{name: e.Name, bind: bind, typ: elf.STT_NOTYPE}}
	}
	for i, k := range w.o.Kfuncs {
		if k == nil || k.BTF == nil {
			return invalid("kfunc #%d has no BTF", i)
		}
		if err := w.claim(k.Name, "kfunc"); err != nil {
			return err
		}
		bind := elf.STB_GLOBAL
		if k.Weak {
			bind = elf.STB_WEAK
		}
		w.kfuncs[k.Name] = &symbol{name: k.Name, bind: bind, typ: elf.STT_NOTYPE, vis: visOf(k.Hidden)}
	}
	return nil
}
