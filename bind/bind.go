// Package bind connects probe handlers to a traced binary: it reads the
// SEC("config") and command-line bindings, resolves each probe to its sites
// with dwarfvars, binds every extra handler parameter to a variable there,
// and hands lower the result as []Handler. It sits between the frontend
// (whose Describe gives the unit's functions and config strings) and
// dwarfvars on one side and lower on the other.
package bind

import (
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"modernc.org/token"

	"github.com/bpfcc/bpfcc/abi"
	"github.com/bpfcc/bpfcc/diag"
	"github.com/bpfcc/bpfcc/dwarfvars"
	"github.com/bpfcc/bpfcc/frontend"
	"github.com/bpfcc/bpfcc/ir"
)

// Options are the command-line settings.
type Options struct {
	// Binary is -x: the traced executable or library.
	Binary string
	// Probes are --probe HANDLER=PROBE.
	Probes []string
	// Binds are --bind HANDLER.ARG=EXPR.
	Binds []string
	// DefaultProbe (--load PROBE) is the probe of every handler that has
	// none: a function in a bare "uprobe", "uretprobe" or "kprobe" section,
	// one in a probe section with extra parameters, or a function without
	// SEC() with extra parameters that is a handler (see isHandler).
	DefaultProbe string
	// CommandBinary is the binary of the command --load runs (-c, --),
	// the traced binary of user-space handlers when Binary is empty. It
	// never applies to a kprobe section.
	CommandBinary string
}

// takesDefaultProbe reports whether --load PROBE binds function f.
func takesDefaultProbe(f *frontend.Func) bool {
	sec, probe := section(f.Section)
	switch {
	case probe && sec.Name == sec.Def.Prefix:
		// A bare probe section: uprobe, uretprobe, their .s forms, kprobe
		// and kretprobe.
		return true
	case len(f.Params) < 2:
		return false
	case probe:
		return true
	case f.Section != "":
		return false
	}
	return isHandler(f)
}

// section parses a function's section; probe reports a uprobe or kprobe
// section.
func section(name string) (s abi.Section, probe bool) {
	s, ok := abi.ParseSection(name)
	return s, ok && s.Def.Probe()
}

// probeFromSection turns "uprobe//bin/app:func+0x10" (or uretprobe) into
// the probe spec "/bin/app:func+0x10" ("...%return" for uretprobe).
func probeFromSection(name string) string {
	s, probe := section(name)
	if !probe || s.Def.Kind != abi.KindUprobe || !strings.Contains(s.Target, ":") {
		return ""
	}
	if s.Def.Return {
		return s.Target + "%return"
	}
	return s.Target
}

// needsBinding reports whether a unit of this shape has handlers to bind
// even without config strings or flags (probe-section functions with
// extra parameters).
func needsBinding(sh *frontend.Shape) bool {
	for i := range sh.Funcs {
		if _, probe := section(sh.Funcs[i].Section); probe && len(sh.Funcs[i].Params) > 1 {
			return true
		}
	}
	return false
}

// Spec is one handler's binding request.
type Spec struct {
	Handler string
	Probe   string
	// Args maps a parameter to the expression bound to it.
	Args map[string]string
	Pos  ir.Pos
}

// ParseConfig parses SEC("config") text: entries "HANDLER: PROBE [ARG=EXPR
// | ARG]..." separated by ';' or newlines.
func ParseConfig(text string, pos ir.Pos) ([]Spec, error) {
	var out []Spec
	for _, entry := range strings.FieldsFunc(text, func(r rune) bool { return r == ';' || r == '\n' }) {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		h, rest, ok := strings.Cut(entry, ":")
		h = strings.TrimSpace(h)
		if !ok || !isIdent(h) {
			return nil, fmt.Errorf("config entry %q: want \"HANDLER: PROBE [ARG=EXPR]...\"", entry)
		}
		fields := joinParens(strings.Fields(rest))
		if len(fields) == 0 {
			return nil, fmt.Errorf("config entry %q: no probe after %q", entry, h+":")
		}
		s := Spec{Handler: h, Probe: fields[0], Args: map[string]string{}, Pos: pos}
		for _, f := range fields[1:] {
			arg, expr, ok := strings.Cut(f, "=")
			if !ok {
				expr = arg
			}
			if !isIdent(arg) || expr == "" {
				return nil, fmt.Errorf("config entry %q: bad binding %q (want ARG=EXPR or ARG)", entry, f)
			}
			s.Args[arg] = expr
		}
		out = append(out, s)
	}
	return out, nil
}

