package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cilium/ebpf"
	"golang.org/x/sys/unix"

	"github.com/bpfcc/bpfcc/abi"
	"github.com/bpfcc/bpfcc/bind"
	"github.com/bpfcc/bpfcc/dwarfvars"
	"github.com/bpfcc/bpfcc/runtime"
)

// startTime is the process's start, for -v's time to attached: package
// init runs after the runtime's and every other package's (~14 ms here),
// on the CPU all along, so the main thread's CPU time so far is taken off.
var startTime = processStart(time.Now())

// processStart subtracts the main thread's CPU time (/proc/self/schedstat:
// nanoseconds on the CPU first) from now.
func processStart(now time.Time) time.Time {
	b, err := os.ReadFile("/proc/self/schedstat")
	if err != nil {
		return now
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return now
	}
	ns, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil || ns < 0 {
		return now
	}
	return now.Add(-time.Duration(ns))
}

// runLoad compiles (or reads) the object, then hands it to the runtime.
func runLoad(cfg *config, stdout, stderr io.Writer) int {
	// SIGINT and SIGTERM end the run from the start, whatever disposition
	// bpfcc inherited (a background job of a script starts with SIGINT
	// ignored; Notify installs a handler regardless). Before the probes
	// are attached the run ends with nothing left behind.
	ctx, stopSignals := notifyContext()
	defer stopSignals()
	if cfg.out != "" && sameFile(cfg.input, cfg.out) {
		fmt.Fprintf(stderr, "bpfcc: -o %s is the input file: the results would overwrite it\n", cfg.out)
		return exitUsage
	}
	var spec *ebpf.CollectionSpec
	rtProbe := ""
	// Without -x, a uprobe probes the command's binary when the command
	// is an ELF program (found through $PATH as the command would be).
	inferred := ""
	if cfg.binary == "" {
		inferred = commandBinary(cfg.command)
	}
	noteInferred := func() {
		if inferred != "" {
			fmt.Fprintf(stderr, "bpfcc: note: without -x, uprobes probe the command's binary %s; add -x BINARY to probe another program\n", inferred)
		}
	}
	if strings.HasSuffix(cfg.input, ".o") {
		f, err := os.Open(cfg.input)
		if err != nil {
			fmt.Fprintf(stderr, "bpfcc: %v\n", err)
			return exitInput
		}
		defer f.Close()
		spec, err = runtime.LoadSpec(f)
		if err != nil {
			fmt.Fprintf(stderr, "bpfcc: %s: %v\n", cfg.input, err)
			return exitInput
		}
		rtProbe = cfg.probe
	} else {
		opts := cfg.compileOptions()
		opts.DefaultProbe = cfg.probe
		opts.CommandBinary = inferred
		cfg.warnings = true
		res, err := compileWith(cfg, opts, stderr)
		if err != nil {
			code := reportError(err, cfg, stderr)
			noteInferred()
			return code
		}
		spec = res.Spec
		if spec == nil {
			fmt.Fprintf(stderr, "bpfcc: %s: cilium/ebpf cannot load this object (see the warning above)\n", cfg.input)
			return exitInput
		}
	}
	if ctx.Err() != nil {
		return interruptedExit(ctx, stderr)
	}
	if os.Getenv("GOGC") == "" {
		compileGCOff.Store(true)
		debug.SetGCPercent(100) // a long run: collect again
		debug.SetMemoryLimit(gcLimit)
	}
	ropts := runtime.Options{
		Probe: rtProbe, Binary: cmp.Or(cfg.binary, inferred), PID: cfg.pid, Duration: cfg.duration, Interval: cfg.interval, Command: cfg.command,
		Iface: cfg.iface, PinPath: cfg.pinPath, Verbose: cfg.verbose, JSON: cfg.json, Folded: cfg.folded, Start: startTime,
		Stdout: stdout, Stderr: stderr,
	}
	if !strings.HasSuffix(cfg.input, ".o") {
		ropts.SourcePath = cfg.input
	}
	// bpfcc's results go to -o FILE or standard output, and the command
	// keeps its standard output unless that would mix it into --json
	// output on the same stream: then it goes to standard error, so
	// that `bpfcc --load ... --json -c CMD | jq` reads JSON only.
	switch {
	case cfg.out != "" && cfg.out != "-":
		f, err := os.Create(cfg.out)
		if err != nil {
			fmt.Fprintf(stderr, "bpfcc: -o: %v\n", err)
			return exitInput
		}
		defer f.Close()
		ropts.Stdout = f
	case cfg.json:
		ropts.CommandStdout = stderr
	}
	ropts.Attach = entryHelpersFirst(spec)
	if err := runtime.Run(ctx, spec, ropts); err != nil {
		if errors.Is(err, runtime.ErrInterrupted) {
			return interruptedExit(ctx, stderr)
		}
		var ce *runtime.CommandError
		if errors.As(err, &ce) {
			// The run itself went well: the exit status is the command's.
			fmt.Fprintf(stderr, "bpfcc: %v\n", err)
			return ce.ExitCode()
		}
		fmt.Fprintf(stderr, "bpfcc: %s\n", runtime.Describe(err))
		if errors.Is(err, runtime.ErrAttach) {
			noteInferred()
		}
		return exitInput
	}
	return exitOK
}

