package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bpfcc/bpfcc"
	"github.com/bpfcc/bpfcc/frontend"
	"github.com/bpfcc/bpfcc/frontend/hcache"
	"github.com/bpfcc/bpfcc/ir"
	"github.com/bpfcc/bpfcc/runtime"
)

const version = "0.1.0"

const usage = `usage: bpfcc [options] FILE.c [-o OUT]
       bpfcc --load [PROBE] FILE.c|FILE.o [run options] [-- CMD ARGS]
       bpfcc --vars PROBE -x BINARY
       bpfcc --types -x BINARY [TYPE...]

Compile restricted C to an eBPF ELF object (no clang or LLVM needed).

Compile options:
  -c               compile to an object (the default)
  -o OUT           output file (default FILE.o; with -S, standard output)
  -S               print the instruction listing instead of an object
  -E               print the preprocessed source
  -I DIR           add DIR to the include search path
  -isystem DIR     add DIR after the -I directories
  -idirafter DIR   add DIR after the system include directories
  -nostdinc        do not search the system include directories
  -include FILE    read FILE before the source, as #include "FILE" at its top
  -std=STD         C standard: c89, c99, c11, c17, c23 or gnu89 .. gnu23
                   (default gnu17; sets __STDC_VERSION__, __STRICT_ANSI__)
  -D NAME[=VAL]    define a macro
  -U NAME          undefine a macro
  -MD, -MMD        write a make dependency file (OUT with .d; -MMD leaves
                   system headers out); -MF FILE names it, -MT/-MQ TARGET
                   its targets, -MP adds an empty rule per header
  -O0, -O1, -O2    optimisation level (default -O2)
  -g, -g0          emit (default) or omit .BTF.ext line and function info
  -mcpu=v1..v4     BPF instruction set version (default v3)
  -Wall, -w        show (default) or hide warnings
                   (clang's -target bpf, -x c, -W..., -fno-stack-protector
                   and other options with no effect on a BPF object are
                   accepted)
  --no-cache       do not use the header cache ($XDG_CACHE_HOME/bpfcc or
                   ~/.cache/bpfcc; BPFCC_CACHE=off also turns it off)
  -d=ir            print the IR after lowering to standard error
  -d=ir:after=P    print each function after optimiser pass or back-end
                   stage P (a comma-separated list; "all": every one;
                   "lower": as -d=ir; isel, regalloc: the machine IR);
                   -d=ir:time prints their times
  -d=cache         print what the header cache did for the preamble (the
                   leading #includes): read, made, refused, or read and
                   then compiled whole because the reduced file failed
  --version, --help

Probe options (DWARF-bound handler arguments):
  -x BINARY        the traced binary (uprobes; with --load, default: the
                   binary of the command run by -c or --)
  --probe H=PROBE  attach handler H at PROBE (FUNC, FUNC+OFF, FUNC:RLN, FILE.c:LINE, FUNC%return)
  --bind H.ARG=EXPR  bind handler H's argument ARG to the target's variable expression
  --vars PROBE     list the variables visible at PROBE in BINARY
  --types [TYPE...]  print C declarations of BINARY's types (all, or the
                   named ones and what they reach), laid out as its DWARF
                   says; #include <bpfcc/target.h> gives a program compiled
                   with -x the ones it names

Run options (with --load):
  -p PID           trace process PID and every process it starts
                   (uprobes; not with -c or --)
  -c 'CMD ARGS'    run CMD, trace it and every process it starts, stop
                   when it exits (or: -- CMD ARGS); exit with its status;
                   split like a shell's simple command: quotes and
                   backslashes, no pipes, redirections or expansion
  --duration D     stop after D (e.g. 5s)
  --interval D     print the maps every D while the run lasts (totals so
                   far, under the time), then at the end as always
  --iface NAME     network interface for XDP and TC programs
  --pin-path DIR   where maps pinned by name (LIBBPF_PIN_BY_NAME) are
                   pinned or found (default /sys/fs/bpf, as libbpf; the
                   pins stay after bpfcc exits)
  -o FILE          write the results (events, tables, JSON) to FILE; the
                   command's output stays on standard output
  --json           print maps and events as JSON lines; without -o the
                   command's standard output goes to standard error, so
                   standard output is JSON only
  --folded         print maps that hold stacks as folded lines, root
                   first, with their counts (flame-graph input)
  -v               verbose: verifier logs and statistics, time to attach

Exit status: 0 success, 1 error in the input or a failed run, 2 usage error,
3 internal compiler error; with --load, a failed command's status, and 130
or 143 when SIGINT or SIGTERM came before the probes were attached.
`

