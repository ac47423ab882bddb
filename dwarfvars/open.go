package dwarfvars

import (
	"bytes"
	"cmp"
	"debug/dwarf"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"

	"github.com/go-delve/delve/pkg/dwarf/frame"
	"github.com/go-delve/delve/pkg/dwarf/godwarf"
)

// DebugRoot is where separate debug files are looked for (build-id and
// .gnu_debuglink). Tests may point it elsewhere.
var DebugRoot = "/usr/lib/debug"

// Binary is an opened ELF executable or shared object with its debug info.
// Sections are read and decompressed once; per compile unit data (line
// tables, function trees) is built on first use. A Binary is safe for
// concurrent use.
type Binary struct {
	// Path is the binary as given to Open; DebugPath is the file the DWARF
	// came from (Path itself or a separate debug file).
	Path, DebugPath string
	// PIE is set for ET_DYN objects (PIE executables and shared libraries).
	PIE bool

	exe   *elf.File
	dbgF  *elf.File
	files []*os.File
	dw    *dwarf.Data
	order binary.ByteOrder

	loc, loclists, addr []byte
	units               []unitHdr
	loads               []elf.ProgHeader
	syms                []elf.Symbol // STT_FUNC with size, sorted by Value
	// exeSyms names the function symbols of the binary itself when its
	// DWARF (and symbol table) came from a separate debug file.
	exeSyms map[string]bool

	frameOnce sync.Once
	// cross indexes abstract origins in other units (gcc -flto), see
	// lto.go.
	crossOnce sync.Once
	cross     map[dwarf.Offset][]crossHolder
	crossErr  error
	fdes      frame.FrameDescriptionEntries
	frameErr  error
	// callVals indexes call sites' values of dropped parameters
	// (callsite.go).
	callOnce sync.Once
	callVals map[dwarf.Offset][]callSiteValue
	callErr  error

	mu      sync.Mutex
	cus     map[dwarf.Offset]*cuInfo
	trees   map[dwarf.Offset]*funcTree
	names   map[string][]dwarf.Offset // DWARF subprogram name -> DIEs, built lazily
	globals map[string][]dwarf.Offset // CU-level variables with a location
	// typeDefs are the named struct, class, union and enum DIEs by their
	// own name, definitions and declarations.
	typeDefs map[string][]typeDef
	quals    map[dwarf.Offset]string // qualified names of C++ subprograms and variables
	types    *typeConv
}

// unitHdr is what debug/dwarf does not expose about a unit: its version and
// where its header starts (DW_OP_convert operands are unit-relative).
type unitHdr struct {
	start, end dwarf.Offset
	// die is the offset of the unit's first DIE, after the header: where
	// debug/dwarf's Reader.Seek finds the unit (it refuses the header's
	// own offset for every unit but the first).
	die     dwarf.Offset
	version int
}

