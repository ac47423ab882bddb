package dwarfvars

import (
	"debug/dwarf"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/go-delve/delve/pkg/dwarf/godwarf"
)

// cuInfo is what a compile unit contributes, built on first use.
type cuInfo struct {
	entry    *dwarf.Entry
	hdr      unitHdr
	base     uint64 // DW_AT_low_pc, the default loclist base address
	addrBase uint64
	locBase  uint64 // DW_AT_loclists_base
	producer string
	ranges   [][2]uint64

	rows    []lineRow // line table in sequence order; nil until lines()
	byAddr  []int     // indices of rows that start an address range, sorted by address
	rowsErr error
	loaded  bool
	funcs   []funcRef // top-level subprograms with code
}

// lineRow is one row of a line table.
type lineRow struct {
	addr   uint64
	file   string
	line   int
	stmt   bool
	endSeq bool
	pEnd   bool
}

// funcRef is a concrete subprogram: its DIE and address ranges.
type funcRef struct {
	off    dwarf.Offset
	ranges [][2]uint64
}

// cuAt returns the compile unit containing pc.
func (b *Binary) cuAt(pc uint64) (*cuInfo, error) {
	r := b.dw.Reader()
	e, err := r.SeekPC(pc)
	if err != nil {
		if errors.Is(err, dwarf.ErrUnknownPC) {
			return nil, fmt.Errorf("address %#x: %w: no compile unit covers it", pc, ErrNotFound)
		}
		return nil, malformed(fmt.Sprintf("compile unit for %#x", pc), err)
	}
	return b.cuFor(e)
}

// cuFor returns (and caches) the cuInfo of a compile unit entry.
func (b *Binary) cuFor(e *dwarf.Entry) (*cuInfo, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c, ok := b.cus[e.Offset]; ok {
		return c, nil
	}
	c := &cuInfo{entry: e}
	c.hdr, _ = b.unitOf(e.Offset)
	c.base, _ = e.Val(dwarf.AttrLowpc).(uint64)
	if v, ok := e.Val(dwarf.AttrAddrBase).(int64); ok {
		c.addrBase = uint64(v)
	}
	if v, ok := e.Val(dwarf.AttrLoclistsBase).(int64); ok {
		c.locBase = uint64(v)
	}
	c.producer, _ = e.Val(dwarf.AttrProducer).(string)
	c.ranges, _ = b.dw.Ranges(e)
	b.cus[e.Offset] = c
	return c, nil
}

// allCUs iterates over every compile unit.
func (b *Binary) allCUs(fn func(*cuInfo) error) error {
	r := b.dw.Reader()
	for {
		e, err := r.Next()
		if err != nil {
			return malformed("compile units", err)
		}
		if e == nil {
			return nil
		}
		if e.Tag == dwarf.TagCompileUnit || e.Tag == dwarf.TagPartialUnit {
			c, err := b.cuFor(e)
			if err != nil {
				return err
			}
			if err := fn(c); err != nil {
				return err
			}
		}
		r.SkipChildren()
	}
}

// lines returns the CU's line table rows.
func (b *Binary) lines(c *cuInfo) ([]lineRow, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c.rows != nil || c.rowsErr != nil {
		return c.rows, c.rowsErr
	}
	lr, err := b.dw.LineReader(c.entry)
	if err != nil {
		c.rowsErr = malformed("line table", err)
		return nil, c.rowsErr
	}
	rows := []lineRow{}
	if lr != nil {
		var le dwarf.LineEntry
		for {
			if err := lr.Next(&le); err != nil {
				if err != io.EOF {
					c.rowsErr = malformed("line table", err)
				}
				break
			}
			name := ""
			if le.File != nil {
				name = le.File.Name
			}
			rows = append(rows, lineRow{addr: le.Address, file: name, line: le.Line, stmt: le.IsStmt,
				endSeq: le.EndSequence, pEnd: le.PrologueEnd})
		}
	}
	c.rows = rows
	for i := 0; i+1 < len(rows); i++ {
		if !rows[i].endSeq && rows[i+1].addr > rows[i].addr {
			c.byAddr = append(c.byAddr, i)
		}
	}
	sort.SliceStable(c.byAddr, func(i, j int) bool { return rows[c.byAddr[i]].addr < rows[c.byAddr[j]].addr })
	return rows, c.rowsErr
}

