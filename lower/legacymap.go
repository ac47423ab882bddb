package lower

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/cilium/ebpf/btf"
	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/ir"
)

// legacyMap converts a map defined in SEC("maps") (struct bpf_map_def,
// iproute2's struct bpf_elf_map) into a BTF-defined map, which libbpf 1.x
// loads and clang's legacy section it refuses. Loaders read the legacy
// definition by position, whatever its members are called: five 32-bit
// words, type, key size, value size, max entries and flags. Of the words
// after them, iproute2's pinning = PIN_GLOBAL_NS becomes pinning by name
// (where iproute2's libbpf loader pins, tc/globals); its map-in-map ids
// (id, inner_id, inner_idx) are linked by linkLegacyMaps; the others have
// no place in a BTF-defined map and are reported.
func (l *lowerer) legacyMap(d *cc.Declarator, id *cc.InitDeclarator, name string, static bool) {
	t := d.Type()
	size := max(int(typeSize(t)), 0)
	buf := make([]byte, max(size, 4*len(legacyWords)))
	if id.Initializer != nil {
		l.constInit(&dataImage{buf: buf}, 0, t, id.Initializer)
	}
	def := &legacyDef{d: d, st: &btf.Struct{}, ids: map[string]uint32{}}
	for i, n := range legacyWords {
		if v := binary.LittleEndian.Uint32(buf[4*i:]); v != 0 || n != "map_flags" {
			def.add(l, n, v)
		}
	}
	for off := 4 * len(legacyWords); off+4 <= size; off += 4 {
		v := binary.LittleEndian.Uint32(buf[off:])
		if v == 0 {
			continue
		}
		switch member := legacyMember(t, off); {
		case member == "pinning" && v == pinGlobalNS:
			def.add(l, "pinning", pinByName)
		case member == "id" || member == "inner_id" || member == "inner_idx":
			def.ids[member] = v
		default:
			def.dropped = append(def.dropped, fmt.Sprintf("%s = %d", member, v))
		}
	}
	def.mp = &ir.Map{Name: name, Static: static, BTF: def.st, Pos: l.pos(d)}
	l.legacy = append(l.legacy, def)
	l.globals[d] = &global{name: name, typ: t, isMap: true}
	// An extern declaration of the map (a header's) is this definition.
	l.globalNames[name] = l.globals[d]
	l.m.Maps = append(l.m.Maps, def.mp)
}

// legacyDef is a converted legacy map definition.
type legacyDef struct {
	d   *cc.Declarator
	st  *btf.Struct
	mp  *ir.Map
	ids map[string]uint32 // iproute2's id, inner_id, inner_idx when not 0
	// dropped are the words the BTF-defined map cannot keep.
	dropped []string
}

// add appends the attribute n = v to the BTF definition, as
// __uint(n, v) declares it.
func (def *legacyDef) add(l *lowerer, n string, v uint32) {
	def.member(n, l.mapUint(v))
}

func (def *legacyDef) member(n string, t btf.Type) {
	def.st.Members = append(def.st.Members, btf.Member{Name: n, Offset: btf.Bits(64 * len(def.st.Members)), Type: t})
	def.st.Size = uint32(8 * len(def.st.Members))
}

// linkLegacyMaps links iproute2's maps of maps: an outer map's inner_id
// names the id of its inner maps, whose definition becomes the outer map's
// `values` (__array(values, ...)); each inner map is put in the outer map
// at its inner_idx unless that is NO_PREPOPULATE (-1), as iproute2 does.
// Ids that link nothing are reported with the words nothing can keep.
func (l *lowerer) linkLegacyMaps() {
	byID := map[uint32][]*legacyDef{}
	for _, def := range l.legacy {
		if id, ok := def.ids["id"]; ok {
			byID[id] = append(byID[id], def)
		}
	}
	used := map[*legacyDef]bool{}
	for _, outer := range l.legacy {
		innerID, ok := outer.ids["inner_id"]
		if !ok {
			continue
		}
		inners := byID[innerID]
		if len(inners) == 0 {
			outer.dropped = append(outer.dropped, fmt.Sprintf("inner_id = %d (no map has that id)", innerID))
			continue
		}
		valuesOff := 8 * len(outer.st.Members)
		for _, in := range inners {
			used[in] = true
			idx := in.ids["inner_idx"] // 0 when not set
			if idx == noPrepopulate {
				continue
			}
			outer.mp.Inner = append(outer.mp.Inner, ir.MapInit{Off: valuesOff + 8*int(idx), Sym: in.mp.Name})
		}
		// A flexible array, as __array(values, ...) declares it (libbpf
		// wants no size); the initialiser's slots follow the definition.
		outer.member("values", &btf.Array{Index: l.btf.intType("__ARRAY_SIZE_TYPE__", 4, btf.Unsigned), Type: &btf.Pointer{Target: inners[0].template()}})
	}
	for _, def := range l.legacy {
		if !used[def] {
			for _, w := range []string{"id", "inner_idx"} {
				if v, ok := def.ids[w]; ok {
					def.dropped = append(def.dropped, fmt.Sprintf("%s = %d (no map's inner_id names it)", w, v))
				}
			}
		}
		if len(def.dropped) > 0 {
			l.warnf(def.d, "map %q: %s after the five bpf_map_def fields cannot be kept in a BTF-defined map", def.mp.Name, strings.Join(def.dropped, ", "))
		}
	}
}

// template is the definition of maps like def's inside a map of maps:
// without pinning, which an inner map definition cannot have (the inner
// map itself stays pinned).
func (def *legacyDef) template() *btf.Struct {
	t := &legacyDef{st: &btf.Struct{}}
	for _, m := range def.st.Members {
		if m.Name != "pinning" {
			t.member(m.Name, m.Type)
		}
	}
	return t.st
}

// legacyWords are the BTF names of a legacy map definition's words.
var legacyWords = []string{"type", "key_size", "value_size", "max_entries", "map_flags"}

// iproute2's PIN_GLOBAL_NS and NO_PREPOPULATE, libbpf's LIBBPF_PIN_BY_NAME.
const (
	pinGlobalNS   = 2
	noPrepopulate = 0xffffffff
	pinByName     = 1
)

// legacyMember names the member of a legacy map definition at byte off,
// or says where it is.
func legacyMember(t cc.Type, off int) string {
	if st, ok := t.(*cc.StructType); ok {
		for i := range st.NumFields() {
			if f := st.FieldByIndex(i); f != nil && int(f.Offset()) == off && f.Name() != "" {
				return f.Name()
			}
		}
	}
	return fmt.Sprintf("the word at byte %d", off)
}
