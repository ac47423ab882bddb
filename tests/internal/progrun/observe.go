// Package progrun is the differential harness shared by the corpus tests
// (tests/) and the real-world suite (tests/realworld): it builds the
// packets programs are run on, runs a program with BPF_PROG_TEST_RUN,
// observes everything a run can change (return value, output packet and
// context, map contents, global variables) and compares two observations.
package progrun

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/cilium/ebpf"
)

// Input is one BPF_PROG_TEST_RUN's input.
type Input struct {
	Data []byte // the packet (nil: none, as for syscall programs)
	// Context is the context given (nil: none); CtxOut, when above zero,
	// asks for the context back, that many bytes.
	Context []byte
	CtxOut  int
	Flags   uint32
	CPU     uint32
	Repeat  uint32 // runs of the same input (0: one)
}

// Observation is everything a run lets a test see.
type Observation struct {
	Retval uint32
	// Err is the run's error, when the kernel refused to run it: two
	// compilers' programs must then fail alike.
	Err    string
	In     []byte // the packet given
	Out    []byte // the packet after the run (nil without one)
	CtxOut []byte // the context after the run (nil unless asked for)
	Maps   map[string]MapDump
	Vars   map[string][]byte
}

// MapDump is a map's contents: hex key to value. Per-CPU maps hold one value
// per possible CPU.
type MapDump struct {
	PerCPU  bool
	Entries map[string][][]byte
}

// Run runs prog once per repeat on in and returns the last run's return
// value, output packet and context; the maps and globals are left to
// Observe.
func Run(prog *ebpf.Program, in Input) (Observation, error) {
	o := Observation{In: in.Data}
	for range max(in.Repeat, 1) {
		opts := &ebpf.RunOptions{Flags: in.Flags, CPU: in.CPU}
		if in.Data != nil {
			opts.Data = bytes.Clone(in.Data)
			opts.DataOut = make([]byte, len(in.Data)+1024)
		}
		if in.Context != nil {
			opts.Context = bytes.Clone(in.Context)
		}
		if in.CtxOut > 0 {
			o.CtxOut = make([]byte, in.CtxOut)
			opts.ContextOut = o.CtxOut
		}
		ret, err := prog.Run(opts)
		if err != nil {
			return o, err
		}
		o.Retval, o.Out = ret, opts.DataOut
	}
	return o, nil
}

// Observe adds the maps and globals of coll, loaded from spec, to o.
func Observe(o *Observation, coll *ebpf.Collection, spec *ebpf.CollectionSpec) error {
	var err error
	if o.Maps, err = DumpMaps(coll); err != nil {
		return err
	}
	o.Vars, err = DumpVars(coll, spec)
	return err
}

// IsPerCPU reports a map type that holds one value per CPU.
func IsPerCPU(t ebpf.MapType) bool {
	return t == ebpf.PerCPUArray || t == ebpf.PerCPUHash || t == ebpf.LRUCPUHash
}

// IsDumpable reports a map type whose contents user space iterates.
func IsDumpable(t ebpf.MapType) bool {
	switch t {
	case ebpf.Array, ebpf.Hash, ebpf.LRUHash, ebpf.PerCPUArray, ebpf.PerCPUHash, ebpf.LRUCPUHash, ebpf.LPMTrie:
		return true
	}
	return false
}

// DumpMaps reads every user map (data sections are read as variables).
func DumpMaps(coll *ebpf.Collection) (map[string]MapDump, error) {
	out := map[string]MapDump{}
	for name, m := range coll.Maps {
		if strings.HasPrefix(name, ".") || !IsDumpable(m.Type()) {
			continue
		}
		d, err := dumpMap(m)
		if err != nil {
			return nil, fmt.Errorf("map %s: %w", name, err)
		}
		out[name] = d
	}
	return out, nil
}

func dumpMap(m *ebpf.Map) (MapDump, error) {
	d := MapDump{PerCPU: IsPerCPU(m.Type()), Entries: map[string][][]byte{}}
	var key []byte
	it := m.Iterate()
	if d.PerCPU {
		var vals [][]byte
		for it.Next(&key, &vals) {
			d.Entries[hex.EncodeToString(key)] = cloneAll(vals)
		}
	} else {
		var val []byte
		for it.Next(&key, &val) {
			d.Entries[hex.EncodeToString(key)] = [][]byte{bytes.Clone(val)}
		}
	}
	return d, it.Err()
}

func cloneAll(vals [][]byte) [][]byte {
	out := make([][]byte, len(vals))
	for i, v := range vals {
		out[i] = bytes.Clone(v)
	}
	return out
}

// DumpVars reads every global variable of coll, loaded from spec. A
// section user space cannot map (one holding a spin lock) is read as its
// map's single value.
func DumpVars(coll *ebpf.Collection, spec *ebpf.CollectionSpec) (map[string][]byte, error) {
	out := map[string][]byte{}
	sections := map[string][]byte{}
	for name, v := range coll.Variables {
		var b []byte
		err := v.Get(&b)
		if errors.Is(err, ebpf.ErrNotSupported) && spec.Variables[name] != nil {
			b, err = readUnmapped(coll, spec.Variables[name], sections)
		}
		if err != nil {
			return nil, fmt.Errorf("variable %s: %w", name, err)
		}
		out[name] = b
	}
	return out, nil
}

func readUnmapped(coll *ebpf.Collection, vs *ebpf.VariableSpec, sections map[string][]byte) ([]byte, error) {
	sec, ok := sections[vs.SectionName]
	if !ok {
		m := coll.Maps[vs.SectionName]
		if m == nil {
			return nil, fmt.Errorf("no map for section %s", vs.SectionName)
		}
		if err := m.Lookup(uint32(0), &sec); err != nil {
			return nil, fmt.Errorf("section %s: %w", vs.SectionName, err)
		}
		sections[vs.SectionName] = sec
	}
	end := uint64(vs.Offset) + uint64(vs.Size())
	if end > uint64(len(sec)) {
		return nil, fmt.Errorf("section %s is %d bytes, variable ends at %d", vs.SectionName, len(sec), end)
	}
	return bytes.Clone(sec[vs.Offset:end]), nil
}
