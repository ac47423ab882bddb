package dwarfvars

import (
	"debug/dwarf"
	"debug/elf"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-delve/delve/pkg/dwarf/godwarf"
	"golang.org/x/arch/x86/x86asm"
)

// Site is one concrete probe address.
type Site struct {
	Probe Probe
	// Addr is the virtual (link-time) address of the probed instruction.
	Addr uint64
	// FileOffset is Addr's offset in the file, what a uprobe attaches to.
	FileOffset uint64
	// Func is the ELF symbol containing Addr (helper.constprop.0 for a
	// clone), or the DWARF name when there is no symbol table.
	Func string
	// FuncOffset is Addr minus the symbol's start: the OFF of
	// "uprobe/BIN:FUNC+0xOFF".
	FuncOffset uint64
	// Name is the C++ qualified name with its parameter list
	// (geo::Counter::add(long)) when Func is a mangled symbol, for
	// messages; empty otherwise.
	Name string
	File string
	Line int
	// Return marks a return probe (uretprobe at Func).
	Return bool
	// EntryAddr is the entry of the containing out-of-line function, where
	// entry values are saved.
	EntryAddr uint64
	// Inlined lists the inlined functions Addr is in, innermost first.
	Inlined []string
	// CU is the name (DW_AT_name) of the compile unit holding Addr.
	CU string
	// FuncAmbiguous is set when several functions of the binary have the
	// symbol name Func (static functions of one name in several compile
	// units, or their clones): "Func+0xOFF" does not say which, so attach
	// by FileOffset, and name the probe with OffsetSpec.
	FuncAmbiguous bool
	// NoSymbol is set when Func is named only by the separate debug file
	// of a stripped binary: attach by FileOffset.
	NoSymbol bool
}

// OffsetSpec is the FUNC+OFF probe of the site (FUNC%return for a return
// site), FUNC@CU+OFF when Func alone is ambiguous.
func (s Site) OffsetSpec() string {
	fn := s.Func
	if s.FuncAmbiguous && s.CU != "" {
		fn += "@" + filepath.Base(s.CU)
	}
	if s.Return {
		return fn + "%return"
	}
	return fmt.Sprintf("%s+%#x", fn, s.FuncOffset)
}

// String formats the site like "main+0x1c (prog.c:12)", with the
// qualified name of a C++ function instead of its mangled symbol.
func (s Site) String() string {
	fn := s.Func
	if s.Name != "" {
		fn = s.Name
	}
	r := fmt.Sprintf("%s+%#x", fn, s.FuncOffset)
	if s.Return {
		r = fn + "%return"
	}
	if s.File != "" {
		r += fmt.Sprintf(" (%s:%d)", filepath.Base(s.File), s.Line)
	}
	return r
}

// Resolve turns a probe into its sites, one per address, sorted by address.
func (b *Binary) Resolve(p Probe) (sites []Site, err error) {
	defer recoverInto(&err, "probe "+p.Spec)
	var addrs []uint64
	switch p.Kind {
	case ProbeFunc:
		addrs, err = b.resolveFunc(p)
	case ProbeFuncOffset:
		addrs, err = b.resolveFuncOffset(p)
	case ProbeFuncLine:
		addrs, err = b.resolveFuncLine(p)
	case ProbeFileLine:
		addrs, err = b.resolveFileLine(p)
	default:
		err = fmt.Errorf("probe %s: unknown kind %d", p.Spec, p.Kind)
	}
	if err != nil {
		return nil, err
	}
	if p.Kind == ProbeFuncLine || p.Kind == ProbeFileLine {
		for i, a := range addrs {
			// A line whose code starts at a function's entry (its
			// opening line: the prologue) probes after the prologue,
			// as the FUNC probe and gdb's `break FILE:LINE` do: at -O0
			// the parameters are not in their stack slots before it.
			if ft, err := b.funcAt(a); err == nil && a == ft.entry {
				addrs[i] = b.afterPrologue(ft)
			}
		}
	}
	sort.Slice(addrs, func(i, j int) bool { return addrs[i] < addrs[j] })
	for i, a := range addrs {
		if i > 0 && a == addrs[i-1] {
			continue
		}
		s, err := b.site(p, a)
		if err != nil {
			return nil, err
		}
		sites = append(sites, s)
	}
	return sites, nil
}

// SiteAt builds the Site for an address (for callers that have one).
func (b *Binary) SiteAt(addr uint64) (s Site, err error) {
	defer recoverInto(&err, fmt.Sprintf("address %#x", addr))
	return b.site(Probe{Spec: fmt.Sprintf("%#x", addr)}, addr)
}