type config struct {
	input   string
	out     string
	listing bool
	// preprocess is -E: print the preprocessed source.
	preprocess bool
	incDirs    []string
	sysDirs    []string // -isystem: searched after the -I directories
	afterDirs  []string // -idirafter
	noStdInc   bool
	std        string
	// noBuiltin are -fno-builtin-NAME's names, "*" for -fno-builtin and
	// -ffreestanding.
	noBuiltin  []string
	includes   []string // -include
	defines    []string
	undefs     []string
	opt        int
	noDebug    bool
	cpu        int
	warnings   bool
	dumpIR     bool
	cacheDebug bool // -d=cache
	irDebug    irDebug
	help       bool
	version    bool
	noCache    bool
	// A make dependency file, as clang writes it: -MD (or -MMD, without
	// system headers), -MF FILE, -MT/-MQ TARGET, -MP.
	depFile    bool
	depUser    bool
	depOut     string
	depTargets []string
	depPhony   bool

	// Probes.
	binary string
	probes []string // H=PROBE
	binds  []string // H.ARG=EXPR
	vars   string
	types  bool
	// typeNames are --types' arguments.
	typeNames []string

	// --load.
	load     bool
	probe    string
	pid      int
	command  []string
	duration time.Duration
	interval time.Duration
	iface    string
	pinPath  string
	json     bool
	folded   bool
	verbose  bool
}

func (c *config) outPath() string {
	if c.out != "" {
		return c.out
	}
	base := filepath.Base(c.input)
	return strings.TrimSuffix(base, filepath.Ext(base)) + ".o"
}

func (c *config) compileOptions() bpfcc.Options {
	o := bpfcc.Options{
		IncludeDirs: append(slices.Clip(c.incDirs), c.sysDirs...), AfterIncludeDirs: c.afterDirs, NoStdInc: c.noStdInc, Std: c.std, Includes: c.includes,
		Defines: c.defines, Undefines: c.undefs, NoBuiltin: c.noBuiltin,
		OptLevel: bpfcc.Opt(c.opt), NoDebug: c.noDebug, CPU: c.cpu,
		Binary: c.binary, Probes: c.probes, Binds: c.binds,
		NoListing: !c.listing, NoSpec: !c.load,
	}
	if !c.noCache {
		o.CacheDir = hcache.DefaultDir()
	}
	if c.dumpIR {
		o.DumpIR = dumpIR
	}
	c.irDebug.set(&o)
	return o
}

