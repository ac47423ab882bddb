package dwarfvars

import (
	"debug/dwarf"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/go-delve/delve/pkg/dwarf/godwarf"
	"github.com/go-delve/delve/pkg/dwarf/loclist"
)

// locRange is one entry of a location list: expr holds on [lo, hi).
type locRange struct {
	lo, hi uint64
	expr   []byte
	dflt   bool // DW_LLE_default_location
}

// rawLoc is a DW_AT_location (or DW_AT_frame_base) value before choosing
// the entry for a pc.
type rawLoc struct {
	expr   []byte     // an exprloc
	list   []locRange // a location list
	isList bool
}

// locOf reads the location attribute attr of a DIE.
func (b *Binary) locOf(c *cuInfo, e godwarf.Entry, attr dwarf.Attr) (rawLoc, bool, error) {
	f := e.AttrField(attr)
	if f == nil {
		return rawLoc{}, false, nil
	}
	val := f.Val
	if u, ok := val.(uint64); ok {
		val = int64(u)
	}
	switch v := val.(type) {
	case []byte:
		return rawLoc{expr: v}, true, nil
	case int64:
		var off uint64
		switch {
		case f.Class == dwarf.ClassLocList:
			// DW_FORM_loclistx: debug/dwarf hands back the raw index.
			o, err := b.loclistxOffset(c, uint64(v))
			if err != nil {
				return rawLoc{}, true, err
			}
			off = o
		case v >= 0:
			off = uint64(v)
		default:
			return rawLoc{}, true, fmt.Errorf("%w: negative location list offset", ErrMalformed)
		}
		list, err := b.readLocList(c, off)
		return rawLoc{list: list, isList: true}, true, err
	}
	return rawLoc{}, true, fmt.Errorf("%w: location attribute of class %v", ErrMalformed, f.Class)
}

// at returns the expression valid at pc (nil: no location there).
func (l rawLoc) at(pc uint64) []byte {
	return l.atFunc(pc, 0)
}

// atFunc is at for a pc in the out-of-line function entered at entry.
// At the entry itself, an empty entry of the list ([entry, entry), which
// gcc's location views leave for the value as passed, before statements
// the first instruction already belongs to: expat's `ptr += 2` folded
// into the first load) is the location, as gdb reads it: the parameter
// before the function's body changed it.
func (l rawLoc) atFunc(pc, entry uint64) []byte {
	if !l.isList {
		return l.expr
	}
	if pc == entry {
		for _, r := range l.list {
			if !r.dflt && r.lo == pc && r.hi == pc {
				return r.expr
			}
		}
	}
	var dflt []byte
	for _, r := range l.list {
		if r.dflt {
			dflt = r.expr
			continue
		}
		if r.lo <= pc && pc < r.hi {
			return r.expr
		}
	}
	return dflt
}

// readLocList reads a whole location list: DWARF 2-4 lists from .debug_loc
// through delve's reader, DWARF 5 lists from .debug_loclists with our own
// parser because delve's rejects gcc's DW_LLE_GNU_view_pair entries and
// does not expose iteration.
func (b *Binary) readLocList(c *cuInfo, off uint64) (list []locRange, err error) {
	defer func() {
		if r := recover(); r != nil {
			list, err = nil, fmt.Errorf("location list at %#x: %w: %v", off, ErrMalformed, r)
		}
	}()
	if c.hdr.version >= 5 {
		return b.readLocLists5(c, off)
	}
	if off >= uint64(len(b.loc)) {
		return nil, fmt.Errorf("location list offset %#x: %w: beyond .debug_loc", off, ErrMalformed)
	}
	rdr := loclist.NewDwarf2Reader(b.loc, 8)
	rdr.Seek(int(off))
	base := c.base
	var e loclist.Entry
	for rdr.Next(&e) {
		if e.BaseAddressSelection() {
			base = e.HighPC
			continue
		}
		list = append(list, locRange{lo: e.LowPC + base, hi: e.HighPC + base, expr: e.Instr})
	}
	return list, nil
}

// DWARF 5 location list entry kinds (DWARF 5 section 7.7.3) and gcc's
// view pair extension.
const (
	lleEndOfList       = 0x00
	lleBaseAddressx    = 0x01
	lleStartxEndx      = 0x02
	lleStartxLength    = 0x03
	lleOffsetPair      = 0x04
	lleDefaultLocation = 0x05
	lleBaseAddress     = 0x06
	lleStartEnd        = 0x07
	lleStartLength     = 0x08
	lleGNUViewPair     = 0x09
)

