package runtime

import (
	"bufio"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/cilium/ebpf/btf"
)

// Before anything is loaded, checkTargets makes sure the kernel has what
// the programs attach to, so that a misspelled name is reported as such,
// with the names it may have meant, instead of as whatever the kernel or
// the library says about it ("not supported", a tracefs path).

// checkTargets checks every planned tracepoint, raw tracepoint, BTF
// tracing and LSM target. A source of names that cannot be read (no
// tracefs, no kernel BTF) checks nothing: the attach reports the problem.
func checkTargets(plans []plan) error {
	var kernel *btf.Spec
	kernelBTF := func() *btf.Spec {
		if kernel == nil {
			kernel, _ = btf.LoadKernelSpec()
		}
		return kernel
	}
	for _, pl := range plans {
		p := pl.point
		var err error
		switch p.kind {
		case kindTracepoint:
			err = checkTracepoint(p.symbol)
		case kindRawTracepoint:
			err = checkRawTracepoint(p.symbol, kernelBTF())
		case kindTracing, kindLSM:
			err = checkBTFTarget(p, kernelBTF())
		}
		if err != nil {
			return fmt.Errorf("%w: program %s: %w", ErrAttach, pl.name, err)
		}
	}
	return nil
}

// tracepointNames lists the kernel's trace events as "CAT/NAME", from
// tracefs's available_events ("cat:name" lines).
func tracepointNames() ([]string, error) {
	dir, err := tracefsDir()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(dir + "/available_events")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var names []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if cat, name, ok := strings.Cut(sc.Text(), ":"); ok {
			names = append(names, cat+"/"+name)
		}
	}
	return names, sc.Err()
}

func checkTracepoint(name string) error {
	names, err := tracepointNames()
	if err != nil || len(names) == 0 {
		return nil
	}
	for _, n := range names {
		if n == name {
			return nil
		}
	}
	return fmt.Errorf("%w: %s%s", ErrNoTracepoint, name, didYouMean(name, names))
}

// checkRawTracepoint accepts a trace event's name or a tracepoint the
// kernel's BTF knows (btf_trace_NAME), which includes tracepoints without
// a trace event.
func checkRawTracepoint(name string, kernel *btf.Spec) error {
	events, err := tracepointNames()
	if err != nil || kernel == nil {
		return nil
	}
	var names []string
	for _, e := range events {
		_, n, _ := strings.Cut(e, "/")
		if n == name {
			return nil
		}
		names = append(names, n)
	}
	var td *btf.Typedef
	if kernel.TypeByName("btf_trace_"+name, &td) == nil {
		return nil
	}
	return fmt.Errorf("%w: %s%s", ErrNoTracepoint, name, didYouMean(name, names))
}

// checkBTFTarget checks the kernel function (fentry, fexit, fmod_ret),
// BTF tracepoint (tp_btf) or LSM hook (lsm) a program names.
func checkBTFTarget(p attachPoint, kernel *btf.Spec) error {
	if kernel == nil {
		return nil
	}
	switch p.family {
	case "tp_btf":
		var td *btf.Typedef
		if kernel.TypeByName("btf_trace_"+p.symbol, &td) == nil {
			return nil
		}
		return fmt.Errorf("%w: %s%s", ErrNoTracepoint, p.symbol, didYouMean(p.symbol, btfNames(kernel, "btf_trace_", false)))
	case "lsm":
		var fn *btf.Func
		if kernel.TypeByName("bpf_lsm_"+p.symbol, &fn) == nil {
			return nil
		}
		return fmt.Errorf("%w: no LSM hook %s%s", ErrNoKernelFunc, p.symbol, didYouMean(p.symbol, btfNames(kernel, "bpf_lsm_", true)))
	}
	var fn *btf.Func
	err := kernel.TypeByName(p.symbol, &fn)
	if err == nil || !errors.Is(err, btf.ErrNotFound) {
		return nil
	}
	return fmt.Errorf("%w: %s%s", ErrNoKernelFunc, p.symbol, didYouMean(p.symbol, btfNames(kernel, "", true)))
}

// btfNames lists the kernel's function (funcs) or typedef names that start
// with prefix, without it.
func btfNames(kernel *btf.Spec, prefix string, funcs bool) []string {
	var names []string
	for t, err := range kernel.All() {
		if err != nil {
			break
		}
		var name string
		switch t := t.(type) {
		case *btf.Func:
			if !funcs {
				continue
			}
			name = t.Name
		case *btf.Typedef:
			if funcs {
				continue
			}
			name = t.Name
		default:
			continue
		}
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			names = append(names, rest)
		}
	}
	return names
}

// symbolNames lists the function symbols of an ELF binary.
func symbolNames(path string) []string {
	f, err := elf.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var names []string
	for _, load := range []func() ([]elf.Symbol, error){f.Symbols, f.DynamicSymbols} {
		syms, _ := load()
		for _, s := range syms {
			if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Value != 0 {
				name, _, _ := strings.Cut(s.Name, "@")
				names = append(names, name)
			}
		}
	}
	return names
}

// didYouMean names the candidates closest to name (", did you mean X?"),
// or "" when none is close: at most three, within an edit distance of a
// third of the name's length (at least 1).
func didYouMean(name string, candidates []string) string {
	limit := max(1, len(name)/3)
	type near struct {
		name string
		d    int
	}
	seen := map[string]bool{}
	var best []near
	for _, c := range candidates {
		if seen[c] || c == name {
			continue
		}
		seen[c] = true
		if d := editDistance(name, c, limit); d <= limit {
			best = append(best, near{c, d})
		}
	}
	if len(best) == 0 {
		return ""
	}
	sort.Slice(best, func(i, j int) bool {
		if best[i].d != best[j].d {
			return best[i].d < best[j].d
		}
		return best[i].name < best[j].name
	})
	var names []string
	for i := 0; i < len(best) && i < 3; i++ {
		names = append(names, best[i].name)
	}
	return " (did you mean " + strings.Join(names, ", ") + "?)"
}

// editDistance is the Levenshtein distance of a and b, or limit+1 as soon
// as it is known to exceed limit.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
