package runtime

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/btf"
	"github.com/cilium/ebpf/perf"
	"github.com/cilium/ebpf/ringbuf"

	"github.com/bpfcc/bpfcc/abi"
)

// LostSuffix names a ring buffer's drop counter: BPFCC_OUTPUT(name, type)
// in bpfcc.h defines name_bpfcc_lost, a per-CPU array of one u64 that
// bpfcc_output and bpfcc_reserve increment when the buffer is full. The
// kernel itself counts nothing for ring buffers (perf event arrays report
// their losses in the stream).
const LostSuffix = "_bpfcc_lost"

// readLost sums a drop counter over the CPUs; 0 when it cannot be read.
func readLost(m *ebpf.Map) uint64 {
	var key uint32
	var total uint64
	switch m.Type() {
	case ebpf.PerCPUArray, ebpf.PerCPUHash:
		var vals []uint64
		if m.Lookup(&key, &vals) != nil {
			return 0
		}
		for _, v := range vals {
			total += v
		}
	default:
		if m.ValueSize() != 8 || m.Lookup(&key, &total) != nil {
			return 0
		}
	}
	return total
}

// perfBufferSize is the per-CPU perf ring size.
const perfBufferSize = 64 << 10

// EventTag is the prefix of a BTF decl tag on an output map that names the
// type of its records: __attribute__((btf_decl_tag("bpfcc:event:struct event")))
// or "bpfcc:event:event_t".
const EventTag = abi.EventTag

// eventReader reads one perf event array or ring buffer.
type eventReader struct {
	name string
	typ  btf.Type
	// stacks symbolises the stacks a record holds (nil: none can); tags
	// are the record's members' decl tags.
	stacks *stackCtx
	tags   map[string][]string
	perf   *perf.Reader
	ring   *ringbuf.Reader
	lost   atomic.Uint64
	n      atomic.Uint64
	// lostMap is a ring buffer's BPFCC_OUTPUT drop counter (per-CPU,
	// one u64), nil when the map has none.
	lostMap *ebpf.Map
	wg      sync.WaitGroup
}

// isOutputMap reports whether a map carries records to user space.
func isOutputMap(t ebpf.MapType) bool { return t == ebpf.PerfEventArray || t == ebpf.RingBuf }

// outputType finds the BTF type of an output map's records: Options, then a
// decl tag on the map, then a struct or typedef named after the map (or the
// map name with "_event"/"_t" appended). nil means records print as hex.
func outputType(spec *ebpf.CollectionSpec, ms *ebpf.MapSpec, explicit map[string]btf.Type) btf.Type {
	if t := explicit[ms.Name]; t != nil {
		return t
	}
	if spec.Types == nil {
		return nil
	}
	// The compiler tags each output map whose record type it knows
	// (abi.OutputTag) and records the type as the VAR named
	// abi.OutputVarPrefix+MAP; bpfcc.h's BPFCC_OUTPUT records it as the
	// pointer VAR named MAP+abi.EventVarSuffix.
	var v *btf.Var
	if slices.Contains(ms.Tags, abi.OutputTag) && spec.Types.TypeByName(abi.OutputVarPrefix+ms.Name, &v) == nil {
		return btf.UnderlyingType(v.Type)
	}
	if spec.Types.TypeByName(ms.Name+abi.EventVarSuffix, &v) == nil {
		t := btf.UnderlyingType(v.Type)
		if p, ok := t.(*btf.Pointer); ok {
			t = btf.UnderlyingType(p.Target)
		}
		return t
	}
	for _, tag := range ms.Tags {
		if name, ok := strings.CutPrefix(tag, EventTag); ok {
			if t := typeByName(spec.Types, name); t != nil {
				return t
			}
		}
	}
	for _, name := range []string{ms.Name, ms.Name + "_event", ms.Name + "_t"} {
		if t := typeByName(spec.Types, name); t != nil {
			return t
		}
	}
	return nil
}

