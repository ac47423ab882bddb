package runtime

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cilium/ebpf"
	"golang.org/x/sys/unix"

	"github.com/bpfcc/bpfcc/abi"
)

// kind is the family of attach point a program section names: the
// section table's (abi.Kind), whose String names it.
type kind = abi.Kind

const (
	kindUprobe        = abi.KindUprobe
	kindKprobe        = abi.KindKprobe
	kindTracepoint    = abi.KindTracepoint
	kindRawTracepoint = abi.KindRawTracepoint
	kindXDP           = abi.KindXDP
	kindTC            = abi.KindTC
	kindTracing       = abi.KindTracing // tp_btf, fentry, fexit, fmod_ret: BTF-typed, attached by the kernel's own name
	kindLSM           = abi.KindLSM
)

// attachPoint is a parsed section name (or --load PROBE): where a program goes.
type attachPoint struct {
	kind      kind
	ret       bool   // uretprobe, kretprobe
	sleepable bool   // uprobe.s, uretprobe.s
	egress    bool   // tc/egress
	family    string // tracing and LSM: tp_btf, fentry, fexit, fmod_ret, lsm (without .s)
	binary    string // uprobe: path or name of the binary
	symbol    string // uprobe/kprobe: function; tracepoint: CAT/NAME; raw_tp: NAME
	offset    uint64 // offset from symbol
	address   uint64 // uprobe without symbol: file offset in binary
}

// hasTarget reports whether the point names where to attach.
func (p attachPoint) hasTarget() bool {
	switch p.kind {
	case kindUprobe:
		return p.binary != "" && (p.symbol != "" || p.address != 0)
	case kindKprobe, kindTracepoint, kindRawTracepoint, kindTracing, kindLSM:
		return p.symbol != ""
	}
	return true
}

func (p attachPoint) String() string {
	var b strings.Builder
	b.WriteString(p.kind.String())
	if p.ret {
		b.WriteString("(return)")
	}
	b.WriteByte(' ')
	if p.binary != "" {
		b.WriteString(p.binary + ":")
	}
	switch {
	case p.symbol != "" && p.offset != 0:
		fmt.Fprintf(&b, "%s+%#x", p.symbol, p.offset)
	case p.symbol != "":
		b.WriteString(p.symbol)
	case p.address != 0:
		fmt.Fprintf(&b, "%#x", p.address)
	}
	return strings.TrimSpace(b.String())
}

// parseSection parses a program's ELF section name with libbpf's section
// table (abi.ParseSection), then the target of the kinds the loader
// attaches.
func parseSection(sec string) (attachPoint, error) {
	s, ok := abi.ParseSection(sec)
	if !ok || s.Def.Kind == abi.KindNone {
		return attachPoint{}, fmt.Errorf("%w: section %q (supported: uprobe, uretprobe, uprobe.s, kprobe, kretprobe, tracepoint, tp, raw_tp, raw_tracepoint, tp_btf, fentry, fexit, fmod_ret, lsm, xdp, tc)", ErrSection, sec)
	}
	d, rest := s.Def, s.Target
	p := attachPoint{kind: d.Kind, ret: d.Return, sleepable: d.Sleepable()}
	switch d.Kind {
	case kindUprobe:
		if rest == "" {
			return p, nil
		}
		if err := p.setUprobeTarget(rest); err != nil {
			if errors.Is(err, ErrNeedBinary) {
				err = fmt.Errorf("%w: section %q: %w", ErrSection, sec, err)
			}
			return p, err
		}
	case kindKprobe:
		if rest == "" {
			return p, nil
		}
		return p, p.setKprobeTarget(rest)
	case kindTracepoint:
		if strings.Count(rest, "/") != 1 || strings.HasPrefix(rest, "/") || strings.HasSuffix(rest, "/") {
			return attachPoint{}, fmt.Errorf("%w: section %q: want tracepoint/CATEGORY/NAME", ErrSection, sec)
		}
		p.symbol = rest
	case kindRawTracepoint:
		if rest == "" || strings.Contains(rest, "/") {
			return attachPoint{}, fmt.Errorf("%w: section %q: want raw_tp/NAME", ErrSection, sec)
		}
		p.symbol = rest
	case kindTracing, kindLSM:
		if rest == "" {
			return attachPoint{}, fmt.Errorf("%w: section %q: want %s/NAME", ErrSection, sec, d.Prefix)
		}
		p.symbol, p.family = rest, strings.TrimSuffix(d.Prefix, ".s")
	case kindTC:
		p.egress = d.Attach == ebpf.AttachTCXEgress
	}
	return p, nil
}

