package runtime

import (
	"bufio"
	"debug/dwarf"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Frame is one symbolised stack frame.
type Frame struct {
	Addr   uint64 `json:"addr"`
	Func   string `json:"func,omitempty"`   // "" when no symbol covers Addr
	Offset uint64 `json:"offset,omitempty"` // Addr - the symbol's start
	File   string `json:"file,omitempty"`   // from DWARF line tables
	Line   int    `json:"line,omitempty"`
	Module string `json:"module,omitempty"` // the mapped file of a user frame; "kernel"
}

// Name is the frame's function, or its address in hex when unknown.
func (f Frame) Name() string {
	if f.Func != "" {
		return f.Func
	}
	return fmt.Sprintf("0x%x", f.Addr)
}

// String prints "func+0xOFF (file:line)" or "func+0xOFF [module]".
func (f Frame) String() string {
	s := f.Name()
	if f.Func != "" && f.Offset != 0 {
		s += fmt.Sprintf("+0x%x", f.Offset)
	}
	switch {
	case f.File != "":
		s += fmt.Sprintf(" (%s:%d)", f.File, f.Line)
	case f.Module != "" && f.Module != "kernel":
		s += " [" + f.Module + "]"
	}
	return s
}

// kernelAddr reports whether a reads as a kernel address (the upper half).
func kernelAddr(a uint64) bool { return a >= 0xffff800000000000 }

// mapping is one file-backed line of /proc/PID/maps.
type mapping struct {
	start, end, off uint64
	path            string
}

// symbolizer turns stack addresses into frames: kernel addresses from
// /proc/kallsyms, user addresses through the process's mappings (cached
// per pid: a process that has exited keeps its last-read mappings), ELF
// symbols and DWARF line tables.
type symbolizer struct {
	mu       sync.Mutex
	ksyms    []ksym
	kloaded  bool
	maps     map[int][]mapping
	files    map[string]*elfSyms
	stopPoll chan struct{}
	probes   []probeSite // entry uprobes, for stacks of exited processes
	// notExe is a binary whose mappings notePID does not keep: the gate
	// shell a command runs in until it execs (see gateScript).
	notExe string
}

type ksym struct {
	addr uint64
	name string
}

func newSymbolizer() *symbolizer {
	return &symbolizer{maps: map[int][]mapping{}, files: map[string]*elfSyms{}}
}

// notePID reads and caches pid's mappings while the process is alive; it
// keeps the previous ones when it is gone.
func (s *symbolizer) notePID(pid int) {
	if pid <= 0 {
		return
	}
	if s.notExe != "" {
		if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); err != nil || exe == s.notExe {
			return
		}
	}
	ms, err := readMaps(pid)
	if err != nil || len(ms) == 0 {
		return
	}
	s.mu.Lock()
	s.maps[pid] = ms
	s.mu.Unlock()
}

// poll re-reads pid's mappings every interval until stop, so that a
// command that exits before the run ends still has its last mappings.
func (s *symbolizer) poll(pid int, every time.Duration) {
	s.stopPoll = make(chan struct{})
	stop := s.stopPoll
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			s.notePID(pid)
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
}

func (s *symbolizer) stop() {
	if s.stopPoll != nil {
		close(s.stopPoll)
		s.stopPoll = nil
	}
}

func readMaps(pid int) ([]mapping, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/maps", pid))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []mapping
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 6 || !strings.HasPrefix(fs[5], "/") {
			continue
		}
		lo, hi, ok := strings.Cut(fs[0], "-")
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		off, err3 := strconv.ParseUint(fs[2], 16, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			continue
		}
		out = append(out, mapping{start, end, off, strings.Join(fs[5:], " ")})
	}
	return out, sc.Err()
}

// Frames symbolises addrs (innermost first) of process pid; kernel
// addresses need no pid. Every frame but the innermost is a return
// address, so its line is looked up one byte earlier, at the call.
func (s *symbolizer) Frames(pid int, addrs []uint64) []Frame {
	s.notePID(pid)
	s.mu.Lock()
	ms := s.maps[pid]
	s.mu.Unlock()
	if len(addrs) > 0 && !kernelAddr(addrs[0]) && !covers(ms, addrs[0]) {
		// No mappings (the process exited unread) or stale ones: a
		// stack taken at a probe says where the probed binary was.
		ms = append(s.probeMappings(addrs[0]), ms...)
	}
	out := make([]Frame, 0, len(addrs))
	for i, a := range addrs {
		if kernelAddr(a) {
			out = append(out, s.kernel(a))
		} else {
			out = append(out, s.user(ms, a, i > 0))
		}
	}
	return out
}

func (s *symbolizer) kernel(a uint64) Frame {
	s.mu.Lock()
	if !s.kloaded {
		s.kloaded = true
		s.ksyms = loadKallsyms()
	}
	syms := s.ksyms
	s.mu.Unlock()
	f := Frame{Addr: a, Module: "kernel"}
	i := sort.Search(len(syms), func(i int) bool { return syms[i].addr > a }) - 1
	if i >= 0 {
		f.Func, f.Offset = syms[i].name, a-syms[i].addr
	}
	return f
}

