package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/btf"
	"github.com/cilium/ebpf/link"
	"golang.org/x/sys/unix"
)

// initTime approximates process start for the time-to-attached figure when
// Options.Start is not set: package initialisation runs first thing.
var initTime = time.Now()

// killGrace is how long a traced command gets between SIGTERM and SIGKILL.
const killGrace = 2 * time.Second

// printkDrain bounds how long the end of a run waits for trace_pipe.
const printkDrain = 500 * time.Millisecond

var timeAfter = time.After

// Options control one run of the loader. The zero value runs until ctx is
// done or SIGINT/SIGTERM arrives, printing to os.Stdout and os.Stderr.
type Options struct {
	// Probe sets the attach point of the uprobe, kprobe or tracepoint
	// programs whose section names none; when the object has exactly one
	// such program, it replaces the section's attach point (--load PROBE).
	// Forms: "BINARY:FUNC[+OFF]", "BINARY:0xFILEOFFSET", "FUNC[+OFF]",
	// "CAT/NAME".
	Probe string
	// Binary is the traced program of a uprobe whose Probe names only a
	// function (-x, or the command's binary).
	Binary string
	// Attach sets attach points per program; these are attached first and in
	// this order (entry-value helpers before their line probes).
	Attach []Target
	// PID limits uprobes to process PID and every process it starts,
	// including those it started before the run (-p); see the process
	// filter in pidfilter.go. Ignored with Command.
	PID int
	// Duration stops the run after this long (--duration); 0 means no limit.
	Duration time.Duration
	// Interval prints the maps every Interval while the run lasts, as
	// bpftrace's interval probe prints them (--interval); 0 prints them
	// only at the end. The values keep counting: each print is the total
	// so far.
	Interval time.Duration
	// Command is started once the programs are loaded, held until they are
	// attached, and its exit ends the run (-c, --); uprobes are limited to
	// it and every process it starts. One element with spaces is split as
	// SplitCommand does.
	Command []string
	// CommandStdout and CommandStderr receive the command's output; nil
	// means os.Stdout and os.Stderr.
	CommandStdout, CommandStderr io.Writer
	// Iface is the network interface for XDP and TC programs (--iface).
	Iface string
	// PinPath is where maps pinned by name (LIBBPF_PIN_BY_NAME) are
	// pinned, or found when another program pinned them first
	// (--pin-path); "" is libbpf's default, /sys/fs/bpf.
	PinPath string
	// Verbose prints every program's verifier log and statistics, the time
	// to attached, per-CPU values and internal maps (-v).
	Verbose bool
	// JSON prints events, printk lines, tables and histograms as JSON
	// lines (--json).
	JSON bool
	// Folded prints maps that hold stacks as one line per stack, root
	// first, with its count, as flame-graph tools read them (--folded).
	Folded bool
	// OutputTypes gives the record type of perf event array and ring buffer
	// maps by map name. Maps not listed fall back to an EventTag decl tag, a
	// type named after the map, or hex.
	OutputTypes map[string]btf.Type
	// SourcePath is the C file the object was compiled from; it supplies the
	// source line in verifier reports when the object records another path.
	SourcePath string
	// Start is when the driver started, for the time-to-attached figure;
	// zero means package initialisation.
	Start time.Time
	// Stdout and Stderr receive output and diagnostics; nil means os.Stdout
	// and os.Stderr.
	Stdout, Stderr io.Writer
	// Ready, when set, is called once every program is attached.
	Ready func()
}