func parseArgs(args []string) (*config, error) {
	c := &config{opt: 2, warnings: true}
	// --load anywhere before "--" makes -c the command to trace, also
	// when -c comes first.
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "--load" {
			c.load = true
		}
	}
	var positional []string
	next := func(i *int, flag string) (string, error) {
		if *i+1 >= len(args) {
			return "", fmt.Errorf("%s needs an argument", flag)
		}
		*i++
		return args[*i], nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		var err error
		var v string
		switch {
		case a == "--":
			if !c.load {
				return nil, fmt.Errorf("'--' CMD is only valid with --load")
			}
			c.command = args[i+1:]
			i = len(args)
			if len(c.command) == 0 {
				return nil, fmt.Errorf("'--' needs a command after it (-- CMD ARGS)")
			}
		case a == "-h" || a == "--help":
			c.help = true
		case a == "--version":
			c.version = true
		case a == "-S":
			c.listing = true
		case a == "--no-cache":
			c.noCache = true
		case a == "-E":
			c.preprocess = true
		case a == "-c" && !c.load:
			// cc's "compile only": the default.
		case a == "-c":
			if v, err = next(&i, a); err == nil {
				c.command, err = commandLine(v)
			}
		case a == "-o":
			c.out, err = next(&i, a)
		case strings.HasPrefix(a, "-o"):
			c.out = a[2:]
		case a == "-I":
			v, err = next(&i, a)
			c.incDirs = append(c.incDirs, v)
		case strings.HasPrefix(a, "-I"):
			c.incDirs = append(c.incDirs, a[2:])
		case a == "-D":
			v, err = next(&i, a)
			c.defines = append(c.defines, v)
		case strings.HasPrefix(a, "-D"):
			c.defines = append(c.defines, a[2:])
		case a == "-U":
			v, err = next(&i, a)
			c.undefs = append(c.undefs, v)
		case strings.HasPrefix(a, "-U"):
			c.undefs = append(c.undefs, a[2:])
		case a == "-O0" || a == "-O1" || a == "-O2" || a == "-O3" || a == "-Os" || a == "-Oz" || a == "-O":
			switch a {
			case "-O0":
				c.opt = 0
			case "-O1", "-O":
				c.opt = 1
			default:
				c.opt = 2
			}
		case a == "-g" || a == "-g1" || a == "-g2" || a == "-g3" || strings.HasPrefix(a, "-gdwarf") ||
			strings.HasPrefix(a, "-ggdb") || a == "-gline-tables-only" || a == "-gbtf":
			// Any debug level: clang's BPF target then writes BTF and
			// its line info, which is what -g gives here.
			c.noDebug = false
		case a == "-g0":
			c.noDebug = true
		case strings.HasPrefix(a, "-mcpu="):
			n := strings.TrimPrefix(strings.TrimPrefix(a, "-mcpu="), "v")
			if n == "probe" || n == "generic" {
				n = "3"
			}
			c.cpu, err = strconv.Atoi(n)
			if err != nil || c.cpu < 1 || c.cpu > 4 {
				err = fmt.Errorf("unknown %s (want -mcpu=v1, v2, v3 or v4)", a)
			}
		case a == "-target" || a == "--target":
			if v, err = next(&i, a); err == nil {
				err = checkTarget(v)
			}
		case strings.HasPrefix(a, "--target="):
			// Cilium's Makefile.bpf spells it so.
			err = checkTarget(strings.TrimPrefix(a, "--target="))
		case a == "-isystem" || a == "-idirafter":
			v, err = next(&i, a)
			if a == "-isystem" {
				c.sysDirs = append(c.sysDirs, v)
			} else {
				c.afterDirs = append(c.afterDirs, v)
			}
		case strings.HasPrefix(a, "-isystem"):
			c.sysDirs = append(c.sysDirs, strings.TrimPrefix(a, "-isystem"))
		case strings.HasPrefix(a, "-idirafter"):
			c.afterDirs = append(c.afterDirs, strings.TrimPrefix(a, "-idirafter"))
		case a == "-MD" || a == "-MMD":
			c.depFile = true
			c.depUser = a == "-MMD"
		case a == "-MF" || a == "-MT" || a == "-MQ":
			v, err = next(&i, a)
			c.depOption(a, v)
		case strings.HasPrefix(a, "-MF") || strings.HasPrefix(a, "-MT") || strings.HasPrefix(a, "-MQ"):
			c.depOption(a[:3], a[3:])
		case a == "-MP":
			c.depPhony = true
		case a == "-Xclang":
			// An option for clang's front end (-fdebug-prefix-map,
			// -target-feature +alu32): none changes what bpfcc writes
			// that -mcpu does not.
			_, err = next(&i, a)
		case a == "-include":
			v, err = next(&i, a)
			c.includes = append(c.includes, v)
		case a == "-nostdinc" || a == "-nostdlibinc":
			c.noStdInc = true
		case strings.HasPrefix(a, "-std=") || strings.HasPrefix(a, "--std=") || a == "-ansi":
			c.std = "c89"
			if a != "-ansi" {
				_, c.std, _ = strings.Cut(a, "=")
			}
			err = frontend.CheckStd(c.std)
		case a == "-xc" || a == "-x" && i+1 < len(args) && args[i+1] == "c":
			// clang's -x c: the language, C; -x otherwise names the
			// traced binary.
			if a == "-x" {
				i++
			}
		case a == "-fno-builtin" || a == "-ffreestanding":
			c.noBuiltin = append(c.noBuiltin, "*")
		case strings.HasPrefix(a, "-fno-builtin-"):
			c.noBuiltin = append(c.noBuiltin, strings.TrimPrefix(a, "-fno-builtin-"))
		case noEffect[a] || strings.HasPrefix(a, "-fdiagnostics-") || strings.HasPrefix(a, "-fmessage-length=") ||
			strings.HasPrefix(a, "-ferror-limit=") || strings.HasPrefix(a, "-fmacro-prefix-map=") ||
			strings.HasPrefix(a, "-fdebug-prefix-map=") || strings.HasPrefix(a, "-ffile-prefix-map=") ||
			strings.HasPrefix(a, "-fdebug-default-version=") || strings.HasPrefix(a, "-fvisibility=") ||
			strings.HasPrefix(a, "-fdebug-compilation-dir=") || strings.HasPrefix(a, "-ffile-compilation-dir=") ||
			strings.HasPrefix(a, "-mattr="):
			// clang options that change nothing in a BPF object
			// (-mattr=alu32 and dwarfris: bpfcc's v3 default has ALU32).
		case a == "-fdebug-compilation-dir" || a == "-fcoverage-compilation-dir" || a == "-ffile-compilation-dir":
			// The directory DWARF records (bpf2go passes it): BTF keeps
			// no directory; its argument is skipped.
			_, err = next(&i, a)
		case a == "-mllvm":
			// An LLVM back-end option (clang -mllvm -bpf-...): bpfcc has
			// no LLVM; its argument is skipped.
			_, err = next(&i, a)
		case a == "-emit-llvm" || a == "-mbig-endian" || a == "-funsigned-char" || a == "-fshort-enums" || strings.HasPrefix(a, "-march=") && a != "-march=bpf" && a != "-march=bpfel":
			return nil, fmt.Errorf("%s: %s", a, unsupported(a))
		case a == "-Wall" || a == "-Wextra" || strings.HasPrefix(a, "-W"):
			c.warnings = true
		case a == "-w":
			c.warnings = false
		case a == "-d=ir" || a == "-dir":
			c.dumpIR = true
		case a == "-d=cache":
			c.cacheDebug = true
		case strings.HasPrefix(a, "-d=ir:"):
			err = c.irDebug.parse(strings.TrimPrefix(a, "-d=ir:"), &c.dumpIR)
		case a == "-x":
			c.binary, err = next(&i, a)
		case a == "--probe":
			v, err = next(&i, a)
			c.probes = append(c.probes, v)
		case a == "--bind":
			v, err = next(&i, a)
			c.binds = append(c.binds, v)
		case a == "--vars":
			c.vars, err = next(&i, a)
		case a == "--types":
			c.types = true
		case a == "--load":
			c.load = true
		case a == "-p":
			v, err = next(&i, a)
			if err == nil {
				c.pid, err = strconv.Atoi(v)
				if err != nil || c.pid <= 0 {
					err = fmt.Errorf("-p %q: want the id of a running process (a positive number)", v)
				}
			}
		case a == "--duration":
			v, err = next(&i, a)
			if err == nil {
				c.duration, err = time.ParseDuration(v)
				if err != nil {
					err = fmt.Errorf("--duration %q: want a duration such as 500ms, 5s or 2m", v)
				} else if c.duration <= 0 {
					err = fmt.Errorf("--duration %q: want a positive duration such as 500ms, 5s or 2m (without --duration the run lasts until Ctrl-C)", v)
				}
			}
		case a == "--interval":
			v, err = next(&i, a)
			if err == nil {
				c.interval, err = time.ParseDuration(v)
				if err != nil || c.interval <= 0 {
					err = fmt.Errorf("--interval %q: want a positive duration such as 1s or 500ms", v)
				}
			}
		case a == "--iface":
			c.iface, err = next(&i, a)
		case a == "--pin-path":
			c.pinPath, err = next(&i, a)
		case a == "--json":
			c.json = true
		case a == "--folded":
			c.folded = true
		case a == "-v":
			c.verbose = true
		case strings.HasPrefix(a, "-") && a != "-":
			return nil, fmt.Errorf("unknown option %s", a)
		default:
			positional = append(positional, a)
		}
		if err != nil {
			return nil, err
		}
	}
	if c.help || c.version {
		return c, nil
	}
	if c.vars != "" {
		return c, nil
	}
	if c.types {
		c.typeNames = positional
		return c, nil
	}
	if c.pid != 0 && len(c.command) > 0 {
		return nil, fmt.Errorf("-p cannot be combined with a command (-c or --): the command started is the process traced")
	}
	if c.load && len(positional) == 2 {
		c.probe, positional = positional[0], positional[1:]
	}
	switch len(positional) {
	case 0:
		return nil, fmt.Errorf("no input file")
	case 1:
		c.input = positional[0]
	default:
		return nil, fmt.Errorf("more than one input file: %s", strings.Join(positional, " "))
	}
	return c, nil
}

