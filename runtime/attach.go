package runtime

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/link"
	"golang.org/x/sys/unix"

	"github.com/bpfcc/bpfcc/internal/suggest"
)

// Target sets the attach point of one program explicitly.
type Target struct {
	// Program is the program (function) name.
	Program string
	// Probe is the attach point in the form its section kind takes:
	// "BINARY:FUNC[+OFF]" or "BINARY:0xFILEOFFSET" for uprobes, "FUNC[+OFF]"
	// for kprobes, "CAT/NAME" for tracepoints, "NAME" for raw tracepoints.
	Probe string
}

// pmuDir is where the kernel lists perf PMUs; uprobe and kprobe PMUs are
// what let probes be created through a file descriptor.
const pmuDir = "/sys/bus/event_source/devices"

// plan is one program to attach and where.
type plan struct {
	name  string
	point attachPoint
}

// planAttach decides where every program goes: first the explicit targets in
// their order, then the remaining programs by name, from their sections, with
// opts.Probe filling in (or, for a single probe program, replacing) the
// section's attach point.
func planAttach(spec *ebpf.CollectionSpec, opts *Options) ([]plan, error) {
	var plans []plan
	explicit := map[string]bool{}
	for _, t := range opts.Attach {
		ps := spec.Programs[t.Program]
		if ps == nil {
			return nil, fmt.Errorf("%w: no program named %q", ErrNoTarget, t.Program)
		}
		p, err := parseSection(ps.SectionName)
		if err != nil {
			return nil, fmt.Errorf("program %s: %w", t.Program, err)
		}
		if err := p.override(t.Probe); err != nil {
			return nil, fmt.Errorf("program %s: %w", t.Program, err)
		}
		plans = append(plans, plan{t.Program, p})
		explicit[t.Program] = true
	}
	names := make([]string, 0, len(spec.Programs))
	for n, ps := range spec.Programs {
		if !explicit[n] && ps.SectionName != ".text" && ps.SectionName != "" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var rest []plan
	for _, n := range names {
		p, err := parseSection(spec.Programs[n].SectionName)
		if err != nil {
			return nil, fmt.Errorf("program %s: %w", n, err)
		}
		rest = append(rest, plan{n, p})
	}
	if opts.Probe != "" {
		probes := 0
		for _, pl := range rest {
			if takesProbe(pl.point.kind) {
				probes++
			}
		}
		if probes == 0 && len(opts.Attach) == 0 {
			return nil, fmt.Errorf("%w: --load %s given but no uprobe, kprobe or tracepoint program", ErrSection, opts.Probe)
		}
		for i := range rest {
			p := &rest[i].point
			if takesProbe(p.kind) && (probes == 1 || !p.hasTarget()) {
				if err := p.override(withBinary(opts.Probe, p.kind, opts.Binary)); err != nil {
					return nil, fmt.Errorf("program %s: %w", rest[i].name, err)
				}
			}
		}
	}
	plans = append(plans, rest...)
	for _, pl := range plans {
		if !pl.point.hasTarget() {
			return nil, fmt.Errorf("program %s (section %s): %w", pl.name, spec.Programs[pl.name].SectionName, ErrNoTarget)
		}
		if (pl.point.kind == kindXDP || pl.point.kind == kindTC) && opts.Iface == "" {
			return nil, fmt.Errorf("program %s: %w", pl.name, ErrNoInterface)
		}
		fixupProgram(spec.Programs[pl.name], pl.point)
	}
	return plans, nil
}

// withBinary puts the binary in front of a uprobe's probe that names
// only a function ("process" becomes "BINARY:process").
func withBinary(probe string, k kind, binary string) string {
	if k != kindUprobe || binary == "" || strings.Contains(probe, ":") {
		return probe
	}
	return binary + ":" + probe
}

func takesProbe(k kind) bool {
	return k == kindUprobe || k == kindKprobe || k == kindTracepoint || k == kindRawTracepoint
}

// attachAll attaches every planned program; on failure it closes what it
// attached. pid filters uprobes to one process when non-zero.
func attachAll(coll *ebpf.Collection, plans []plan, opts *Options, pid int) ([]link.Link, error) {
	var links []link.Link
	execs := map[string]*link.Executable{}
	for _, pl := range plans {
		prog := coll.Programs[pl.name]
		if prog == nil {
			closeLinks(links)
			return nil, fmt.Errorf("%w: program %s was not loaded", ErrAttach, pl.name)
		}
		l, err := attachOne(prog, pl.point, opts, pid, execs)
		if err != nil {
			closeLinks(links)
			return nil, fmt.Errorf("%w: program %s to %s: %w", ErrAttach, pl.name, pl.point, classify(err))
		}
		links = append(links, l)
	}
	return links, nil
}

func closeLinks(links []link.Link) {
	for i := len(links) - 1; i >= 0; i-- {
		links[i].Close()
	}
}

func attachOne(prog *ebpf.Program, p attachPoint, opts *Options, pid int, execs map[string]*link.Executable) (link.Link, error) {
	switch p.kind {
	case kindUprobe:
		return attachUprobe(prog, p, pid, execs)
	case kindKprobe:
		if _, err := os.Stat(pmuDir + "/kprobe"); err != nil {
			return nil, fmt.Errorf("%w (CONFIG_KPROBES is not set: %s/kprobe is missing)", ErrNoKprobes, pmuDir)
		}
		ko := &link.KprobeOptions{Offset: p.offset}
		if p.ret {
			return link.Kretprobe(p.symbol, prog, ko)
		}
		return link.Kprobe(p.symbol, prog, ko)
	case kindTracepoint:
		if _, err := tracefsDir(); err != nil {
			return nil, err
		}
		group, name, _ := strings.Cut(p.symbol, "/")
		return link.Tracepoint(group, name, prog, nil)
	case kindRawTracepoint:
		return link.AttachRawTracepoint(link.RawTracepointOptions{Name: p.symbol, Program: prog})
	case kindTracing:
		// The kernel function or tracepoint was named at load time.
		return link.AttachTracing(link.TracingOptions{Program: prog})
	case kindLSM:
		return link.AttachLSM(link.LSMOptions{Program: prog})
	case kindXDP, kindTC:
		index, err := interfaceIndex(opts.Iface)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrNoInterface, opts.Iface, err)
		}
		if p.kind == kindXDP {
			return link.AttachXDP(link.XDPOptions{Program: prog, Interface: index})
		}
		at := ebpf.AttachTCXIngress
		if p.egress {
			at = ebpf.AttachTCXEgress
		}
		return link.AttachTCX(link.TCXOptions{Program: prog, Interface: index, Attach: at})
	}
	return nil, fmt.Errorf("%w: %s", ErrSection, p.kind)
}

