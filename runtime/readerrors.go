package runtime

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cilium/ebpf"

	"github.com/bpfcc/bpfcc/abi"
)

// readErrorsMap is where bpfcc's bound handlers count failed reads of the
// traced program's variables: one element whose value is a struct with a
// counter per (program, bound parameter), named PROGRAM__PARAM.
const readErrorsMap = abi.ReadErrorsMap

// readError is one nonzero counter of the read-error map.
type readError struct {
	Handler  string `json:"handler"`
	Probe    string `json:"probe,omitempty"`
	Variable string `json:"variable"`
	Count    uint64 `json:"count"`
}

// readErrors decodes the counters that are not zero. A counter's name is
// split after the longest program name it starts with; the probe is the
// attach point of that program's section.
func readErrors(spec *ebpf.CollectionSpec, es []entry) []readError {
	var out []readError
	for _, e := range es {
		r, ok := e.value.(Record)
		if !ok {
			continue
		}
		for _, f := range r {
			n, ok := f.Value.(uint64)
			if !ok || n == 0 {
				continue
			}
			re := readError{Handler: f.Name, Count: n}
			best := ""
			for name := range spec.Programs {
				if _, ok := abi.SplitReadErrorCounter(f.Name, name); ok && len(name) > len(best) {
					best = name
				}
			}
			if best != "" {
				re.Handler = best
				re.Variable, _ = abi.SplitReadErrorCounter(f.Name, best)
				sec := spec.Programs[best].SectionName
				if i := strings.LastIndex(sec, ":"); i >= 0 {
					re.Probe = sec[i+1:]
				} else if _, p, ok := strings.Cut(sec, "/"); ok {
					re.Probe = p
				}
			} else if h, v, ok := abi.SplitReadErrorCounterAny(f.Name); ok {
				re.Handler, re.Variable = h, v
			}
			out = append(out, re)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Handler != out[j].Handler {
			return out[i].Handler < out[j].Handler
		}
		return out[i].Variable < out[j].Variable
	})
	return out
}

// printReadErrors reports the failed reads by handler and variable.
func printReadErrors(spec *ebpf.CollectionSpec, es []entry, opts *Options, out *printer) {
	res := readErrors(spec, es)
	if len(res) == 0 {
		return
	}
	if opts.JSON {
		rows := make([]map[string]any, 0, len(res))
		for _, r := range res {
			rows = append(rows, map[string]any{"key": map[string]string{"handler": r.Handler, "probe": r.Probe, "variable": r.Variable}, "value": r.Count})
		}
		out.jsonLine(map[string]any{"type": "map", "name": readErrorsMap, "entries": rows})
		return
	}
	out.text(formatReadErrors(res) + "\n")
}

func formatReadErrors(res []readError) string {
	var b strings.Builder
	b.WriteString("failed reads of traced variables (the handler got 0 for each):\n")
	wh, wv, wp := len("handler"), len("variable"), len("probe")
	for _, r := range res {
		wh, wv, wp = max(wh, len(r.Handler)), max(wv, len(r.Variable)), max(wp, len(r.Probe))
	}
	fmt.Fprintf(&b, "  %-*s  %-*s  %-*s  %s\n", wh, "handler", wv, "variable", wp, "probe", "count")
	for _, r := range res {
		fmt.Fprintf(&b, "  %-*s  %-*s  %-*s  %5d\n", wh, r.Handler, wv, r.Variable, wp, r.Probe, r.Count)
	}
	return b.String()
}
