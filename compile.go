// Package bpfcc compiles restricted C into eBPF ELF objects without clang or
// LLVM. Compile is the Go API; cmd/bpfcc is the command-line driver.
package bpfcc

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/btf"

	"github.com/bpfcc/bpfcc/bind"
	"github.com/bpfcc/bpfcc/codegen"
	"github.com/bpfcc/bpfcc/codegen/obj"
	"github.com/bpfcc/bpfcc/diag"
	"github.com/bpfcc/bpfcc/dwarfvars"
	"github.com/bpfcc/bpfcc/frontend"
	"github.com/bpfcc/bpfcc/frontend/hcache"
	"github.com/bpfcc/bpfcc/ir"
	"github.com/bpfcc/bpfcc/lower"
)

// OptLevel is an optimisation level (-O0, -O1, -O2). Its zero value is
// the default, so that a zero Options compiles as the command does.
type OptLevel int

const (
	ODefault OptLevel = iota // -O2
	O0
	O1
	O2
)

// Opt is the OptLevel of -On; n outside 0..2 is the default.
func Opt(n int) OptLevel {
	if n < 0 || n > 2 {
		return ODefault
	}
	return O0 + OptLevel(n)
}

// Level is the numeric level, 0..2.
func (o OptLevel) Level() int {
	if o <= ODefault || o > O2 {
		return 2
	}
	return int(o - O0)
}

// Options configure one compilation. The zero value is the command's
// default: -O2 -g -mcpu=v3.
type Options struct {
	// Source, when non-nil, is compiled instead of reading path (path is then
	// only used in diagnostics).
	Source []byte
	// IncludeDirs are -I directories, searched before the embedded and
	// system headers.
	IncludeDirs []string
	// AfterIncludeDirs are -idirafter directories, searched after the
	// system headers; NoStdInc (-nostdinc) leaves the system headers out.
	AfterIncludeDirs []string
	NoStdInc         bool
	// Std is the -std= C standard; "" is clang's default, gnu17.
	Std string
	// Includes are -include files, read before the source (they turn the
	// header cache off for the compile).
	Includes []string
	// Defines are -D arguments: "NAME" or "NAME=VALUE".
	Defines []string
	// Undefines are -U arguments.
	Undefines []string
	// NoBuiltin names the library functions a call of which is the file's
	// own definition, not clang's builtin (-fno-builtin-NAME); "*" names
	// them all (-fno-builtin, -ffreestanding).
	NoBuiltin []string
	// OptLevel is O0, O1 or O2; the zero value is the default, O2.
	OptLevel OptLevel
	// NoDebug drops .BTF.ext line and func info (-g0).
	NoDebug bool
	// CPU is the -mcpu version 1..4; 0 selects the default (3).
	CPU int
	// CacheDir, when set, is the header cache's directory (package
	// frontend/hcache); the command sets it, tests leave it empty to stay
	// hermetic. The object never depends on it.
	CacheDir string
	// Files, when set, receives the files the compile read, the source
	// first (frontend.Options.Files): the -MD dependency file's.
	Files *[]string
	// NoListing leaves Result.Listing empty: the command builds the
	// listing only for -S.
	NoListing bool
	// NoSpec leaves Result.Spec nil: the command parses its object with
	// cilium/ebpf only for --load (the parse copies every data section:
	// 16 MB for a 16 MB .bss), and a plain compile only writes it.
	NoSpec bool
	// DumpIR, when non-nil, receives the IR module after lowering.
	DumpIR func(*ir.Module)
	// AfterPass, when non-nil, sees the IR after each optimiser pass
	// (codegen.Options.AfterPass): -d=ir:after=PASS and -d=ir:time.
	AfterPass func(pass string, m *ir.Module, f *ir.Func, took time.Duration)
	// AfterStage, when non-nil, sees each function after every back-end
	// stage (codegen.Options.AfterStage).
	AfterStage func(stage, fn, text string, took time.Duration)

	// Binary is the traced program (-x) whose DWARF binds handler arguments.
	Binary string
	// Probes are --probe HANDLER=PROBE settings; they override SEC("config").
	Probes []string
	// Binds are --bind HANDLER.ARG=EXPR settings; they override SEC("config").
	Binds []string
	// DefaultProbe is the probe of handlers that name none (--load PROBE).
	DefaultProbe string
	// CommandBinary is the binary of the command --load runs: the traced
	// program of user-space handlers when Binary is empty (never of a
	// kprobe).
	CommandBinary string
}