// loadKallsyms reads the text symbols of /proc/kallsyms, sorted by address.
func loadKallsyms() []ksym {
	f, err := os.Open("/proc/kallsyms")
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []ksym
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 3 || (fs[1] != "t" && fs[1] != "T" && fs[1] != "w" && fs[1] != "W") {
			continue
		}
		a, err := strconv.ParseUint(fs[0], 16, 64)
		if err != nil || a == 0 {
			continue
		}
		out = append(out, ksym{a, fs[2]})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].addr < out[j].addr })
	return out
}

func (s *symbolizer) user(ms []mapping, a uint64, ret bool) Frame {
	f := Frame{Addr: a}
	for _, m := range ms {
		if a < m.start || a >= m.end {
			continue
		}
		f.Module = m.path
		es := s.elf(m.path)
		if es == nil {
			return f
		}
		vaddr, ok := es.vaddr(a - m.start + m.off)
		if !ok {
			return f
		}
		if sym, ok := es.symbol(vaddr); ok {
			f.Func, f.Offset = sym.name, vaddr-sym.addr
		}
		look := vaddr
		if ret {
			look--
		}
		f.File, f.Line = es.line(look)
		return f
	}
	return f
}

func (s *symbolizer) elf(path string) *elfSyms {
	s.mu.Lock()
	defer s.mu.Unlock()
	if es, ok := s.files[path]; ok {
		return es
	}
	es, err := openElfSyms(path)
	if err != nil {
		es = nil
	}
	s.files[path] = es
	return es
}

// elfSyms is what symbolising needs of one ELF file.
type elfSyms struct {
	loads []elf.ProgHeader
	syms  []ksym // function symbols by address
	sizes []uint64
	lines []lineRow // sorted by address
}

type lineRow struct {
	addr uint64
	file string
	line int
	end  bool // end of a sequence: no line from here on
}

func openElfSyms(path string) (*elfSyms, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	es := &elfSyms{}
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD {
			es.loads = append(es.loads, p.ProgHeader)
		}
	}
	type fs struct {
		addr, size uint64
		name       string
	}
	var all []fs
	for _, get := range []func() ([]elf.Symbol, error){f.Symbols, f.DynamicSymbols} {
		syms, _ := get()
		for _, sy := range syms {
			if elf.ST_TYPE(sy.Info) == elf.STT_FUNC && sy.Value != 0 {
				name, _, _ := strings.Cut(sy.Name, "@")
				all = append(all, fs{sy.Value, sy.Size, name})
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].addr < all[j].addr })
	for _, x := range all {
		es.syms = append(es.syms, ksym{x.addr, x.name})
		es.sizes = append(es.sizes, x.size)
	}
	if d, err := f.DWARF(); err == nil {
		es.lines = lineTable(d)
	}
	return es, nil
}

// vaddr converts a file offset to the ELF's virtual address.
func (es *elfSyms) vaddr(off uint64) (uint64, bool) {
	for _, p := range es.loads {
		if off >= p.Off && off < p.Off+p.Filesz {
			return off - p.Off + p.Vaddr, true
		}
	}
	return 0, false
}

func (es *elfSyms) symbol(a uint64) (ksym, bool) {
	i := sort.Search(len(es.syms), func(i int) bool { return es.syms[i].addr > a }) - 1
	for ; i >= 0; i-- {
		if sz := es.sizes[i]; sz == 0 || a < es.syms[i].addr+sz {
			return es.syms[i], true
		}
		if i > 0 && es.syms[i-1].addr != es.syms[i].addr {
			break
		}
	}
	return ksym{}, false
}

func (es *elfSyms) line(a uint64) (string, int) {
	i := sort.Search(len(es.lines), func(i int) bool { return es.lines[i].addr > a }) - 1
	if i < 0 || es.lines[i].end {
		return "", 0
	}
	return es.lines[i].file, es.lines[i].line
}

// lineTable reads every compile unit's DWARF line rows.
func lineTable(d *dwarf.Data) []lineRow {
	var rows []lineRow
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil || e == nil {
			break
		}
		if e.Tag != dwarf.TagCompileUnit {
			r.SkipChildren()
			continue
		}
		lr, err := d.LineReader(e)
		if err == nil && lr != nil {
			var le dwarf.LineEntry
			for {
				if err := lr.Next(&le); err != nil {
					if !errors.Is(err, io.EOF) {
						rows = rows[:len(rows):len(rows)]
					}
					break
				}
				row := lineRow{addr: le.Address, line: le.Line, end: le.EndSequence}
				if le.File != nil {
					row.file = le.File.Name
				}
				rows = append(rows, row)
			}
		}
		r.SkipChildren()
	}
	// Stable, with end-of-sequence rows before rows at the same address
	// that start the next sequence.
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].addr != rows[j].addr {
			return rows[i].addr < rows[j].addr
		}
		return rows[i].end && !rows[j].end
	})
	return rows
}