// noEffect are clang options a BPF build passes that change nothing in
// the object bpfcc writes: BPF has no stack protector, unwind tables,
// position-dependent code or other endianness by default, and bpfcc no
// type-based alias analysis, common symbols or builtin library calls.
var noEffect = map[string]bool{
	"-fpie": true, "-fPIE": true, "-fpic": true, "-fPIC": true,
	"-fno-stack-protector": true, "-fno-asynchronous-unwind-tables": true, "-fno-unwind-tables": true,
	"-fno-jump-tables": true, "-fno-common": true,
	"-fno-strict-aliasing": true, "-fno-PIE": true, "-fno-pie": true, "-fno-PIC": true, "-fno-pic": true,
	"-mlittle-endian": true, "-nostdlib": true, "-march=bpf": true, "-march=bpfel": true, "-m64": true, "-pipe": true,
	"-fcolor-diagnostics": true, "-fno-color-diagnostics": true, "-Qunused-arguments": true,
	"-fno-ident": true, "-fno-omit-frame-pointer": true, "-fomit-frame-pointer": true,
	"-gcolumn-info": true, "-gno-column-info": true, "-fno-inline": true, "-funroll-loops": true,
	"-fno-unroll-loops": true, "-fstrict-aliasing": true, "-fno-exceptions": true, "-ffunction-sections": true,
	"-fdata-sections": true, "-fno-stack-check": true, "-fwrapv": true, "-fno-strict-overflow": true,
	"-fno-delete-null-pointer-checks": true, "-fsigned-char": true, "-fno-unsigned-char": true,
	"-fmerge-all-constants": true, "-fno-merge-all-constants": true,
}