// Open reads an ELF binary's DWARF, CFI and symbols. When the binary has no
// .debug_info it follows its build-id and .gnu_debuglink to a debug file
// under DebugRoot or next to the binary.
func Open(path string) (b *Binary, err error) {
	defer recoverInto(&err, "open "+path)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	exe, err := elf.NewFile(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	b = &Binary{Path: path, DebugPath: path, exe: exe, files: []*os.File{f}, order: exe.ByteOrder,
		cus: map[dwarf.Offset]*cuInfo{}, trees: map[dwarf.Offset]*funcTree{}, types: newTypeConv()}
	b.PIE = exe.Type == elf.ET_DYN
	for _, p := range exe.Progs {
		if p.Type == elf.PT_LOAD {
			b.loads = append(b.loads, p.ProgHeader)
		}
	}
	dbg := exe
	if exe.Section(".debug_info") == nil && exe.Section(".zdebug_info") == nil {
		df, dpath, tried := b.findDebugFile()
		if df == nil {
			b.Close()
			return nil, &NoDWARFError{Path: path, Tried: tried}
		}
		dbg, b.dbgF, b.DebugPath = df, df, dpath
	}
	if err := b.loadDWARF(dbg); err != nil {
		b.Close()
		return nil, fmt.Errorf("%s: %w", b.DebugPath, err)
	}
	b.loadSymbols(dbg)
	return b, nil
}

// Close releases the files.
func (b *Binary) Close() error {
	var first error
	for _, f := range b.files {
		if err := f.Close(); err != nil && first == nil {
			first = err
		}
	}
	b.files = nil
	return first
}

// section returns the decompressed contents of a section, or nil.
func section(f *elf.File, name string) ([]byte, error) {
	s := f.Section(name)
	if s == nil || s.Type == elf.SHT_NOBITS {
		if z := f.Section(".z" + name[1:]); z != nil && len(name) > 7 {
			return godwarf.GetDebugSectionElf(f, name[len(".debug_"):])
		}
		return nil, nil
	}
	// Read into a buffer of the section's size, capped: a damaged header
	// must not make us allocate what the file cannot hold.
	var buf bytes.Buffer
	buf.Grow(int(min(s.Size, 64<<20)))
	if _, err := buf.ReadFrom(s.Open()); err != nil {
		return nil, fmt.Errorf("section %s: %w", name, err)
	}
	return buf.Bytes(), nil
}

func (b *Binary) loadDWARF(f *elf.File) error {
	sec := map[string][]byte{}
	for _, n := range []string{"abbrev", "info", "str", "line", "ranges", "addr", "line_str",
		"rnglists", "str_offsets", "loc", "loclists"} {
		data, err := section(f, ".debug_"+n)
		if err != nil {
			return err
		}
		sec[n] = data
	}
	if sec["info"] == nil {
		return &NoDWARFError{Path: b.Path}
	}
	dw, err := dwarf.New(sec["abbrev"], nil, nil, sec["info"], sec["line"], nil, sec["ranges"], sec["str"])
	if err != nil {
		return malformed("debug info", err)
	}
	for _, n := range []string{"addr", "line_str", "rnglists", "str_offsets", "loclists"} {
		if sec[n] != nil {
			if err := dw.AddSection(".debug_"+n, sec[n]); err != nil {
				return malformed(".debug_"+n, err)
			}
		}
	}
	b.dw = dw
	b.loc, b.loclists, b.addr = sec["loc"], sec["loclists"], sec["addr"]
	b.units = parseUnitHeaders(sec["info"], f.ByteOrder)
	return nil
}

// parseUnitHeaders lists the units of .debug_info with their versions.
func parseUnitHeaders(info []byte, order binary.ByteOrder) []unitHdr {
	var us []unitHdr
	for off := 0; off+6 <= len(info); {
		n := uint64(order.Uint32(info[off:]))
		hdr := 4
		if n == 0xffffffff {
			if off+14 > len(info) {
				break
			}
			n, hdr = order.Uint64(info[off+4:]), 12
		}
		if n > uint64(len(info)-off-hdr) || n < 2 {
			break
		}
		v := int(order.Uint16(info[off+hdr:]))
		end := off + hdr + int(n)
		offSize := 4 // of the abbreviation offset and type offsets
		if hdr == 12 {
			offSize = 8
		}
		die := off + hdr + 2 + offSize + 1 // DWARF 2-4: version, abbrev offset, address size
		if v >= 5 && off+hdr+2 < len(info) {
			die = off + hdr + 2 + 1 + 1 + offSize // version, unit type, address size, abbrev offset
			switch info[off+hdr+2] {
			case 0x04, 0x05: // DW_UT_skeleton, DW_UT_split_compile: dwo_id
				die += 8
			case 0x02, 0x06: // DW_UT_type, DW_UT_split_type: signature, type offset
				die += 8 + offSize
			}
		}
		us = append(us, unitHdr{start: dwarf.Offset(off), end: dwarf.Offset(end), die: dwarf.Offset(min(die, end)), version: v})
		off = end
	}
	return us
}

// unitOf returns the unit header containing a DIE offset.
func (b *Binary) unitOf(off dwarf.Offset) (unitHdr, bool) {
	i := sort.Search(len(b.units), func(i int) bool { return b.units[i].end > off })
	if i < len(b.units) && b.units[i].start <= off {
		return b.units[i], true
	}
	return unitHdr{}, false
}

func (b *Binary) loadSymbols(dbg *elf.File) {
	add := func(f *elf.File) {
		syms, err := f.Symbols()
		if err != nil {
			return
		}
		for _, s := range syms {
			t := elf.ST_TYPE(s.Info)
			if (t == elf.STT_FUNC || t == elf.STT_GNU_IFUNC) && s.Value != 0 && s.Section != elf.SHN_UNDEF {
				b.syms = append(b.syms, s)
			}
		}
	}
	add(dbg)
	if dbg != b.exe {
		n := len(b.syms)
		add(b.exe)
		b.exeSyms = map[string]bool{}
		for _, s := range b.syms[n:] {
			b.exeSyms[s.Name] = true
		}
		if ds, err := b.exe.DynamicSymbols(); err == nil {
			for _, s := range ds {
				if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Value != 0 {
					b.exeSyms[s.Name] = true
				}
			}
		}
	}
	if len(b.syms) == 0 {
		if ds, err := b.exe.DynamicSymbols(); err == nil {
			for _, s := range ds {
				if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Value != 0 {
					b.syms = append(b.syms, s)
				}
			}
		}
	}
	global := func(s elf.Symbol) int {
		if elf.ST_BIND(s.Info) == elf.STB_GLOBAL {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(b.syms, func(x, y elf.Symbol) int {
		if x.Value != y.Value {
			return cmp.Compare(x.Value, y.Value)
		}
		// Prefer global names for aliases at one address.
		return global(x) - global(y)
	})
}

// notInBinary reports whether a function symbol is only in the separate
// debug file (a stripped binary): a loader cannot find it by name there,
// so probes attach by file offset.
func (b *Binary) notInBinary(name string) bool {
	return b.exeSyms != nil && !b.exeSyms[name]
}

// symbolAt returns the function symbol containing addr.
func (b *Binary) symbolAt(addr uint64) (elf.Symbol, bool) {
	i := sort.Search(len(b.syms), func(i int) bool { return b.syms[i].Value > addr })
	for j := i - 1; j >= 0 && j >= i-8; j-- {
		s := b.syms[j]
		if s.Value <= addr && (addr < s.Value+s.Size || s.Size == 0 && addr == s.Value) {
			return s, true
		}
	}
	return elf.Symbol{}, false
}

// symbolsNamed returns the function symbols with that exact name.
func (b *Binary) symbolsNamed(name string) []elf.Symbol {
	var out []elf.Symbol
	seen := map[uint64]bool{}
	for _, s := range b.syms {
		if s.Name == name && !seen[s.Value] {
			seen[s.Value] = true
			out = append(out, s)
		}
	}
	return out
}

// fileOffset maps a virtual address to its file offset through the PT_LOAD
// segment containing it (the executable one first).
func (b *Binary) fileOffset(va uint64) (uint64, bool) {
	for _, exec := range []bool{true, false} {
		for _, p := range b.loads {
			if (p.Flags&elf.PF_X != 0) == exec && p.Vaddr <= va && va < p.Vaddr+p.Filesz {
				return va - p.Vaddr + p.Off, true
			}
		}
	}
	return 0, false
}

// code returns the bytes of the executable at [start, end).
func (b *Binary) code(start, end uint64) ([]byte, error) {
	for _, s := range b.exe.Sections {
		if s.Flags&elf.SHF_EXECINSTR == 0 || s.Type == elf.SHT_NOBITS {
			continue
		}
		if s.Addr <= start && end <= s.Addr+s.Size {
			buf := make([]byte, end-start)
			if _, err := s.ReadAt(buf, int64(start-s.Addr)); err != nil {
				return nil, fmt.Errorf("reading %s: %w", s.Name, err)
			}
			return buf, nil
		}
	}
	return nil, fmt.Errorf("no code section holds %#x-%#x", start, end)
}

// frames parses .eh_frame (with its section address, for pc-relative
// pointer encodings) and .debug_frame once.
func (b *Binary) frames() (frame.FrameDescriptionEntries, error) {
	b.frameOnce.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				b.fdes, b.frameErr = nil, fmt.Errorf("call frame info: %w: %v", ErrMalformed, r)
			}
		}()
		var all frame.FrameDescriptionEntries
		var errs []error
		if s := b.exe.Section(".eh_frame"); s != nil && s.Type != elf.SHT_NOBITS {
			data, err := section(b.exe, ".eh_frame")
			if err == nil {
				var fdes frame.FrameDescriptionEntries
				fdes, err = frame.Parse(data, b.order, 0, 8, s.Addr)
				all = all.Append(fdes)
			}
			if err != nil {
				errs = append(errs, fmt.Errorf(".eh_frame: %w", err))
			}
		}
		for _, f := range []*elf.File{b.dbgF, b.exe} {
			if f == nil {
				continue
			}
			data, err := section(f, ".debug_frame")
			if err == nil && data != nil {
				var fdes frame.FrameDescriptionEntries
				fdes, err = frame.Parse(data, b.order, 0, 8, 0)
				all = all.Append(fdes)
			}
			if err != nil {
				errs = append(errs, fmt.Errorf(".debug_frame: %w", err))
			}
			if data != nil {
				break
			}
		}
		b.fdes = all
		if len(all) == 0 && len(errs) > 0 {
			b.frameErr = malformed("call frame info", errs[0])
		}
	})
	return b.fdes, b.frameErr
}

