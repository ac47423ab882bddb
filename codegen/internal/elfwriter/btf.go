package elfwriter

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"

	"github.com/cilium/ebpf/btf"

	"github.com/bpfcc/bpfcc/codegen/obj"
)

// btfHeaderLen is the size of struct btf_header.
const btfHeaderLen = 24

// addBTF builds ".BTF" with cilium/ebpf's btf.Builder and, for debug
// objects, ".BTF.ext".
//
// .BTF holds, in this order: the FUNC of every function (linkage from
// Func.Static), the VAR of every map inside DATASEC ".maps", one DATASEC
// per data section with the VARs that have a BTF type, and the output
// record VARs described in the package documentation. DATASEC sizes and
// offsets are final (clang leaves them 0 for libbpf to fix up).
//
// Types are deduplicated. The Builder's deduplication rewrites the type
// graph it is given, so every root is deep-copied first: the Object is
// never modified.
func (w *writer) addBTF() error {
	b, err := btf.NewBuilder(nil, &btf.BuilderOptions{Deduplicate: true})
	if err != nil {
		return err
	}
	funcIDs := make(map[*funcLayout]btf.TypeID)
	for _, ps := range w.progs {
		for _, fl := range ps.funcs {
			if fl.fn.BTF == nil {
				if w.o.Debug {
					return invalid("function %s: no BTF FUNC (required for .BTF.ext func_info)", fl.fn.Name)
				}
				continue
			}
			if fl.fn.BTF.Name != fl.fn.Name {
				return invalid("function %s: BTF FUNC is named %q", fl.fn.Name, fl.fn.BTF.Name)
			}
			fn, ok := btf.Copy(fl.fn.BTF).(*btf.Func)
			if !ok {
				return fmt.Errorf("function %s: copying BTF", fl.fn.Name)
			}
			fn.Linkage = btf.GlobalFunc
			if fl.fn.Static {
				fn.Linkage = btf.StaticFunc
			}
			id, err := b.Add(fn)
			if err != nil {
				return fmt.Errorf("function %s: %w", fl.fn.Name, err)
			}
			funcIDs[fl] = id
		}
	}

	if err := w.addMapsBTF(b); err != nil {
		return err
	}
	if err := w.addDataBTF(b); err != nil {
		return err
	}
	if err := w.addOutputBTF(b); err != nil {
		return err
	}
	if err := w.addExternBTF(b); err != nil {
		return err
	}
	cores, err := w.coreRelocs(b)
	if err != nil {
		return err
	}
	if b.Empty() {
		return nil
	}

	raw, err := b.Marshal(nil, &btf.MarshalOptions{Order: w.bo})
	if err != nil {
		return fmt.Errorf("marshal: %w", err)
	}
	strs, err := newBTFStrings(raw, w.bo)
	if err != nil {
		return err
	}

	var ext []byte
	// CO-RE relocations live in .BTF.ext, so an object that has some
	// carries one even without -g.
	if (w.o.Debug || len(cores) > 0) && len(w.progs) > 0 {
		ext, err = w.buildExt(funcIDs, cores, strs)
		if err != nil {
			return fmt.Errorf(".BTF.ext: %w", err)
		}
	}
	raw, err = strs.finish()
	if err != nil {
		return err
	}

	w.file.add(&section{name: ".BTF", typ: elf.SHT_PROGBITS, align: 4, data: raw})
	if ext != nil {
		w.file.add(&section{name: ".BTF.ext", typ: elf.SHT_PROGBITS, align: 4, data: ext})
	}
	return nil
}

// BPF_CORE_TYPE_ID_LOCAL and _TARGET (enum bpf_core_relo_kind).
const (
	coreTypeIDLocal  = 6
	coreTypeIDTarget = 7
)

// coreRec is one CO-RE relocation before its access string is placed.
type coreRec struct {
	insnOff uint32 // bytes within the section
	typeID  btf.TypeID
	access  string
	kind    uint32
}

