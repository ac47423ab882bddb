package runtime

import (
	"bufio"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/cilium/ebpf/btf"

	"github.com/bpfcc/bpfcc/internal/suggest"
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
		case kindUprobe:
			err = checkUprobeSymbol(p)
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
	return fmt.Errorf("%w: %s%s", ErrNoTracepoint, name, suggest.DidYouMean(name, names))
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
	return fmt.Errorf("%w: %s%s", ErrNoTracepoint, name, suggest.DidYouMean(name, names))
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
		return fmt.Errorf("%w: %s%s", ErrNoTracepoint, p.symbol, suggest.DidYouMean(p.symbol, btfNames(kernel, "btf_trace_", false)))
	case "lsm":
		var fn *btf.Func
		if kernel.TypeByName("bpf_lsm_"+p.symbol, &fn) == nil {
			return nil
		}
		return fmt.Errorf("%w: no LSM hook %s%s", ErrNoKernelFunc, p.symbol, suggest.DidYouMean(p.symbol, btfNames(kernel, "bpf_lsm_", true)))
	}
	var fn *btf.Func
	err := kernel.TypeByName(p.symbol, &fn)
	if err == nil || !errors.Is(err, btf.ErrNotFound) {
		return nil
	}
	return fmt.Errorf("%w: %s%s", ErrNoKernelFunc, p.symbol, suggest.DidYouMean(p.symbol, btfNames(kernel, "", true)))
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

// checkUprobeSymbol checks that a uprobe's function is a symbol of its
// binary (a SEC("uprobe/BIN:FUNC") as the PROBE argument is checked). A
// binary that cannot be read checks nothing: the attach reports it.
func checkUprobeSymbol(p attachPoint) error {
	if p.symbol == "" || p.binary == "" {
		return nil
	}
	path, err := resolveBinary(p.binary)
	if err != nil {
		return nil
	}
	f, err := elf.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	for _, load := range []func() ([]elf.Symbol, error){f.Symbols, f.DynamicSymbols} {
		syms, _ := load()
		for _, s := range syms {
			if name, _, _ := strings.Cut(s.Name, "@"); name == p.symbol {
				return nil
			}
		}
	}
	return fmt.Errorf("%w: %s is not a function of %s%s", ErrNoSymbol, p.symbol, path, suggest.DidYouMean(p.symbol, symbolNames(path)))
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