// rowFor returns the row describing pc, by binary search.
func (c *cuInfo) rowFor(pc uint64) (lineRow, bool) {
	idx := c.byAddr
	i := sort.Search(len(idx), func(i int) bool { return c.rows[idx[i]].addr > pc })
	for j := i - 1; j >= 0 && j >= i-4; j-- {
		r := c.rows[idx[j]]
		if r.addr <= pc && pc < c.rows[idx[j]+1].addr {
			return r, true
		}
	}
	return lineRow{}, false
}

// rowsIn calls fn for every row (by index) whose address is in [lo, hi),
// including rows sharing an address with a range start.
func (c *cuInfo) rowsIn(lo, hi uint64, fn func(i int)) {
	idx := c.byAddr
	i := sort.Search(len(idx), func(i int) bool { return c.rows[idx[i]].addr >= lo })
	for ; i < len(idx) && c.rows[idx[i]].addr < hi; i++ {
		// Rows at the same address precede the one that starts the range.
		for k := idx[i]; k >= 0 && c.rows[k].addr == c.rows[idx[i]].addr && !c.rows[k].endSeq; k-- {
			fn(k)
			if k == 0 || c.rows[k-1].endSeq {
				break
			}
		}
	}
}

// functions returns the CU's top-level subprograms that have code.
func (b *Binary) functions(c *cuInfo) ([]funcRef, error) {
	b.mu.Lock()
	loaded := c.loaded
	b.mu.Unlock()
	if loaded {
		return c.funcs, nil
	}
	r := b.dw.Reader()
	r.Seek(c.entry.Offset)
	if _, err := r.Next(); err != nil {
		return nil, malformed("compile unit", err)
	}
	var fs []funcRef
	// C++ functions may be defined inside namespace DIEs (clang).
	for depth := 0; ; {
		e, err := r.Next()
		if err != nil {
			return nil, malformed("subprograms", err)
		}
		if e == nil {
			break
		}
		if e.Tag == 0 {
			if depth--; depth < 0 {
				break
			}
			continue
		}
		if e.Tag == dwarf.TagSubprogram {
			if rg, err := b.dw.Ranges(e); err == nil && len(rg) > 0 {
				fs = append(fs, funcRef{e.Offset, rg})
			}
		}
		if e.Tag == dwarf.TagNamespace && e.Children {
			depth++
			continue
		}
		r.SkipChildren()
	}
	b.mu.Lock()
	c.funcs, c.loaded = fs, true
	b.mu.Unlock()
	return fs, nil
}

// funcAt returns the concrete subprogram containing pc and its CU.
func (b *Binary) funcAt(pc uint64) (*funcTree, error) {
	c, err := b.cuAt(pc)
	if err != nil {
		return nil, err
	}
	fs, err := b.functions(c)
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		if inRanges(f.ranges, pc) {
			return b.tree(c, f.off)
		}
	}
	return nil, fmt.Errorf("address %#x: %w: no function covers it", pc, ErrNotFound)
}

func inRanges(rs [][2]uint64, pc uint64) bool {
	for _, r := range rs {
		if r[0] <= pc && pc < r[1] {
			return true
		}
	}
	return false
}

// funcTree is a concrete subprogram's DIE tree with abstract origins loaded.
type funcTree struct {
	cu    *cuInfo
	root  *godwarf.Tree
	name  string // DWARF name, through the abstract origin
	entry uint64 // entry address: DW_AT_entry_pc, low_pc or first range

	bodyOnce sync.Once
	opt      bool   // optimised code
	body     uint64 // first address after the prologue (afterPrologue)
	pe       uint64 // first prologue_end row, 0 if none
}

func (b *Binary) tree(c *cuInfo, off dwarf.Offset) (*funcTree, error) {
	b.mu.Lock()
	t, ok := b.trees[off]
	b.mu.Unlock()
	if ok {
		return t, nil
	}
	root, err := godwarf.LoadTree(off, b.dw, 0)
	if err != nil {
		return nil, malformed("function DIE tree", err)
	}
	t = &funcTree{cu: c, root: root}
	t.name, _ = root.Val(dwarf.AttrName).(string)
	t.entry = entryPC(root)
	if len(root.Ranges) > 1 {
		t.entry = b.splitEntry(root, t.entry)
	}
	b.mu.Lock()
	b.trees[off] = t
	b.mu.Unlock()
	return t, nil
}

