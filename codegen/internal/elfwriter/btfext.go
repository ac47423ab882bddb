package elfwriter

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/cilium/ebpf/btf"

	"github.com/bpfcc/bpfcc/codegen/obj"
)

// .BTF.ext layout constants (struct btf_ext_header and the record sizes
// of struct bpf_func_info and struct bpf_line_info).
const (
	btfMagic        = 0xeB9F
	btfExtHeaderLen = 32
	funcInfoRecLen  = 8
	lineInfoRecLen  = 16
	coreReloRecLen  = 16
	lineShift       = 10
	maxLine         = 1<<(32-lineShift) - 1
	maxCol          = 1<<lineShift - 1
)

// lineRec is one line_info record before encoding.
type lineRec struct {
	insnOff    uint32 // bytes within the section
	file, text uint32 // string offsets
	lineCol    uint32
}

// extSection holds the records of one program section.
type extSection struct {
	name  uint32
	funcs [][2]uint32 // insn_off (bytes), type_id
	lines []lineRec
}

// buildExt encodes ".BTF.ext": func_info for every function and line_info
// grouped per section, offsets in bytes within the section, as in ELF
// objects (the loaders convert them to instruction offsets).
//
// The kernel requires, once a program has line info, a record at the first
// instruction of every function, and cilium/ebpf rejects a .BTF.ext whose
// line_info part is empty while libbpf rejects one that has a record size
// but no records. So every function gets a record at its first
// instruction: when Func.Lines does not start there, the first entry is
// repeated (or, without Lines, an empty record of line 0 is used).
//
// core_relo holds the CO-RE relocations (struct bpf_core_relo) of the
// sections that have any.
func (w *writer) buildExt(funcIDs map[*funcLayout]btf.TypeID, cores map[*progSection][]coreRec, strs *btfStrings) ([]byte, error) {
	var secs []*extSection
	for _, ps := range w.progs {
		es := &extSection{name: strs.add(ps.name)}
		for _, fl := range ps.funcs {
			id, ok := funcIDs[fl]
			if !ok {
				return nil, fmt.Errorf("function %s: no BTF", fl.fn.Name)
			}
			es.funcs = append(es.funcs, [2]uint32{uint32(fl.off), uint32(id)})
			recs, err := funcLines(fl, strs)
			if err != nil {
				return nil, fmt.Errorf("function %s: %w", fl.fn.Name, err)
			}
			es.lines = append(es.lines, recs...)
		}
		secs = append(secs, es)
	}

	bo := w.bo
	var fi, li, cr bytes.Buffer
	put := func(b *bytes.Buffer, vs ...uint32) {
		for _, v := range vs {
			_ = binary.Write(b, bo, v)
		}
	}
	put(&fi, funcInfoRecLen)
	put(&li, lineInfoRecLen)
	if len(cores) > 0 {
		put(&cr, coreReloRecLen)
	}
	for _, ps := range w.progs {
		recs := cores[ps]
		if len(recs) == 0 {
			continue
		}
		put(&cr, strs.add(ps.name), uint32(len(recs)))
		for _, r := range recs {
			put(&cr, r.insnOff, uint32(r.typeID), strs.add(r.access), r.kind)
		}
	}
	for _, es := range secs {
		put(&fi, es.name, uint32(len(es.funcs)))
		for _, f := range es.funcs {
			put(&fi, f[0], f[1])
		}
		put(&li, es.name, uint32(len(es.lines)))
		for _, l := range es.lines {
			put(&li, l.insnOff, l.file, l.text, l.lineCol)
		}
	}

	var out bytes.Buffer
	_ = binary.Write(&out, bo, uint16(btfMagic))
	out.WriteByte(1) // version
	out.WriteByte(0) // flags
	put(&out,
		btfExtHeaderLen,
		0, uint32(fi.Len()), // func_info
		uint32(fi.Len()), uint32(li.Len()), // line_info
		uint32(fi.Len()+li.Len()), uint32(cr.Len()), // core_relo
	)
	out.Write(fi.Bytes())
	out.Write(li.Bytes())
	out.Write(cr.Bytes())
	return out.Bytes(), nil
}

// funcLines converts fl's line table to records. Entries must be sorted by
// instruction; of several entries for one instruction the last wins.
func funcLines(fl *funcLayout, strs *btfStrings) ([]lineRec, error) {
	lines := fl.fn.Lines
	n := len(fl.fn.Insns)
	var out []lineRec
	prev := -1
	for i, l := range lines {
		if l.Insn < 0 || l.Insn >= n {
			return nil, invalid("line entry %d: instruction %d out of range [0, %d)", i, l.Insn, n)
		}
		if l.Insn < prev {
			return nil, invalid("line entry %d: instruction %d before %d (entries must be sorted)", i, l.Insn, prev)
		}
		rec, err := makeLineRec(fl, l, strs)
		if err != nil {
			return nil, fmt.Errorf("line entry %d: %w", i, err)
		}
		if l.Insn == prev {
			out[len(out)-1] = rec
		} else {
			out = append(out, rec)
		}
		prev = l.Insn
	}
	if len(lines) == 0 {
		return []lineRec{{insnOff: uint32(fl.off)}}, nil
	}
	if lines[0].Insn != 0 {
		first := out[0]
		first.insnOff = uint32(fl.off)
		out = append([]lineRec{first}, out...)
	}
	return out, nil
}

// makeLineRec encodes one line entry. Columns beyond the 10 bits line_col
// has room for are recorded as 0 (unknown).
func makeLineRec(fl *funcLayout, l obj.Line, strs *btfStrings) (lineRec, error) {
	if l.Line > maxLine {
		return lineRec{}, invalid("line %d exceeds the BTF limit %d", l.Line, maxLine)
	}
	col := l.Col
	if col > maxCol {
		col = 0
	}
	return lineRec{
		insnOff: uint32(fl.off + fl.raw[l.Insn]*8),
		file:    strs.add(l.File),
		text:    strs.add(l.Text),
		lineCol: l.Line<<lineShift | col,
	}, nil
}