func (b *Binary) site(p Probe, a uint64) (Site, error) {
	s := Site{Probe: p, Addr: a, Return: p.Return}
	s.FileOffset, _ = b.fileOffset(a)
	ft, err := b.funcAt(a)
	if err == nil {
		s.EntryAddr = ft.entry
		s.Func = ft.name
		s.CU = b.srcUnitName(ft.cu, ft.root)
		if rows, err := b.lines(ft.cu); err == nil {
			if r, ok := ft.cu.rowFor(a); ok {
				s.File, s.Line = r.file, r.line
			}
			// Several rows can share an address (a loop header is also the
			// function's first line): a line probe names the line it asked for.
			if want := probedLine(p, ft); want > 0 {
				for _, r := range rows {
					if r.addr == a && r.line == want && !r.endSeq {
						s.File, s.Line = r.file, r.line
						break
					}
				}
			}
		}
		for _, in := range inlineStack(ft.root, a) {
			n, _ := in.Val(dwarf.AttrName).(string)
			s.Inlined = append(s.Inlined, n)
		}
	}
	if sym, ok := b.symbolAt(a); ok {
		s.Func, s.FuncOffset = sym.Name, a-sym.Value
		if strings.HasPrefix(sym.Name, "_Z") && err == nil {
			s.Name = b.qualName(ft)
		}
		s.FuncAmbiguous = len(b.symbolsNamed(sym.Name)) > 1
		s.NoSymbol = b.notInBinary(sym.Name)
		if s.EntryAddr == 0 {
			s.EntryAddr = sym.Value
		}
	} else if err == nil {
		s.FuncOffset = a - ft.entry
	} else {
		return s, fmt.Errorf("probe %s: address %#x is in no known function: %w", p.Spec, a, err)
	}
	return s, nil
}

// probedLine returns the absolute line a line probe asks for (0 if none).
func probedLine(p Probe, ft *funcTree) int {
	switch p.Kind {
	case ProbeFileLine:
		return p.Line
	case ProbeFuncLine:
		if in, ok := ft.root.Val(dwarf.AttrDeclLine).(int64); ok && ft.name == simpleName(p.Func) {
			return int(in) + p.Line
		}
	}
	return 0
}

// inlineStack returns the inlined subroutines containing pc, innermost first.
func inlineStack(root *godwarf.Tree, pc uint64) []*godwarf.Tree {
	var out []*godwarf.Tree
	var walk func(n *godwarf.Tree)
	walk = func(n *godwarf.Tree) {
		for _, c := range n.Children {
			if (c.Tag == dwarf.TagInlinedSubroutine || c.Tag == dwarf.TagLexDwarfBlock) && c.ContainsPC(pc) {
				walk(c)
				if c.Tag == dwarf.TagInlinedSubroutine {
					out = append(out, c)
				}
				return
			}
		}
	}
	walk(root)
	return out
}

func (b *Binary) suggestFuncs(name string) []string {
	var all []string
	for _, s := range b.syms {
		all = append(all, s.Name)
	}
	if b.indexNames() == nil {
		for n := range b.names {
			all = append(all, n)
		}
	}
	return suggest(name, all)
}

// resolveFunc: FUNC and FUNC%return.
func (b *Binary) resolveFunc(p Probe) ([]uint64, error) {
	if addrs := b.partSymbols(p); addrs != nil {
		return addrs, nil
	}
	ins, err := b.instances(p, !p.Return)
	if err != nil {
		if addrs := b.symbolOnly(p, err); addrs != nil {
			return addrs, nil
		}
		return nil, err
	}
	if p.Return {
		for _, in := range ins {
			if isGo(in.tree.cu) {
				return nil, &GoReturnError{Probe: p.Spec, Func: p.Func}
			}
		}
	}
	var out []uint64
	for _, in := range ins {
		if in.inline {
			if p.Return {
				continue
			}
			if a := entryPC(in.node); a != 0 {
				out = append(out, a)
			}
			continue
		}
		entry := in.tree.entry
		if !p.Return {
			entry = b.afterPrologue(in.tree)
		}
		out = append(out, entry)
	}
	if len(out) == 0 {
		return nil, &ProbeNotFoundError{Probe: p.Spec, What: "out-of-line function", Name: p.Func}
	}
	return out, nil
}