// Result is a compiled object.
type Result struct {
	// Object is the ELF relocatable object.
	Object []byte
	// Spec is Object parsed by cilium/ebpf, ready to load; nil for the
	// rare object only libbpf reads (a warning says why).
	Spec *ebpf.CollectionSpec
	// Listing is the -S listing.
	Listing string
	// Warnings are diagnostics that did not stop compilation.
	Warnings diag.List
	// Module is the lowered IR (before codegen's passes).
	Module *ir.Module
}

// ErrInternal marks a bug in bpfcc rather than in the input.
var ErrInternal = errors.New("internal compiler error")

// Compile compiles one C file. Errors in the input come back as a
// diag.List; bugs in bpfcc wrap ErrInternal.
func Compile(path string, opts Options) (res *Result, err error) {
	stage := "front end"
	defer func() {
		if r := recover(); r != nil {
			err = internalError(stage, r)
			res = nil
		}
	}()
	cpu := opts.CPU
	if cpu == 0 {
		cpu = codegen.DefaultCPU
	}
	if cpu < 1 || cpu > 4 {
		return nil, fmt.Errorf("unsupported -mcpu=v%d (want v1..v4)", cpu)
	}
	opt := opts.OptLevel.Level()
	fo := opts.FrontendOptions()
	fo.CPU, fo.Cache = cpu, hcache.Open(opts.CacheDir)
	fo.TargetHeader = TargetHeader(cmp.Or(opts.Binary, opts.CommandBinary))
	u, err := frontend.Parse(path, fo)
	if err != nil {
		return nil, err
	}
	stage = "binding"
	handlers, err := bind.Bind(frontend.Describe(u), bind.Options{Binary: opts.Binary, Probes: opts.Probes, Binds: opts.Binds,
		DefaultProbe: opts.DefaultProbe, CommandBinary: opts.CommandBinary})
	if err != nil {
		return nil, err
	}
	stage = "lowering"
	m, warnings, err := lower.Lower(u, lower.Options{OptLevel: opt, CPU: cpu, Handlers: handlers, NoBuiltin: opts.NoBuiltin, C89: frontend.IsC89(opts.Std)})
	if err != nil {
		return nil, err
	}
	if opts.DumpIR != nil {
		opts.DumpIR(m)
	}
	stage = "code generation"
	o, err := codegen.Generate(m, codegen.Options{CPU: cpu, OptLevel: opt, Debug: !opts.NoDebug, AfterPass: opts.AfterPass, AfterStage: opts.AfterStage})
	if err != nil {
		return nil, inputOrInternal(err)
	}
	stage = "ELF writer"
	res, err = write(path, o, opts.NoListing, opts.NoSpec)
	if err != nil {
		return nil, err
	}
	res.Warnings = append(append(warnings, o.Warnings...), res.Warnings...)
	for _, w := range fo.Cache.Warnings() {
		res.Warnings = append(res.Warnings, diag.Diagnostic{File: path, Severity: diag.Warning, Msg: w})
	}
	res.Module = m
	return res, nil
}

// write turns o into the ELF object, and that into the spec cilium/ebpf
// loads, with a warning for the objects only libbpf reads. With noSpec the
// object is parsed only when it may be one of those, for the warning.
func write(path string, o *obj.Object, noListing, noSpec bool) (*Result, error) {
	elf, err := codegen.ELF(o)
	if err != nil {
		return nil, fmt.Errorf("%w: ELF writer: %v", ErrInternal, err)
	}
	res := &Result{Object: elf}
	if !noListing {
		res.Listing = codegen.Listing(o)
	}
	why := ciliumCannotRead(o)
	if noSpec && why == "" {
		return res, nil
	}
	// cilium/ebpf relocates only global maps: --load reads a copy that
	// binds the __weak ones so; the object keeps STB_WEAK for the BPF
	// static linker.
	weakOnly, specELF := false, elf
	if g := globalMaps(o); g != o && ciliumCannotRead(g) == "" {
		weakOnly = true
		if !noSpec {
			if specELF, err = codegen.ELF(g); err != nil {
				return nil, fmt.Errorf("%w: ELF writer: %v", ErrInternal, err)
			}
		}
	}
	res.Spec, err = ebpf.LoadCollectionSpecFromReader(bytes.NewReader(specELF))
	switch {
	case err != nil && why != "":
		// libbpf loads these; cilium/ebpf (and so --load) does not.
		res.Spec = nil
		msg := why + ": the object loads with libbpf, but not with cilium/ebpf or bpfcc --load"
		if weakOnly {
			msg = why + ": the object loads with libbpf, but not with cilium/ebpf (bpfcc --load of the source does)"
		}
		res.Warnings = diag.List{{File: path, Severity: diag.Warning, Msg: msg}}
	case err != nil:
		return nil, fmt.Errorf("%w: the object bpfcc wrote does not parse: %v", ErrInternal, err)
	}
	return res, nil
}