// findDebugFile follows the build-id note and .gnu_debuglink.
func (b *Binary) findDebugFile() (*elf.File, string, []string) {
	var cands []string
	if id := buildID(b.exe); len(id) > 1 {
		h := hex.EncodeToString(id)
		cands = append(cands, filepath.Join(DebugRoot, ".build-id", h[:2], h[2:]+".debug"))
	}
	if s := b.exe.Section(".gnu_debuglink"); s != nil {
		if data, err := s.Data(); err == nil {
			if i := bytes.IndexByte(data, 0); i > 0 {
				name := string(data[:i])
				dir := filepath.Dir(b.Path)
				if abs, err := filepath.Abs(dir); err == nil {
					dir = abs
				}
				cands = append(cands, filepath.Join(dir, name), filepath.Join(dir, ".debug", name),
					filepath.Join(DebugRoot, dir, name))
			}
		}
	}
	for _, c := range cands {
		f, err := os.Open(c)
		if err != nil {
			continue
		}
		ef, err := elf.NewFile(f)
		if err != nil || (ef.Section(".debug_info") == nil && ef.Section(".zdebug_info") == nil) {
			f.Close()
			continue
		}
		b.files = append(b.files, f)
		return ef, c, cands
	}
	return nil, "", cands
}

// buildID returns the NT_GNU_BUILD_ID descriptor.
func buildID(f *elf.File) []byte {
	for _, s := range f.Sections {
		if s.Type != elf.SHT_NOTE {
			continue
		}
		data, err := s.Data()
		if err != nil {
			continue
		}
		for len(data) >= 12 {
			nsz, dsz, typ := f.ByteOrder.Uint32(data), f.ByteOrder.Uint32(data[4:]), f.ByteOrder.Uint32(data[8:])
			nend := 12 + (uint64(nsz)+3)&^3
			dend := nend + (uint64(dsz)+3)&^3
			if dend > uint64(len(data)) {
				break
			}
			if typ == 3 && nsz == 4 && string(data[12:15]) == "GNU" {
				return data[nend : nend+uint64(dsz)]
			}
			data = data[dend:]
		}
	}
	return nil
}

// recoverInto turns a panic from a dependency on malformed input into an
// error; every exported entry point defers it.
func recoverInto(err *error, what string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: %w: internal error: %v", what, ErrMalformed, r)
	}
}