// Run loads spec, attaches every program, prints events and bpf_printk lines
// while it runs and the maps when it ends. It runs until ctx is done,
// SIGINT or SIGTERM arrives, Duration passes, or Command exits, and detaches
// everything on every path. Errors wrap ErrLoad, ErrAttach, ErrCommand or
// ErrInterrupted; Describe renders them with a hint. A Command that failed
// on its own gives a *CommandError after the results are printed. Run does
// not modify spec.
func Run(ctx context.Context, spec *ebpf.CollectionSpec, opts Options) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: internal error: %v", ErrLoad, r)
		}
	}()
	if spec == nil {
		return fmt.Errorf("%w: no collection spec", ErrLoad)
	}
	if opts.Stdout == nil {
		opts.Stdout = os.Stdout
	}
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	if opts.Start.IsZero() {
		opts.Start = initTime
	}
	out := &printer{out: opts.Stdout, errw: opts.Stderr, json: opts.JSON}
	spec = spec.Copy()
	plans, err := planAttach(spec, &opts)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrAttach, err)
	}
	filter, err := planTreeFilter(spec, plans, opts.PID != 0 || len(opts.Command) > 0, func(note string) { out.diag("note: %s", note) })
	if err != nil {
		return fmt.Errorf("%w: %w", ErrAttach, err)
	}
	if ctx.Err() != nil {
		return ErrInterrupted
	}
	if err := checkTargets(plans); err != nil {
		return err
	}
	if err := checkPinPath(spec, &opts); err != nil {
		return fmt.Errorf("%w: %w", ErrLoad, err)
	}
	memlockErr := removeMemlock()
	memlockLimited = memlockErr != nil
	coll, err := load(spec, &opts)
	if err != nil {
		if memlockErr != nil && errors.Is(err, ErrMemlock) {
			err = fmt.Errorf("%w (removing the memlock limit failed: %v)", err, memlockErr)
		}
		filter.unshift(err)
		return err
	}
	defer coll.Close()
	for _, name := range pinnedMaps(spec) {
		out.diag("note: map %s is pinned at %s (LIBBPF_PIN_BY_NAME): it stays after bpfcc exits", name, filepath.Join(opts.PinPath, name))
	}
	if opts.Verbose {
		printVerifierLogs(coll, out)
		if filter != nil {
			out.diag("note: the first %d instructions of %s are the process filter's check", filter.prefix, strings.Join(filter.progs, ", "))
		}
	}
	s := &session{spec: spec, coll: coll, opts: &opts, out: out, filter: filter}
	return s.run(ctx, plans)
}

// session is one run from loaded to cleaned up.
type session struct {
	spec    *ebpf.CollectionSpec
	coll    *ebpf.Collection
	opts    *Options
	out     *printer
	cmd     *command
	links   []link.Link
	events  []*eventReader
	printk  *printkReader
	filter  *treeFilter
	plans   []plan
	stopped bool
	stacks  *stackCtx // nil without a stack trace map or stack members
}

func (s *session) run(ctx context.Context, plans []plan) (err error) {
	defer s.cleanup()
	// Catch SIGINT/SIGTERM from here on, so that a signal during attach
	// still ends in a clean exit.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sig)
	// interrupted reports a signal or the end of ctx before the probes
	// are attached: the run ends, and cleanup removes what it set up
	// without ever releasing the command.
	interrupted := func() bool {
		select {
		case <-sig:
			return true
		default:
			return ctx.Err() != nil
		}
	}
	if interrupted() {
		return ErrInterrupted
	}
	s.plans = plans
	pid := s.opts.PID
	if len(s.opts.Command) > 0 {
		if s.cmd, err = startCommand(s.opts.Command, s.opts); err != nil {
			return err
		}
		pid = s.cmd.pid()
	} else if pid != 0 {
		if err := unix.Kill(pid, 0); errors.Is(err, unix.ESRCH) {
			return fmt.Errorf("%w: -p %d: no such process", ErrAttach, pid)
		}
	}
	// The uprobes' own PID filter: the process itself, unless the tree
	// filter decides in the kernel.
	uprobePID := pid
	if s.filter != nil {
		if err := s.filter.start(s.coll, pid, s.cmd == nil); err != nil {
			return err
		}
		uprobePID = 0
		if s.opts.Verbose {
			s.out.diag("%s", s.filter.describe())
		}
	}
	if usesPrintk(s.spec) {
		if s.printk, err = startPrintk(s.out, printkPID(plans, pid)); err != nil {
			s.out.diag("bpf_printk output unavailable: %v", err)
		}
	}
	s.stacks = newStackCtx(s.spec, s.coll, pid, s.cmd, eventTypes(s.spec, s.opts))
	if s.events, err = startEvents(s.spec, s.coll, s.opts, s.out, s.stacks); err != nil {
		return fmt.Errorf("%w: %w", ErrAttach, err)
	}
	if interrupted() {
		return ErrInterrupted
	}
	if s.links, err = attachAll(s.coll, plans, s.opts, uprobePID); err != nil {
		return err
	}
	if s.stacks != nil {
		s.stacks.sym.addProbes(plans)
	}
	if interrupted() {
		return ErrInterrupted
	}
	if s.opts.Verbose {
		s.out.diag("attached %d program(s) in %.1f ms since start", len(s.links), float64(time.Since(s.opts.Start).Microseconds())/1000)
	}
	if s.opts.Ready != nil {
		s.opts.Ready()
	}
	if s.cmd != nil {
		s.cmd.release()
	}
	s.wait(ctx, sig)
	s.finish()
	if s.cmd != nil {
		return s.cmd.failure()
	}
	return nil
}