// ciliumCannotRead names what in o cilium/ebpf does not read, or "":
// typed __ksym variables (it takes only `extern const void NAME __ksym;`),
// __weak externs and maps, externs for the BPF static linker, and data in sections
// other than .data*, .rodata*, .bss*
// and .struct_ops.link (.struct_ops, an arena's .addr_space.1, ...).
func ciliumCannotRead(o *obj.Object) string {
	for _, ds := range o.Data {
		n := ds.Name
		if n != ".bss" && n != ".struct_ops.link" && !strings.HasPrefix(n, ".data") && !strings.HasPrefix(n, ".rodata") {
			return fmt.Sprintf("variables in section %q", n)
		}
	}
	for _, m := range o.Maps {
		if m.Extern {
			return fmt.Sprintf("extern map %q (for the BPF static linker)", m.Name)
		}
		if m.Weak {
			// STB_WEAK, as clang writes it, so that the BPF static
			// linker lets another object's definition win (libbpf's
			// usdt.bpf.h maps); cilium/ebpf relocates global maps only.
			return fmt.Sprintf("map %q is __weak", m.Name)
		}
		if m.BTF != nil {
			for _, f := range m.BTF.Members {
				if !ciliumMapFields[f.Name] {
					return fmt.Sprintf("map %q sets %q", m.Name, f.Name)
				}
			}
		}
	}
	for _, e := range o.Externs {
		if e.Section == "" {
			return fmt.Sprintf("extern variable %q (for the BPF static linker)", e.Name)
		}
		if _, void := e.BTF.(*btf.Void); e.Section == ".ksyms" && !void {
			return fmt.Sprintf("__ksym variable %q has a type", e.Name)
		}
		if e.Weak {
			return fmt.Sprintf("extern %q is __weak", e.Name)
		}
	}
	return ""
}

// ciliumMapFields are the BTF map definition members cilium/ebpf reads
// (libbpf also knows numa_node and others).
var ciliumMapFields = map[string]bool{
	"type": true, "map_flags": true, "max_entries": true, "key": true, "value": true,
	"key_size": true, "value_size": true, "pinning": true, "values": true, "map_extra": true,
}

func internalError(stage string, r any) error {
	return fmt.Errorf("%w in %s: %v\n%s", ErrInternal, stage, r, debug.Stack())
}

// inputOrInternal returns a stage's errors about the input (a diag.List)
// as they are; anything else is a bpfcc bug.
func inputOrInternal(err error) error {
	var dl diag.List
	if errors.As(err, &dl) {
		return dl
	}
	return fmt.Errorf("%w: %v", ErrInternal, err)
}

// TargetHeader returns what frontend.Options.TargetHeader wants for the
// traced binary bin (nil without one): <bpfcc/target.h> for a program's
// source; when the binary's types cannot be read the header is an #error
// saying why, reported where the program includes it.
func TargetHeader(bin string) func(src []byte) []byte {
	if bin == "" {
		return nil
	}
	return func(src []byte) []byte {
		text, err := dwarfvars.TargetHeader(bin, src)
		if err != nil {
			msg := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ").Replace(strings.ToValidUTF8(err.Error(), "\uFFFD"))
			return []byte(fmt.Sprintf("#error \"<bpfcc/target.h>: %s\"\n", msg))
		}
		return []byte(text)
	}
}

// FrontendOptions are the preprocessing options of opts: source, include
// search, macros, standard and CPU (as given: 0 for the default).
func (opts Options) FrontendOptions() frontend.Options {
	return frontend.Options{Source: opts.Source, IncludeDirs: opts.IncludeDirs, AfterDirs: opts.AfterIncludeDirs, NoStdInc: opts.NoStdInc,
		Std: opts.Std, Includes: opts.Includes, Defines: opts.Defines, Undefines: opts.Undefines, CPU: opts.CPU, Files: opts.Files}
}

// globalMaps is o with its __weak map definitions global, or o itself
// when it has none.
func globalMaps(o *obj.Object) *obj.Object {
	var maps []*obj.Map
	for i, m := range o.Maps {
		if m.Weak && !m.Extern {
			if maps == nil {
				maps = slices.Clone(o.Maps)
			}
			g := *m
			g.Weak = false
			maps[i] = &g
		}
	}
	if maps == nil {
		return o
	}
	g := *o
	g.Maps = maps
	return &g
}