// joinParens rejoins the blank-separated words of a parenthesised list (a
// C++ probe's parameter list: "ns::f(const T &, long)") into one field.
func joinParens(fields []string) []string {
	var out []string
	depth := 0
	for _, f := range fields {
		if depth > 0 {
			out[len(out)-1] += " " + f
		} else {
			out = append(out, f)
		}
		depth += strings.Count(f, "(") - strings.Count(f, ")")
	}
	return out
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// specs merges the config strings with the command line (which wins).
func specs(sh *frontend.Shape, opts Options) (map[string]*Spec, diag.List) {
	funcs := funcIndex(sh)
	var dl diag.List
	all := map[string]*Spec{}
	for _, c := range sh.Config {
		ss, err := ParseConfig(c.Text, irPos(c.Pos))
		if err != nil {
			dl = append(dl, diag.Diagnostic{File: c.Pos.Filename, Line: c.Pos.Line, Col: c.Pos.Column, Msg: err.Error()})
			continue
		}
		for i := range ss {
			if prev := all[ss[i].Handler]; prev != nil {
				dl = append(dl, diag.Diagnostic{File: c.Pos.Filename, Line: c.Pos.Line, Col: c.Pos.Column,
					Msg: fmt.Sprintf("handler %q has more than one SEC(\"config\") entry (%q and %q); give it one probe", ss[i].Handler, prev.Probe, ss[i].Probe)})
				continue
			}
			all[ss[i].Handler] = &ss[i]
		}
	}
	get := func(h string) *Spec {
		s := all[h]
		if s == nil {
			s = &Spec{Handler: h, Args: map[string]string{}}
			if f := funcs[h]; f != nil {
				s.Pos = irPos(f.Pos)
			}
			all[h] = s
		}
		return s
	}
	for _, p := range opts.Probes {
		h, probe, ok := strings.Cut(p, "=")
		if !ok || !isIdent(h) || probe == "" {
			dl = append(dl, diag.Diagnostic{Msg: fmt.Sprintf("--probe %q: want HANDLER=PROBE", p)})
			continue
		}
		get(h).Probe = probe
	}
	for _, b := range opts.Binds {
		lhs, expr, ok := strings.Cut(b, "=")
		h, arg, ok2 := strings.Cut(lhs, ".")
		if !ok || !ok2 || !isIdent(h) || !isIdent(arg) || expr == "" {
			dl = append(dl, diag.Diagnostic{Msg: fmt.Sprintf("--bind %q: want HANDLER.ARG=EXPR", b)})
			continue
		}
		get(h).Args[arg] = expr
	}
	return all, dl
}

// Bind binds every handler of the unit sh describes that has a probe or
// extra parameters; nil when nothing asks for binding (no config string,
// no flag, no probe-section function with extra parameters).
func Bind(sh *frontend.Shape, opts Options) ([]Handler, error) {
	if len(sh.Config) == 0 && len(opts.Probes) == 0 && len(opts.Binds) == 0 && opts.DefaultProbe == "" && !needsBinding(sh) {
		return nil, nil
	}
	funcs := funcIndex(sh)
	names := slices.Sorted(maps.Keys(funcs))
	all, dl := specs(sh, opts)
	bins := map[string]*dwarfvars.Binary{}
	defer func() {
		for _, b := range bins {
			b.Close()
		}
	}()
	var out []Handler
	for _, name := range names {
		f := funcs[name]
		params, sec := f.Params, f.Section
		s := all[name]
		pos := irPos(f.Pos)
		if opts.DefaultProbe != "" && (s == nil || s.Probe == "") && takesDefaultProbe(f) {
			if s == nil {
				s = &Spec{Handler: name, Args: map[string]string{}, Pos: pos}
			}
			s.Probe = opts.DefaultProbe
			if ps, probe := section(sec); probe && ps.Def.Kind == abi.KindUprobe && ps.Def.Return && !strings.HasSuffix(s.Probe, "%return") {
				s.Probe += "%return"
			}
		}
		errAt := func(format string, args ...any) {
			dl = append(dl, diag.Diagnostic{File: pos.File, Line: pos.Line, Col: pos.Col, Msg: strings.ToValidUTF8(fmt.Sprintf(format, args...), "\uFFFD")})
		}
		if (s == nil || s.Probe == "") && len(params) > 1 {
			// SEC("uprobe//bin/app:func+0x10") names the probe itself.
			if probe := probeFromSection(sec); probe != "" {
				if s == nil {
					s = &Spec{Handler: name, Args: map[string]string{}, Pos: pos}
				}
				s.Probe = probe
			}
		}
		if s == nil || s.Probe == "" {
			if _, probe := section(sec); len(params) > 1 && (s != nil && len(s.Args) > 0 || probe) {
				errAt("handler %q has extra parameters but no probe to bind them at: add it to SEC(\"config\") (\"%s: PROBE ...\") or pass --probe %s=PROBE", name, name, name)
			}
			continue
		}
		h, err := resolveHandler(name, params, s, sec, opts, bins)
		if err != nil {
			errAt("%v", err)
			continue
		}
		out = append(out, *h)
	}
	for name := range all {
		if _, ok := funcs[name]; !ok && all[name].Probe != "" {
			p := all[name].Pos
			dl = append(dl, diag.Diagnostic{File: p.File, Line: p.Line, Col: p.Col, Msg: fmt.Sprintf("probe binding names handler %q, which is not defined in this file", name)})
		}
	}
	if len(dl) > 0 {
		return nil, dl
	}
	return out, nil
}

// funcIndex maps each function's name to its description.
func funcIndex(sh *frontend.Shape) map[string]*frontend.Func {
	m := make(map[string]*frontend.Func, len(sh.Funcs))
	for i := range sh.Funcs {
		m[sh.Funcs[i].Name] = &sh.Funcs[i]
	}
	return m
}

// irPos is a frontend position as the diagnostics' and Spec's.
func irPos(p token.Position) ir.Pos {
	return ir.Pos{File: p.Filename, Line: p.Line, Col: p.Column}
}

func resolveHandler(name string, params []string, s *Spec, sec string, opts Options, bins map[string]*dwarfvars.Binary) (*Handler, error) {
	p, err := dwarfvars.ParseProbe(s.Probe)
	if err != nil {
		return nil, fmt.Errorf("handler %q: probe %q: %w", name, s.Probe, err)
	}
	binary := p.Binary
	if binary == "" {
		binary = opts.Binary
	}
	ps, probe := section(sec)
	if binary == "" && !(ps.Def != nil && ps.Def.KernelProbe()) {
		binary = opts.CommandBinary
	}
	if binary == "" && probe && ps.Def.Kind == abi.KindUprobe {
		// A uprobe stays a uprobe: it probes a function of a user
		// program, never the kernel function of that name.
		return nil, fmt.Errorf("handler %q: SEC(%q) probes %q in a user program, and no binary was given: add -x BINARY", name, sec, s.Probe)
	}
	if len(params) == 0 {
		return nil, fmt.Errorf("handler %q must take struct pt_regs *ctx as its first parameter", name)
	}
	extra := params[1:]
	for arg := range s.Args {
		if !slices.Contains(extra, arg) {
			return nil, fmt.Errorf("handler %q has no parameter %q to bind (its extra parameters: %s)", name, arg, strings.Join(extra, ", "))
		}
	}
	if binary == "" {
		if len(extra) > 0 {
			return nil, fmt.Errorf("handler %q: binding arguments on the kernel probe %q needs the kernel's DWARF (vmlinux); bpfcc only reads traced user binaries (-x BINARY)", name, s.Probe)
		}
		return kernelHandler(name, p)
	}
	abs, err := filepath.Abs(binary)
	if err != nil {
		return nil, err
	}
	b := bins[abs]
	if b == nil {
		if err := CheckELF(binary); err != nil {
			return nil, fmt.Errorf("handler %q: %w", name, err)
		}
		if b, err = dwarfvars.Open(abs); err != nil {
			return nil, fmt.Errorf("handler %q: %w", name, err)
		}
		bins[abs] = b
	}
	sites, err := b.Resolve(p)
	if err != nil {
		if strings.HasPrefix(err.Error(), "probe "+s.Probe+":") {
			// The error names the probe already.
			return nil, fmt.Errorf("handler %q: %w", name, err)
		}
		return nil, fmt.Errorf("handler %q: probe %q: %w", name, s.Probe, err)
	}
	h := &Handler{Name: name}
	for i, site := range sites {
		hs := HandlerSite{Name: name}
		if len(sites) > 1 {
			hs.Name = fmt.Sprintf("%s_%d", name, i+1)
		}
		sleep := false
		var entry *dwarfvars.EntryInfo
		for _, arg := range extra {
			text := s.Args[arg]
			if text == "" {
				text = arg
			}
			e, err := dwarfvars.ParseExpr(text)
			if err != nil {
				return nil, fmt.Errorf("handler %q argument %q: %w", name, arg, err)
			}
			bd, err := b.Bind(site, e)
			if err != nil {
				return nil, fmt.Errorf("handler %q, probe %s, argument %q: %w", name, site, arg, err)
			}
			if bd.Type != nil && bd.Type.Float {
				// BPF has no floating point: no conversion to an integer
				// parameter is possible, and the raw bits would be a
				// made-up value.
				return nil, fmt.Errorf("handler %q, probe %s, argument %q: %s is floating point (%s), which BPF programs cannot convert; bind an integer variable instead", name, site, arg, text, bd.Type.Spelling)
			}
			if bd.ReadsMemory() {
				sleep = true
			}
			if bd.Entry != nil {
				entry = bd.Entry
			}
			hs.Bindings = append(hs.Bindings, bd)
		}
		hs.Sleepable = sleep
		hs.Section = abi.ProbeSection(true, site.Return, sleep, abs+":"+uprobeTarget(site.Func, site.FuncOffset, site.FileOffset, site.FuncAmbiguous || site.NoSymbol, site.Return))
		if entry != nil {
			hs.EntrySection = abi.ProbeSection(true, false, false, abs+":"+uprobeTarget(entry.Func, entry.FuncOffset, entry.FileOffset, entry.FuncAmbiguous || entry.NoSymbol, false))
		}
		h.Sites = append(h.Sites, hs)
	}
	return h, nil
}

// uprobeTarget is what follows "BINARY:" in a uprobe section: FUNC+0xOFF
// (FUNC for a return probe), or the file offset 0xFILEOFF when several
// functions share the name FUNC (static functions of one name in several
// compile units): loaders resolve a name to one of them (cilium/ebpf the
// last in the symbol table, libbpf refuses), which would put the probe on
// the other copy, possibly inside an instruction.
func uprobeTarget(fn string, off, fileOff uint64, ambiguous, ret bool) string {
	switch {
	case ambiguous && fileOff != 0 && ret:
		return fmt.Sprintf("%#x", fileOff-off)
	case ambiguous && fileOff != 0:
		return fmt.Sprintf("%#x", fileOff)
	case ret:
		return fn
	}
	return fmt.Sprintf("%s+%#x", fn, off)
}

// kernelHandler places a handler without bound arguments on a kprobe.
func kernelHandler(name string, p dwarfvars.Probe) (*Handler, error) {
	hs := HandlerSite{Name: name}
	switch {
	case p.Return:
		hs.Section = abi.ProbeSection(false, true, false, p.Func)
	case p.Kind == dwarfvars.ProbeFuncOffset:
		hs.Section = abi.ProbeSection(false, false, false, fmt.Sprintf("%s+%#x", p.Func, p.Offset))
	case p.Kind == dwarfvars.ProbeFunc:
		hs.Section = abi.ProbeSection(false, false, false, p.Func)
	default:
		return nil, errors.New("kernel probes on source lines need the kernel's DWARF; use FUNC or FUNC+OFF")
	}
	return &Handler{Name: name, Sites: []HandlerSite{hs}}, nil
}

// CheckELF says plainly when the traced binary is not an ELF file (the DWARF
// reader's error was "bad magic number ..." from a record reader).
func CheckELF(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var magic [4]byte
	if _, err := io.ReadFull(f, magic[:]); err != nil || string(magic[:]) != elf.ELFMAG {
		return fmt.Errorf("%s: not an ELF file (-x wants an executable or shared library)", path)
	}
	return nil
}