// typeByName looks a type up as "struct X", "union X" or a bare name.
func typeByName(s *btf.Spec, name string) btf.Type {
	if rest, ok := strings.CutPrefix(name, "struct "); ok {
		var st *btf.Struct
		if s.TypeByName(rest, &st) == nil {
			return st
		}
		return nil
	}
	if rest, ok := strings.CutPrefix(name, "union "); ok {
		var u *btf.Union
		if s.TypeByName(rest, &u) == nil {
			return u
		}
		return nil
	}
	var st *btf.Struct
	if s.TypeByName(name, &st) == nil {
		return st
	}
	var td *btf.Typedef
	if s.TypeByName(name, &td) == nil {
		return td
	}
	return nil
}

// eventTypes lists the record types of the output maps.
func eventTypes(spec *ebpf.CollectionSpec, opts *Options) []btf.Type {
	var types []btf.Type
	for _, ms := range spec.Maps {
		if isOutputMap(ms.Type) {
			types = append(types, outputType(spec, ms, opts.OutputTypes))
		}
	}
	return types
}

// startEvents opens a reader for every output map and starts printing.
// Stacks in the records are printed as frames.
func startEvents(spec *ebpf.CollectionSpec, coll *ebpf.Collection, opts *Options, out *printer, stacks *stackCtx) ([]*eventReader, error) {
	var names []string
	for name, ms := range spec.Maps {
		if isOutputMap(ms.Type) && coll.Maps[name] != nil {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	out.prefix = len(names) > 1
	var readers []*eventReader
	for _, name := range names {
		ms := spec.Maps[name]
		r := &eventReader{name: name, typ: outputType(spec, ms, opts.OutputTypes), stacks: stacks}
		r.tags = memberTags(r.typ)
		if ms.Type == ebpf.RingBuf {
			r.lostMap = coll.Maps[name+LostSuffix]
		}
		var err error
		if ms.Type == ebpf.PerfEventArray {
			r.perf, err = perf.NewReader(coll.Maps[name], perfBufferSize)
		} else {
			r.ring, err = ringbuf.NewReader(coll.Maps[name])
		}
		if err != nil {
			stopEvents(readers, out)
			return nil, fmt.Errorf("output map %s: %w", name, err)
		}
		readers = append(readers, r)
		r.wg.Add(1)
		go r.loop(out)
	}
	return readers, nil
}

func (r *eventReader) loop(out *printer) {
	defer r.wg.Done()
	for {
		var sample []byte
		if r.perf != nil {
			rec, err := r.perf.Read()
			if err != nil {
				r.readErr(err, out)
				return
			}
			if rec.LostSamples > 0 {
				r.lost.Add(rec.LostSamples)
				continue
			}
			sample = rec.RawSample
		} else {
			rec, err := r.ring.Read()
			if err != nil {
				r.readErr(err, out)
				return
			}
			sample = rec.RawSample
		}
		r.n.Add(1)
		v, err := Decode(r.typ, sample)
		if err != nil {
			out.diag("%s: %v", r.name, err)
			v = hexString(sample)
		}
		// Symbolised now, while the process and its mappings are alive.
		var stacks []stackField
		if r.stacks != nil {
			stacks = r.stacks.recordStacks(r.tags, nil, v)
		}
		out.event(r.name, v, stacks)
	}
}

func (r *eventReader) readErr(err error, out *printer) {
	if errors.Is(err, perf.ErrFlushed) || errors.Is(err, ringbuf.ErrFlushed) || errors.Is(err, os.ErrClosed) {
		return
	}
	out.diag("%s: read: %v", r.name, err)
}

// stopEvents prints what is still buffered, closes the readers and reports
// lost events. Call it after the programs are detached.
func stopEvents(readers []*eventReader, out *printer) {
	for _, r := range readers {
		if r.perf != nil {
			r.perf.Flush()
		} else {
			r.ring.Flush()
		}
	}
	for _, r := range readers {
		r.wg.Wait()
		if r.perf != nil {
			r.perf.Close()
		} else {
			r.ring.Close()
		}
		if r.lostMap != nil {
			r.lost.Add(readLost(r.lostMap))
		}
		if n := r.lost.Load(); n > 0 {
			out.lost(r.name, n)
		}
	}
}