// setUprobeTarget parses BINARY:FUNC[+OFF] or BINARY:0xFILEOFFSET.
func (p *attachPoint) setUprobeTarget(s string) error {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return fmt.Errorf("%w: %q", ErrNeedBinary, s)
	}
	if i == 0 || i == len(s)-1 {
		return fmt.Errorf("%w: uprobe target %q: want BINARY:FUNC[+OFFSET]", ErrSection, s)
	}
	p.binary = s[:i]
	fn := s[i+1:]
	if addr, err := strconv.ParseUint(fn, 0, 64); err == nil {
		p.symbol, p.offset, p.address = "", 0, addr
		return nil
	}
	return p.setFunc(fn)
}

// setKprobeTarget parses FUNC[+OFF].
func (p *attachPoint) setKprobeTarget(s string) error {
	if strings.ContainsAny(s, ":/") {
		return fmt.Errorf("%w: kprobe target %q: want FUNC[+OFFSET]", ErrSection, s)
	}
	return p.setFunc(s)
}

func (p *attachPoint) setFunc(s string) error {
	name, off, hasOff := strings.Cut(s, "+")
	if name == "" {
		return fmt.Errorf("%w: empty function name in %q", ErrSection, s)
	}
	p.symbol, p.offset, p.address = name, 0, 0
	if hasOff {
		v, err := strconv.ParseUint(off, 0, 64)
		if err != nil {
			return fmt.Errorf("%w: offset in %q: %v", ErrSection, s, err)
		}
		p.offset = v
	}
	return nil
}

// override applies a --load PROBE string to p.
func (p *attachPoint) override(probe string) error {
	switch p.kind {
	case kindUprobe:
		return p.setUprobeTarget(probe)
	case kindKprobe:
		return p.setKprobeTarget(probe)
	case kindTracepoint:
		if strings.Count(probe, "/") != 1 {
			return fmt.Errorf("%w: tracepoint %q: want CATEGORY/NAME", ErrSection, probe)
		}
		p.symbol = probe
	case kindRawTracepoint:
		p.symbol = probe
	default:
		return fmt.Errorf("%w: a %s program takes no probe (use --iface)", ErrSection, p.kind)
	}
	return nil
}

// programType is the program type a section implies, for specs built
// without one.
func (p attachPoint) programType() ebpf.ProgramType {
	switch p.kind {
	case kindUprobe, kindKprobe:
		return ebpf.Kprobe
	case kindTracepoint:
		return ebpf.TracePoint
	case kindRawTracepoint:
		return ebpf.RawTracepoint
	case kindXDP:
		return ebpf.XDP
	case kindTC:
		return ebpf.SchedCLS
	case kindTracing:
		return ebpf.Tracing
	case kindLSM:
		return ebpf.LSM
	}
	return ebpf.UnspecifiedProgram
}

// fixupProgram fills in what the section implies and a hand-built spec may
// lack: the program type and the sleepable flag.
func fixupProgram(ps *ebpf.ProgramSpec, p attachPoint) {
	if ps.Type == ebpf.UnspecifiedProgram {
		ps.Type = p.programType()
	}
	if p.sleepable {
		ps.Flags |= unix.BPF_F_SLEEPABLE
	}
	if p.kind == kindTC && ps.AttachType == ebpf.AttachNone {
		ps.AttachType = ebpf.AttachTCXIngress
		if p.egress {
			ps.AttachType = ebpf.AttachTCXEgress
		}
	}
}

// libDirs are searched for shared libraries named without a directory, as
// the dynamic loader would.
var libDirs = []string{"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib"}

// resolveBinary turns a uprobe's binary into an absolute path: a path is
// taken as is, a library name is searched in the library directories and any
// other name in $PATH.
func resolveBinary(name string) (string, error) {
	if strings.Contains(name, "/") {
		abs, err := filepath.Abs(name)
		if err != nil {
			return "", fmt.Errorf("%w: %s: %w", ErrNoBinary, name, err)
		}
		if _, err := os.Stat(abs); err != nil {
			return "", fmt.Errorf("%w: %w", ErrNoBinary, err)
		}
		return abs, nil
	}
	if strings.Contains(name, ".so") {
		for _, d := range libDirs {
			if _, err := os.Stat(filepath.Join(d, name)); err == nil {
				return filepath.Join(d, name), nil
			}
		}
		return "", fmt.Errorf("%w: %s is not in %s", ErrNoBinary, name, strings.Join(libDirs, ", "))
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrNoBinary, err)
	}
	return filepath.Abs(path)
}
