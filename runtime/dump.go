package runtime

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/btf"
)

// dumpMaps prints every map that holds data: histograms as histograms, the
// rest as tables, in name order.
func dumpMaps(spec *ebpf.CollectionSpec, coll *ebpf.Collection, opts *Options, out *printer, stacks *stackCtx) {
	var names []string
	for name, ms := range spec.Maps {
		if coll.Maps[name] != nil && dumpable(ms, opts.Verbose) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		ms := spec.Maps[name]
		es, err := readEntries(coll.Maps[name], ms)
		if err != nil {
			out.diag("%v", err)
			continue
		}
		if len(es) == 0 {
			continue
		}
		if name == readErrorsMap {
			printReadErrors(spec, es, opts, out)
			continue
		}
		if mapFull(ms, len(es)) {
			// An update of a new key fails once a hash map is full: what
			// came after is missing from the table.
			out.diag("note: map %s is full (%d of %d entries): updates of new keys failed from then on; raise its max_entries", name, len(es), ms.MaxEntries)
		}
		if stacks.printStacks(name, ms, es, opts, out) {
			continue
		}
		printMap(name, ms, es, opts, out)
	}
}

func printMap(name string, ms *ebpf.MapSpec, es []entry, opts *Options, out *printer) {
	if _, ok := ms.Value.(*btf.Datasec); ok && len(es) == 1 {
		printDatasec(name, es[0].value, opts, out)
		return
	}
	if h, ok := histOf(ms); ok {
		bs, grouped, ok := histBuckets(es)
		if ok && h.signed && !grouped {
			// The last entry counts the values below 0.
			for i := range bs {
				if bs[i].bucket == int64(ms.MaxEntries)-1 {
					bs[i].bucket = negBucket
				}
			}
		}
		if ok && h.fits(bs) {
			switch {
			case opts.JSON:
				out.jsonLine(jsonHist(name, h, bs))
			case grouped:
				out.text(formatHeatmap(name, h, bs, opts.Verbose) + "\n")
			default:
				out.text(formatHist(name, h, bs) + "\n")
			}
			return
		}
	}
	sortEntries(es, ms.Type)
	if opts.JSON {
		out.jsonLine(jsonEntries(name, ms, es, opts.Verbose))
		return
	}
	out.text(formatTable(name, ms, es, opts.Verbose) + "\n")
}

// printDatasec prints a data section (.bss, .data, .rodata: -v) as its
// variables by name, one per line; arrays too large to print are
// summarised (see Blob).
func printDatasec(name string, v any, opts *Options, out *printer) {
	rec, ok := v.(Record)
	if opts.JSON {
		out.jsonLine(map[string]any{"type": "data", "name": name, "vars": v})
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s:\n", name)
	if !ok {
		fmt.Fprintf(&b, "  %s\n", FormatValue(v))
	}
	for _, f := range rec {
		fmt.Fprintf(&b, "  %s = %s\n", f.Name, FormatValue(f.Value))
	}
	out.text(b.String() + "\n")
}

// mapFull reports whether a hash map holds as many entries as it can (an
// LRU one evicts instead: being full loses nothing it was asked to keep).
func mapFull(ms *ebpf.MapSpec, n int) bool {
	switch ms.Type {
	case ebpf.Hash, ebpf.PerCPUHash:
		return ms.MaxEntries > 0 && n >= int(ms.MaxEntries)
	}
	return false
}
