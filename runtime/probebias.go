package runtime

import (
	"sort"
)

// A user stack taken in a uprobe starts at the probed instruction, so its
// first address and the probe's place in the binary give where the binary
// was loaded, even after the process is gone: a command that exits before
// the mappings poll reads it still gets its own frames named. uretprobes
// are left out: their first frame is the return address.

// probeSite is a probed instruction: its binary and virtual address there.
type probeSite struct {
	path  string
	vaddr uint64
}

// addProbes notes the entry uprobes among plans.
func (s *symbolizer) addProbes(plans []plan) {
	for _, pl := range plans {
		p := pl.point
		if p.kind != kindUprobe || p.ret {
			continue
		}
		path, err := resolveBinary(p.binary)
		if err != nil {
			continue
		}
		es := s.elf(path)
		if es == nil {
			continue
		}
		vaddr, ok := es.probeVaddr(p.symbol, p.address)
		if !ok {
			continue
		}
		s.mu.Lock()
		s.probes = append(s.probes, probeSite{path, vaddr + p.offset})
		s.mu.Unlock()
	}
}

// probeVaddr is the virtual address of symbol, or of file offset off when
// there is no symbol (as link.UprobeOptions.Address reads it).
func (es *elfSyms) probeVaddr(symbol string, off uint64) (uint64, bool) {
	if symbol != "" {
		for _, sym := range es.syms {
			if sym.name == symbol {
				return sym.addr, true
			}
		}
		return 0, false
	}
	for _, p := range es.loads {
		if off >= p.Off && off < p.Off+p.Filesz {
			return off - p.Off + p.Vaddr, true
		}
	}
	return 0, false
}

// probeMappings returns the mappings of the probed binary whose probe,
// loaded page-aligned, sits at first (a stack's innermost address), or
// nil. The first such probe wins; probes are in attach order.
func (s *symbolizer) probeMappings(first uint64) []mapping {
	s.mu.Lock()
	probes := s.probes
	s.mu.Unlock()
	for _, p := range probes {
		if first < p.vaddr || (first-p.vaddr)&0xfff != 0 {
			continue
		}
		es := s.elf(p.path)
		if es == nil {
			continue
		}
		bias := first - p.vaddr
		var ms []mapping
		for _, l := range es.loads {
			ms = append(ms, mapping{start: bias + l.Vaddr&^0xfff, end: bias + l.Vaddr + l.Memsz, off: l.Off &^ 0xfff, path: p.path})
		}
		sort.Slice(ms, func(i, j int) bool { return ms[i].start < ms[j].start })
		return ms
	}
	return nil
}

// covers reports whether one of ms holds a.
func covers(ms []mapping, a uint64) bool {
	for _, m := range ms {
		if a >= m.start && a < m.end {
			return true
		}
	}
	return false
}