// attachUprobe attaches through the uprobe PMU only: a perf event file
// descriptor, which the kernel removes when the process exits however it
// exits. It refuses to fall back to tracefs uprobe_events, which would
// outlive a killed process.
func attachUprobe(prog *ebpf.Program, p attachPoint, pid int, execs map[string]*link.Executable) (link.Link, error) {
	if _, err := os.Stat(pmuDir + "/uprobe"); err != nil {
		return nil, fmt.Errorf("kernel has no uprobe PMU (%s/uprobe): %w", pmuDir, link.ErrNotSupported)
	}
	path, err := resolveBinary(p.binary)
	if err != nil {
		return nil, err
	}
	ex := execs[path]
	if ex == nil {
		if ex, err = link.OpenExecutable(path); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrNoBinary, err)
		}
		execs[path] = ex
	}
	uo := &link.UprobeOptions{PID: pid, Offset: p.offset, Address: p.address}
	var l link.Link
	if p.ret {
		l, err = ex.Uretprobe(p.symbol, prog, uo)
	} else {
		l, err = ex.Uprobe(p.symbol, prog, uo)
	}
	if errors.Is(err, link.ErrNoSymbol) {
		return nil, fmt.Errorf("%w: %s is not a function of %s%s", ErrNoSymbol, p.symbol, path, suggest.DidYouMean(p.symbol, symbolNames(path)))
	}
	if errors.Is(err, unix.ENOENT) && pid != 0 {
		return nil, fmt.Errorf("process %d: %w", pid, err)
	}
	return l, err
}