// coreRelocs adds the root type of every CO-RE relocation to b and returns
// the relocations by program section. Each root type is copied once (the
// Builder rewrites what it is given) and deduplicated with the others.
func (w *writer) coreRelocs(b *btf.Builder) (map[*progSection][]coreRec, error) {
	out := map[*progSection][]coreRec{}
	ids := map[btf.Type]btf.TypeID{}
	for _, ps := range w.progs {
		for _, fl := range ps.funcs {
			for i, ins := range fl.fn.Insns {
				r := obj.CoreOf(ins)
				if r == nil {
					continue
				}
				if r.Type == nil || r.Access == "" {
					return nil, invalid("function %s: instruction %d: CO-RE relocation without a type or access string", fl.fn.Name, i)
				}
				id, ok := ids[r.Type]
				if !ok {
					var err error
					if id, err = b.Add(btf.Copy(r.Type)); err != nil {
						return nil, fmt.Errorf("function %s: CO-RE type %s: %w", fl.fn.Name, r.Type.TypeName(), err)
					}
					ids[r.Type] = id
				}
				off := fl.off + fl.raw[i]*8
				out[ps] = append(out[ps], coreRec{insnOff: uint32(off), typeID: id, access: r.Access, kind: r.Kind})
				if (r.Kind == coreTypeIDLocal || r.Kind == coreTypeIDTarget) && ins.OpCode.IsDWordLoad() && int(off)+16 <= len(ps.sec.data) {
					// The local type id is known only now: write it into
					// the ld_imm64, as clang does for both kinds (cilium/ebpf
					// checks it).
					w.bo.PutUint32(ps.sec.data[off+4:], uint32(id))
					w.bo.PutUint32(ps.sec.data[off+12:], 0)
				}
			}
		}
	}
	return out, nil
}

// addMapsBTF adds DATASEC ".maps" with one VAR per map.
func (w *writer) addMapsBTF(b *btf.Builder) error {
	if len(w.mapList) == 0 {
		return nil
	}
	ds := &btf.Datasec{Name: ".maps"}
	if w.mapsSec != nil {
		ds.Size = uint32(len(w.mapsSec.data))
	}
	for _, ml := range w.mapList {
		v := &btf.Var{Name: ml.m.Name, Type: btf.Copy(ml.m.BTF), Linkage: btf.GlobalVar}
		switch {
		case ml.m.Extern:
			v.Linkage = btf.ExternVar
		case ml.m.Static:
			v.Linkage = btf.StaticVar
		}
		v.Tags = slices.Clone(ml.m.Tags)
		if _, ok := w.o.Output[ml.m.Name]; ok {
			v.Tags = append(v.Tags, OutputTag)
		}
		ds.Vars = append(ds.Vars, btf.VarSecinfo{Type: v, Offset: uint32(ml.off), Size: uint32(ml.size)})
	}
	if _, err := b.Add(ds); err != nil {
		return fmt.Errorf("DATASEC .maps: %w", err)
	}
	return nil
}

// addDataBTF adds one DATASEC per data section that has typed variables.
func (w *writer) addDataBTF(b *btf.Builder) error {
	for _, dl := range w.data {
		size := dl.sec.size
		if dl.sec.typ != elf.SHT_NOBITS {
			size = uint64(len(dl.sec.data))
		}
		ds := &btf.Datasec{Name: dl.ds.Name, Size: uint32(size)}
		vars := slices.Clone(dl.ds.Vars)
		sort.SliceStable(vars, func(i, j int) bool { return vars[i].Offset < vars[j].Offset })
		for _, v := range vars {
			if v.BTF == nil {
				continue
			}
			bv := &btf.Var{Name: v.Name, Type: btf.Copy(v.BTF), Linkage: btf.GlobalVar, Tags: slices.Clone(v.Tags)}
			if v.Static {
				bv.Linkage = btf.StaticVar
			}
			ds.Vars = append(ds.Vars, btf.VarSecinfo{Type: bv, Offset: uint32(v.Offset), Size: uint32(v.Size)})
		}
		if len(ds.Vars) == 0 {
			// The kernel rejects an empty DATASEC; the loaders create the
			// section's map without a value type instead.
			continue
		}
		if _, err := b.Add(ds); err != nil {
			return fmt.Errorf("DATASEC %s: %w", dl.ds.Name, err)
		}
	}
	return nil
}

// addOutputBTF adds the record-type VARs for Object.Output, sorted by map
// name for determinism.
func (w *writer) addOutputBTF(b *btf.Builder) error {
	names := make([]string, 0, len(w.o.Output))
	for name := range w.o.Output {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if w.maps[name] == nil {
			return invalid("output record type for undefined map %q", name)
		}
		typ := w.o.Output[name]
		if typ == nil {
			return invalid("output map %s: nil record type", name)
		}
		v := &btf.Var{Name: OutputVarPrefix + name, Type: btf.Copy(typ), Linkage: btf.StaticVar}
		if _, err := b.Add(v); err != nil {
			return fmt.Errorf("output map %s: %w", name, err)
		}
	}
	return nil
}

// btfStrings extends the string table of a marshalled BTF blob. The
// Builder's own string table is not exported, so strings for line info and
// section names are appended after it (the string section is the last part
// of the blob) and the header's str_len is patched in finish.
type btfStrings struct {
	bo    binary.ByteOrder
	raw   []byte // header, types and the original strings
	offs  map[string]uint32
	extra bytes.Buffer
	base  uint32 // length of the original string section
}