func (b *Binary) readLocLists5(c *cuInfo, off uint64) ([]locRange, error) {
	if off >= uint64(len(b.loclists)) {
		return nil, fmt.Errorf("location list offset %#x: %w: beyond .debug_loclists", off, ErrMalformed)
	}
	r := &byteReader{data: b.loclists, pos: int(off), order: b.order}
	base := c.base
	var out []locRange
	for n := 0; n < 1<<20; n++ {
		kind := r.u8()
		var lo, hi uint64
		switch kind {
		case lleEndOfList:
			return out, r.err
		case lleBaseAddressx:
			a, err := b.addrx(c, r.uleb())
			if err != nil {
				return nil, err
			}
			base = a
			continue
		case lleBaseAddress:
			base = r.u64()
			continue
		case lleGNUViewPair:
			r.uleb()
			r.uleb()
			continue
		case lleStartxEndx, lleStartxLength:
			a, err := b.addrx(c, r.uleb())
			if err != nil {
				return nil, err
			}
			lo = a
			if kind == lleStartxEndx {
				if hi, err = b.addrx(c, r.uleb()); err != nil {
					return nil, err
				}
			} else {
				hi = lo + r.uleb()
			}
		case lleOffsetPair:
			lo, hi = base+r.uleb(), base+r.uleb()
		case lleStartEnd:
			lo, hi = r.u64(), r.u64()
		case lleStartLength:
			lo = r.u64()
			hi = lo + r.uleb()
		case lleDefaultLocation:
		default:
			return nil, fmt.Errorf("location list at %#x: %w: unknown entry kind %#x", off, ErrMalformed, kind)
		}
		expr := r.bytes(int(r.uleb()))
		if r.err != nil {
			return nil, fmt.Errorf("location list at %#x: %w: %v", off, ErrMalformed, r.err)
		}
		out = append(out, locRange{lo: lo, hi: hi, expr: expr, dflt: kind == lleDefaultLocation})
	}
	return nil, fmt.Errorf("location list at %#x: %w: too long", off, ErrMalformed)
}

// loclistxOffset maps a DW_FORM_loclistx index to a .debug_loclists offset
// through the offset table at the CU's DW_AT_loclists_base (delve has no
// support for this form).
func (b *Binary) loclistxOffset(c *cuInfo, idx uint64) (uint64, error) {
	base := c.locBase
	if base == 0 {
		base = 12 // just past a 32-bit DWARF list table header
	}
	p := base + idx*4
	if p+4 > uint64(len(b.loclists)) || p < base {
		return 0, fmt.Errorf("loclistx %d: %w: offset table out of range", idx, ErrMalformed)
	}
	return base + uint64(b.order.Uint32(b.loclists[p:])), nil
}

// addrx reads entry idx of the CU's .debug_addr table.
func (b *Binary) addrx(c *cuInfo, idx uint64) (uint64, error) {
	p := c.addrBase + idx*8
	if b.addr == nil || p+8 > uint64(len(b.addr)) || p < c.addrBase {
		return 0, fmt.Errorf("address index %d: %w: outside .debug_addr", idx, ErrMalformed)
	}
	return godwarf.ParseAddr(b.addr).GetSubsection(c.addrBase).Get(idx)
}

// byteReader reads LEB128 and fixed-size values, recording the first
// out-of-bounds error instead of panicking.
type byteReader struct {
	data  []byte
	pos   int
	order binary.ByteOrder
	err   error
}

var errShort = errors.New("unexpected end of data")

func (r *byteReader) need(n int) bool {
	if r.err != nil {
		return false
	}
	if n < 0 || r.pos+n > len(r.data) || r.pos+n < r.pos {
		r.err = errShort
		return false
	}
	return true
}

func (r *byteReader) done() bool { return r.err != nil || r.pos >= len(r.data) }

func (r *byteReader) u8() byte {
	if !r.need(1) {
		return 0
	}
	r.pos++
	return r.data[r.pos-1]
}

func (r *byteReader) fixed(n int) uint64 {
	if !r.need(n) {
		return 0
	}
	var v uint64
	for i := n - 1; i >= 0; i-- {
		v = v<<8 | uint64(r.data[r.pos+i])
	}
	if r.order == binary.BigEndian {
		v = 0
		for i := 0; i < n; i++ {
			v = v<<8 | uint64(r.data[r.pos+i])
		}
	}
	r.pos += n
	return v
}

func (r *byteReader) u64() uint64 { return r.fixed(8) }

func (r *byteReader) bytes(n int) []byte {
	if !r.need(n) {
		return nil
	}
	r.pos += n
	return r.data[r.pos-n : r.pos]
}

func (r *byteReader) uleb() uint64 {
	var v uint64
	var shift uint
	for {
		c := r.u8()
		if r.err != nil {
			return 0
		}
		if shift < 64 {
			v |= uint64(c&0x7f) << shift
		}
		shift += 7
		if c&0x80 == 0 {
			return v
		}
	}
}

func (r *byteReader) sleb() int64 {
	var v int64
	var shift uint
	for {
		c := r.u8()
		if r.err != nil {
			return 0
		}
		if shift < 64 {
			v |= int64(c&0x7f) << shift
		}
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v
		}
	}
}