// printkPID is the process bpf_printk lines are limited to: the traced
// process when every program is a uprobe limited to it (other programs
// may print from any process), else 0.
func printkPID(plans []plan, pid int) int {
	if pid == 0 || len(plans) == 0 {
		return 0
	}
	for _, p := range plans {
		if p.point.kind != kindUprobe {
			return 0
		}
	}
	return pid
}

// wait blocks until the run should end, printing the maps at each tick
// of --interval.
func (s *session) wait(ctx context.Context, sig <-chan os.Signal) {
	var timer <-chan time.Time
	if s.opts.Duration > 0 {
		t := time.NewTimer(s.opts.Duration)
		defer t.Stop()
		timer = t.C
	}
	var tick <-chan time.Time
	if s.opts.Interval > 0 {
		t := time.NewTicker(s.opts.Interval)
		defer t.Stop()
		tick = t.C
	}
	var cmdDone chan struct{}
	if s.cmd != nil {
		cmdDone = s.cmd.done
	}
	waitLoop(ctx, sig, timer, cmdDone, tick, s.printInterval)
}

// waitLoop returns when ctx ends, a signal or the timer arrives or done
// closes, calling each for every tick before that.
func waitLoop(ctx context.Context, sig <-chan os.Signal, timer <-chan time.Time, done <-chan struct{}, tick <-chan time.Time, each func(time.Time)) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-sig:
			return
		case <-timer:
			return
		case <-done:
			return
		case t := <-tick:
			each(t)
		}
	}
}

// printInterval prints the maps as they are at t, under a line with the
// time (text) or after an {"interval": ...} line (JSON).
func (s *session) printInterval(t time.Time) {
	if s.out.json {
		b, _ := json.Marshal(map[string]string{"interval": t.Format(time.RFC3339Nano)})
		s.out.header(string(b) + "\n")
	} else {
		s.out.header(t.Format("15:04:05") + "\n")
	}
	dumpMaps(s.spec, s.coll, s.opts, s.out, s.stacks)
}

// finish detaches the programs, prints what is still buffered and then the
// maps.
func (s *session) finish() {
	closeLinks(s.links)
	s.links = nil
	if s.filter != nil {
		s.filter.stop()
	}
	if s.cmd != nil {
		s.cmd.stop()
	}
	stopEvents(s.events, s.out)
	s.events = nil
	if s.printk != nil {
		s.printk.stop(printkDrain)
		s.printk = nil
	}
	if s.stacks != nil {
		s.stacks.sym.stop()
	}
	dumpMaps(s.spec, s.coll, s.opts, s.out, s.stacks)
	s.report()
}

// cleanup releases whatever an early return left behind.
func (s *session) cleanup() {
	if s.stacks != nil {
		s.stacks.sym.stop()
	}
	closeLinks(s.links)
	if s.filter != nil {
		s.filter.stop()
	}
	if s.cmd != nil {
		s.cmd.stop()
	}
	stopEvents(s.events, s.out)
	if s.printk != nil {
		s.printk.stop(0)
	}
}

// printVerifierLogs prints each program's verifier log and statistics (-v).
func printVerifierLogs(coll *ebpf.Collection, out *printer) {
	for _, name := range sortedKeys(coll.Programs) {
		p := coll.Programs[name]
		log := strings.TrimRight(p.VerifierLog, "\n\x00")
		out.diag("program %s: verifier log:\n%s", name, log)
		if info, err := p.Info(); err == nil {
			if n, ok := info.VerifiedInstructions(); ok {
				out.diag("program %s: %d instructions verified", name, n)
			}
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	return keys
}