func newBTFStrings(raw []byte, bo binary.ByteOrder) (*btfStrings, error) {
	if len(raw) < btfHeaderLen {
		return nil, fmt.Errorf("marshalled BTF too short (%d bytes)", len(raw))
	}
	hdrLen := bo.Uint32(raw[4:])
	strOff := bo.Uint32(raw[16:])
	strLen := bo.Uint32(raw[20:])
	start := uint64(hdrLen) + uint64(strOff)
	if start+uint64(strLen) != uint64(len(raw)) {
		return nil, fmt.Errorf("marshalled BTF: string section is not last")
	}
	s := &btfStrings{bo: bo, raw: raw, offs: make(map[string]uint32), base: strLen}
	tab := raw[start:]
	for off := 0; off < len(tab); {
		end := bytes.IndexByte(tab[off:], 0)
		if end < 0 {
			return nil, fmt.Errorf("marshalled BTF: unterminated string at %d", off)
		}
		str := string(tab[off : off+end])
		if _, ok := s.offs[str]; !ok {
			s.offs[str] = uint32(off)
		}
		off += end + 1
	}
	if _, ok := s.offs[""]; !ok {
		return nil, fmt.Errorf("marshalled BTF: string table lacks the empty string")
	}
	return s, nil
}

// add returns the offset of str in the string table, appending it if
// needed. Anything from a NUL byte on is dropped.
func (s *btfStrings) add(str string) uint32 {
	if i := bytes.IndexByte([]byte(str), 0); i >= 0 {
		str = str[:i]
	}
	if off, ok := s.offs[str]; ok {
		return off
	}
	off := s.base + uint32(s.extra.Len())
	s.extra.WriteString(str)
	s.extra.WriteByte(0)
	s.offs[str] = off
	return off
}

// maxBTFStrings is the kernel's limit on the string section
// (BTF_MAX_NAME_OFFSET).
const maxBTFStrings = 1<<24 - 1

// finish returns the BTF blob with the appended strings.
func (s *btfStrings) finish() ([]byte, error) {
	total := uint64(s.base) + uint64(s.extra.Len())
	if total > maxBTFStrings {
		return nil, fmt.Errorf("BTF string section too large (%d bytes, limit %d)", total, maxBTFStrings)
	}
	out := make([]byte, 0, len(s.raw)+s.extra.Len())
	out = append(out, s.raw...)
	out = append(out, s.extra.Bytes()...)
	s.bo.PutUint32(out[20:], uint32(total))
	return out, nil
}

// addExternBTF adds DATASEC ".kconfig" and ".ksyms" with the extern VARs
// and the kernel functions' FUNCs, which the loaders require to know their
// types (size 0 and offset 0, as clang leaves them for the loader).
func (w *writer) addExternBTF(b *btf.Builder) error {
	secs := map[string]*btf.Datasec{}
	var order []string
	for _, k := range w.o.Kfuncs {
		fn, ok := btf.Copy(k.BTF).(*btf.Func)
		if !ok {
			return invalid("kfunc %s: copying BTF", k.Name)
		}
		fn.Linkage = btf.ExternFunc
		if k.Plain {
			// Not a kernel symbol: the FUNC alone, as clang writes it.
			if _, err := b.Add(fn); err != nil {
				return fmt.Errorf("extern function %s: %w", k.Name, err)
			}
			continue
		}
		ds := secs[".ksyms"]
		if ds == nil {
			ds = &btf.Datasec{Name: ".ksyms"}
			secs[ds.Name] = ds
			order = append(order, ds.Name)
		}
		ds.Vars = append(ds.Vars, btf.VarSecinfo{Type: fn})
	}
	for _, e := range w.o.Externs {
		if e.BTF == nil && e.Section == "" {
			continue // only inline asm loads it: a bare undefined symbol, as clang's
		}
		if e.BTF == nil {
			return invalid("extern %s: no BTF type", e.Name)
		}
		if e.Section == "" {
			// Defined by another object: the VAR alone, as clang writes it.
			v := &btf.Var{Name: e.Name, Type: btf.Copy(e.BTF), Linkage: btf.ExternVar}
			if _, err := b.Add(v); err != nil {
				return fmt.Errorf("extern %s: %w", e.Name, err)
			}
			continue
		}
		ds := secs[e.Section]
		if ds == nil {
			ds = &btf.Datasec{Name: e.Section}
			secs[e.Section] = ds
			order = append(order, e.Section)
		}
		v := &btf.Var{Name: e.Name, Type: btf.Copy(e.BTF), Linkage: btf.ExternVar}
		ds.Vars = append(ds.Vars, btf.VarSecinfo{Type: v, Size: uint32(e.Size)})
	}
	for _, name := range order {
		if _, err := b.Add(secs[name]); err != nil {
			return fmt.Errorf("DATASEC %s: %w", name, err)
		}
	}
	return nil
}