// partSymbols returns the addresses of ELF symbols named exactly as p's
// function that start a part of another function's code, not its entry:
// `collect.cold` names gcc's cold part of collect, where gdb's "break
// collect.cold" stops, not collect's entry.
func (b *Binary) partSymbols(p Probe) []uint64 {
	if p.Return || p.Src != "" || !strings.Contains(p.Func, ".cold") && !strings.Contains(p.Func, ".part.") {
		return nil
	}
	var out []uint64
	for _, s := range b.symbolsNamed(p.Func) {
		if ft, err := b.funcAt(s.Value); err == nil && s.Value != ft.entry && ft.name != p.Func {
			out = append(out, s.Value)
		}
	}
	return out
}

// symbolOnly returns the addresses of the ELF function symbols named as
// p's function whose code no DWARF function covers, when finding it in
// the DWARF failed with err: gcc's identical code folding leaves a folded
// function a subprogram DIE without addresses (lz4's LZ4_freeStreamDecode
// at -O2). gdb breaks at the symbol, with no variables in scope; so does
// a probe (Vars finds none).
func (b *Binary) symbolOnly(p Probe, err error) []uint64 {
	var nf *ProbeNotFoundError
	if !errors.As(err, &nf) || nf.InlinedCopies > 0 || p.Src != "" {
		return nil
	}
	name, _, has := splitParams(p.Func)
	if has {
		return nil
	}
	var out []uint64
	for _, s := range b.symbolsNamed(name) {
		if !b.symbolOnlyFunc(s) {
			continue
		}
		a := s.Value
		if p.Kind == ProbeFuncOffset {
			if p.Offset >= s.Size {
				continue
			}
			a += p.Offset
		}
		out = append(out, a)
	}
	return out
}

// symbolOnlyFunc reports whether s is a function's symbol whose code no
// DWARF function covers.
func (b *Binary) symbolOnlyFunc(s elf.Symbol) bool {
	if elf.ST_TYPE(s.Info) != elf.STT_FUNC || s.Value == 0 || s.Size == 0 {
		return false
	}
	_, err := b.funcAt(s.Value)
	return err != nil
}

// resolveFuncOffset: FUNC+OFF, checked against instruction boundaries.
func (b *Binary) resolveFuncOffset(p Probe) ([]uint64, error) {
	ins, err := b.instances(p, false)
	if err != nil {
		if addrs := b.symbolOnly(p, err); addrs != nil {
			for _, a := range addrs {
				sym, _ := b.symbolAt(a)
				if err := b.checkBoundary(p, sym.Value, sym.Value+sym.Size); err != nil {
					return nil, err
				}
			}
			return addrs, nil
		}
		return nil, err
	}
	if cus := outOfLineCUs(b, ins); cus != nil {
		// An offset is an instruction of one copy's code: in another
		// copy it may fall inside an instruction.
		var alts []string
		for _, cu := range cus {
			alts = append(alts, fmt.Sprintf("%s@%s+%#x", p.Func, filepath.Base(cu), p.Offset))
		}
		return nil, &AmbiguousFuncError{Probe: p.Spec, Func: p.Func, Units: cus, Alternatives: alts}
	}
	var out []uint64
	for _, in := range ins {
		if in.inline {
			continue
		}
		start := in.tree.entry
		end := start
		for _, r := range in.tree.root.Ranges {
			if r[0] <= start && start < r[1] {
				end = r[1]
			}
		}
		if sym, ok := b.symbolAt(start); ok && sym.Value == start && sym.Size > 0 {
			end = max(end, start+sym.Size)
		}
		if p.Offset >= end-start {
			return nil, &BadOffsetError{Probe: p.Spec, Func: p.Func, Offset: p.Offset, Outside: true}
		}
		if err := b.checkBoundary(p, start, end); err != nil {
			return nil, err
		}
		out = append(out, start+p.Offset)
	}
	return out, nil
}

// checkBoundary decodes from the function start to make sure start+OFF
// begins an instruction: a breakpoint inside one corrupts the program.
func (b *Binary) checkBoundary(p Probe, start, end uint64) error {
	code, err := b.code(start, end)
	if err != nil {
		return fmt.Errorf("probe %s: %w", p.Spec, err)
	}
	var pc uint64
	for pc < p.Offset {
		inst, err := x86asm.Decode(code[pc:], 64)
		if err != nil || inst.Len == 0 {
			return fmt.Errorf("probe %s: cannot decode instruction at %s+%#x: %v", p.Spec, p.Func, pc, err)
		}
		next := pc + uint64(inst.Len)
		if next > p.Offset {
			return &BadOffsetError{Probe: p.Spec, Func: p.Func, Offset: p.Offset, Prev: pc, Next: next}
		}
		pc = next
	}
	return nil
}