// commandBinary is the program a command runs, when it is an ELF file: its
// first word resolved through $PATH, as absolute path. It is "" for no
// command, a command that is not found, and a script.
func commandBinary(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return ""
	}
	if path, err = filepath.Abs(path); err != nil {
		return ""
	}
	if bind.CheckELF(path) != nil {
		return ""
	}
	return path
}

// notifyContext returns a context that SIGINT or SIGTERM cancels, with
// the signal as its cause.
func notifyContext() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			cancel(signalError{s.(syscall.Signal)})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}

// signalError is the cause of a run's end by a signal.
type signalError struct{ sig syscall.Signal }

func (e signalError) Error() string { return "interrupted by " + unix.SignalName(e.sig) }

// interruptedExit reports a run that a signal ended before the probes
// were attached; the exit status is the shell's for a death by that
// signal (130 for SIGINT, 143 for SIGTERM).
func interruptedExit(ctx context.Context, stderr io.Writer) int {
	fmt.Fprintln(stderr, "bpfcc: interrupted before the probes were attached: nothing was traced")
	// The runtime may see the signal on its own channel first; this
	// context gets it too, since every registered channel receives it.
	<-ctx.Done()
	var se signalError
	if errors.As(context.Cause(ctx), &se) {
		return 128 + int(se.sig)
	}
	return exitInput
}

// runVars lists the variables visible at a probe (--vars PROBE -x BIN).
func runVars(cfg *config, stdout, stderr io.Writer) int {
	p, err := dwarfvars.ParseProbe(cfg.vars)
	if err != nil {
		fmt.Fprintf(stderr, "bpfcc: --vars %q: %v\n", cfg.vars, err)
		return exitUsage
	}
	bin := p.Binary
	if bin == "" {
		bin = cfg.binary
	}
	if bin == "" {
		fmt.Fprintln(stderr, "bpfcc: --vars needs the traced binary: -x BINARY (or a BINARY: prefix)")
		return exitUsage
	}
	if err := bind.CheckELF(bin); err != nil {
		fmt.Fprintf(stderr, "bpfcc: %s\n", validUTF8(err))
		return exitInput
	}
	b, err := dwarfvars.Open(bin)
	if err != nil {
		fmt.Fprintf(stderr, "bpfcc: %s\n", validUTF8(err))
		return exitInput
	}
	defer b.Close()
	var buf bytes.Buffer
	if err := b.WriteVars(&buf, p); err != nil {
		fmt.Fprintf(stderr, "bpfcc: %s\n", validUTF8(err))
		return exitInput
	}
	stdout.Write(bytes.ToValidUTF8(buf.Bytes(), []byte("\uFFFD")))
	return exitOK
}

// entryHelpersFirst lists the entry-value helper programs (NAME__entry) as
// explicit targets, which the runtime attaches before everything else, so
// a line probe never runs before the value it reads was saved.
func entryHelpersFirst(spec *ebpf.CollectionSpec) []runtime.Target {
	var ts []runtime.Target
	for name, p := range spec.Programs {
		if !abi.IsEntryProgram(name) {
			continue
		}
		if s, ok := abi.ParseSection(p.SectionName); ok && s.Def.Kind == abi.KindUprobe && s.Target != "" {
			ts = append(ts, runtime.Target{Program: name, Probe: s.Target})
		}
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].Program < ts[j].Program })
	return ts
}

// validUTF8 is err's message with the invalid UTF-8 of names read from a
// binary's DWARF shown as U+FFFD.
func validUTF8(err error) string { return strings.ToValidUTF8(err.Error(), "\uFFFD") }