// splitEntry is the entry of a function in several address ranges
// without DW_AT_entry_pc or DW_AT_low_pc: gcc's hot/cold splitting puts
// `f.cold` in .text.unlikely, below f, and the sorted ranges' first is
// then the cold part, which a call never enters. The entry is where a
// function symbol other than a .cold or .part one starts a range, else
// the first range as DWARF lists it (gcc lists the hot part first).
//
// A clone's DIE (DW_AT_abstract_origin: godwarf merges it with its
// origin's) is not a plain entry; its ranges are the tree's, sorted, and
// the entry is still where a symbol of it starts one (jq's
// jvp_object_add_slot.isra.0 was probed at its .cold part).
func (b *Binary) splitEntry(n *godwarf.Tree, sorted uint64) uint64 {
	if n.Entry.Val(dwarf.AttrEntrypc) != nil || n.Entry.Val(dwarf.AttrLowpc) != nil {
		return sorted
	}
	rg := n.Ranges
	if e, ok := n.Entry.(*dwarf.Entry); ok {
		if r, err := b.dw.Ranges(e); err == nil && len(r) > 0 {
			rg = r // in DWARF's order
		}
	}
	if len(rg) == 0 {
		return sorted
	}
	for _, r := range rg {
		if s, ok := b.symbolAt(r[0]); ok && s.Value == r[0] && !strings.Contains(s.Name, ".cold") && !strings.Contains(s.Name, ".part.") {
			return r[0]
		}
	}
	return rg[0][0]
}

// entryPC returns the entry address of a subprogram or inlined subroutine.
//
// n.Entry is read through godwarf's interface: an inlined copy's or a
// clone's DIE is merged with its abstract origin's, and its entry_pc was
// skipped (the lowest address taken instead, the copy's .cold part).
func entryPC(n *godwarf.Tree) uint64 {
	if v, ok := n.Entry.Val(dwarf.AttrEntrypc).(uint64); ok && v != 0 {
		if f := n.Entry.AttrField(dwarf.AttrEntrypc); f != nil && f.Class == dwarf.ClassAddress {
			return v
		}
	}
	if v, ok := n.Val(dwarf.AttrLowpc).(uint64); ok && v != 0 {
		if inRanges(n.Ranges, v) || len(n.Ranges) == 0 {
			return v
		}
	}
	if len(n.Ranges) > 0 {
		lo := n.Ranges[0][0]
		return lo
	}
	return 0
}

var optFlag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|\s)-O(\d|s|z|g|fast)?(\s|$)`) })

// optimized reports whether the producer string records optimisation; ok is
// false when it does not say (clang without -grecord-command-line).
func optimized(producer string) (opt, ok bool) {
	ms := optFlag().FindAllStringSubmatch(producer, -1)
	if len(ms) == 0 {
		if strings.HasPrefix(producer, "GNU ") {
			return false, true // gcc always records -O; none means -O0
		}
		return false, false
	}
	last := ms[len(ms)-1][2]
	return last != "0", true
}

// linesIn returns the distinct lines of file (any, when "") that have
// statement rows in the given ranges: the lines a probe can name.
func linesIn(c *cuInfo, rs [][2]uint64, file string) []int {
	seen := map[int]bool{}
	for _, rg := range rs {
		c.rowsIn(rg[0], rg[1], func(i int) {
			// Only lines a probe can name: statement rows of the file.
			if r := c.rows[i]; r.line > 0 && r.stmt && (file == "" || r.file == file) {
				seen[r.line] = true
			}
		})
	}
	out := make([]int, 0, len(seen))
	for l := range seen {
		out = append(out, l)
	}
	sort.Ints(out)
	return out
}

// linesOfFile is linesIn split by file: the lines of file (all lines when
// file is empty) and, sorted, the others as "base:line".
func linesOfFile(c *cuInfo, rs [][2]uint64, file string) ([]int, []string) {
	seen := map[int]bool{}
	other := map[string]bool{}
	for _, rg := range rs {
		c.rowsIn(rg[0], rg[1], func(i int) {
			r := c.rows[i]
			switch {
			case r.line <= 0:
			case file == "" || r.file == file:
				seen[r.line] = true
			default:
				other[fmt.Sprintf("%s:%d", filepath.Base(r.file), r.line)] = true
			}
		})
	}
	out := make([]int, 0, len(seen))
	for l := range seen {
		out = append(out, l)
	}
	sort.Ints(out)
	var others []string
	for k := range other {
		others = append(others, k)
	}
	sort.Strings(others)
	return out, others
}