// resolveFuncLine: FUNC:RLN = decl_line + RLN in the function's file.
func (b *Binary) resolveFuncLine(p Probe) ([]uint64, error) {
	ins, err := b.instances(p, true)
	if err != nil {
		return nil, err
	}
	var out []uint64
	var file string
	var line int
	var nearest []int
	for _, in := range ins {
		decl, ok := in.node.Val(dwarf.AttrDeclLine).(int64)
		if !ok {
			return nil, fmt.Errorf("probe %s: function %s has no DW_AT_decl_line", p.Spec, p.Func)
		}
		line = int(decl) + p.Line
		rows, err := b.lines(in.tree.cu)
		if err != nil {
			return nil, err
		}
		f := declFile(b, in)
		for i, r := range rows {
			if r.endSeq || !r.stmt || r.line != line || i+1 >= len(rows) || !inRanges(in.node.Ranges, r.addr) {
				continue
			}
			if f == "" || r.file == f {
				out, file = append(out, r.addr), r.file
			}
		}
		nearest = append(nearest, linesIn(in.tree.cu, in.node.Ranges, f)...)
	}
	if len(out) == 0 {
		return nil, &NoCodeError{Probe: p.Spec, File: p.Func, Line: line, Nearest: closest(nearest, line, 4)}
	}
	_ = file
	return out, nil
}

// declFile returns the file name of a function's DW_AT_decl_file.
func declFile(b *Binary, in instance) string {
	idx, ok := in.node.Val(dwarf.AttrDeclFile).(int64)
	if !ok {
		return ""
	}
	// The index is into the file table of the unit holding the
	// declaration: another unit's for LTO code (see lto.go).
	lr, err := b.dw.LineReader(b.srcUnit(in.tree.cu, in.node))
	if err != nil || lr == nil {
		return ""
	}
	fs := lr.Files()
	if idx < 0 || int(idx) >= len(fs) || fs[idx] == nil {
		return ""
	}
	return fs[idx].Name
}

// resolveFileLine: FILE:LINE in every CU whose line table names a file
// with that path suffix.
func (b *Binary) resolveFileLine(p Probe) ([]uint64, error) {
	var out []uint64
	var nearest []int
	var known []string
	fileSeen := false
	err := b.allCUs(func(c *cuInfo) error {
		rows, err := b.lines(c)
		if err != nil {
			return nil // a broken line table in another CU does not matter
		}
		for i, r := range rows {
			if !pathSuffix(r.file, p.File) {
				if len(known) < 2000 && r.file != "" {
					known = append(known, filepath.Base(r.file))
				}
				continue
			}
			fileSeen = true
			if r.endSeq || i+1 >= len(rows) {
				continue
			}
			if r.line == p.Line && r.stmt {
				out = append(out, r.addr)
			} else if r.line > 0 && r.stmt {
				nearest = append(nearest, r.line) // a line a probe can name
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !fileSeen {
		return nil, &ProbeNotFoundError{Probe: p.Spec, What: "file", Name: p.File, Suggestions: suggest(filepath.Base(p.File), known)}
	}
	if len(out) == 0 {
		return nil, &NoCodeError{Probe: p.Spec, File: p.File, Line: p.Line, Nearest: closest(nearest, p.Line, 4)}
	}
	return out, nil
}

// pathSuffix reports whether path ends with suffix on a path-component
// boundary.
func pathSuffix(path, suffix string) bool {
	suffix = strings.TrimPrefix(suffix, "./")
	if path == suffix {
		return true
	}
	return strings.HasSuffix(path, "/"+suffix) || (strings.HasPrefix(suffix, "/") && filepath.Clean(path) == filepath.Clean(suffix))
}

// closest returns up to n distinct values of lines nearest to target.
func closest(lines []int, target, n int) []int {
	seen := map[int]bool{}
	var u []int
	for _, l := range lines {
		if !seen[l] && l != target {
			seen[l] = true
			u = append(u, l)
		}
	}
	sort.Slice(u, func(i, j int) bool {
		di, dj := abs(u[i]-target), abs(u[j]-target)
		return di < dj || di == dj && u[i] < u[j]
	})
	if len(u) > n {
		u = u[:n]
	}
	sort.Ints(u)
	return u
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
