package runtime

import (
	"sort"

	"github.com/cilium/ebpf"
)

// dumpMaps prints every map that holds data: histograms as histograms, the
// rest as tables, in name order.
func dumpMaps(spec *ebpf.CollectionSpec, coll *ebpf.Collection, opts *Options, out *printer) {
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
		printMap(name, ms, es, opts, out)
	}
}

func printMap(name string, ms *ebpf.MapSpec, es []entry, opts *Options, out *printer) {
	if h, ok := histOf(ms); ok {
		if bs, grouped, ok := histBuckets(es); ok && h.fits(bs) {
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