// unsupported says why bpfcc refuses a clang option.
func unsupported(a string) string {
	switch a {
	case "-emit-llvm":
		return "bpfcc writes BPF objects directly, there is no LLVM IR (drop -emit-llvm and the llc step)"
	case "-mbig-endian":
		return "bpfcc emits little-endian BPF (bpfel) only"
	case "-funsigned-char":
		return "char is signed in bpfcc's BPF C, as in clang's by default"
	case "-fshort-enums":
		return "enums are int-sized in bpfcc's BPF C, as in clang's by default"
	}
	return "bpfcc targets BPF only"
}

// commandLine splits -c's text into words like a shell's simple command
// (quotes and backslashes; no expansion, pipes or redirections).
func commandLine(v string) ([]string, error) {
	words, err := runtime.SplitCommand(v)
	if err != nil {
		return nil, fmt.Errorf("-c: %w", err)
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("-c needs a command to run (-c 'CMD ARGS')")
	}
	return words, nil
}

func dumpIR(m *ir.Module) { fmt.Fprintln(os.Stderr, m) }

// checkTarget accepts clang's names of the little-endian BPF target.
func checkTarget(t string) error {
	arch, _, _ := strings.Cut(t, "-")
	switch arch {
	case "bpf", "bpfel":
		return nil
	case "bpfeb":
		return fmt.Errorf("target %q: big-endian BPF is not supported (bpfcc compiles for bpf, little-endian)", t)
	}
	return fmt.Errorf("unsupported target %q: bpfcc compiles for bpf", t)
}
