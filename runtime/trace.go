package runtime

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
	"golang.org/x/sys/unix"
)

// tracefs mount points, in the order they are tried.
var tracefsDirs = []string{"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}

var tracefsOnce = sync.OnceValues(func() (string, error) {
	for _, d := range tracefsDirs {
		if _, err := os.Stat(d + "/trace_pipe"); err == nil {
			return d, nil
		}
	}
	if err := unix.Mount("tracefs", tracefsDirs[0], "tracefs", 0, ""); err != nil {
		return "", fmt.Errorf("tracefs is not mounted and mounting it on %s failed: %w", tracefsDirs[0], classify(err))
	}
	return tracefsDirs[0], nil
})

// tracefsDir returns where tracefs is mounted, mounting it when it is not.
func tracefsDir() (string, error) { return tracefsOnce() }

// usesPrintk reports whether any program calls bpf_trace_printk or
// bpf_trace_vprintk, so that trace_pipe is only opened when needed.
func usesPrintk(spec *ebpf.CollectionSpec) bool {
	for _, ps := range spec.Programs {
		for _, ins := range ps.Instructions {
			if ins.IsBuiltinCall() && (ins.Constant == int64(asm.FnTracePrintk) || ins.Constant == int64(asm.FnTraceVprintk)) {
				return true
			}
		}
	}
	return false
}

// printkReader copies bpf_printk lines to the printer.
//
// bpf_trace_printk writes to the top-level trace buffer and also emits the
// trace event bpf_trace/bpf_trace_printk, which any tracefs instance can
// record. Each run makes its own instance (instances/bpfcc-PID-N), enables
// that event in it and reads the instance's trace_pipe: runs never compete
// for the top-level trace_pipe (which only one reader may hold: a second
// run got EBUSY) and never consume lines another reader of it is waiting
// for. The instance starts empty, so earlier lines are never shown. When
// the run traces one process with uprobes only, the instance records only
// events of that process and its children (set_event_pid, event-fork).
// What cannot be filtered: the event does not say which BPF program
// printed, so lines of other programs that print while this run does (and,
// without the process filter, from any process) are shown too.
//
// When tracefs has no instances, the reader falls back to the top-level
// trace_pipe, skipping the lines before a marker it writes to trace_marker;
// if another reader holds that trace_pipe, printk output is unavailable
// for this run (reported, never waited for).
//
// At stop the reader writes an end marker and reads up to it, so every
// line printed before the programs were detached is shown, then removes
// the instance.
type printkReader struct {
	dir    string // the instance (or tracefs) directory
	inst   bool   // dir is this run's instance, removed at stop
	f      *os.File
	start  string
	end    string
	done   chan struct{}
	output *printer
}

// instancePrefix names bpfcc's tracefs instances: bpfcc-PID-N.
const instancePrefix = "bpfcc-"

var instanceSeq atomic.Uint64

// printkEvent is the trace event bpf_trace_printk emits, relative to an
// instance's events directory.
const printkEvent = "bpf_trace/bpf_trace_printk"

// instanceBufferKB is the per-CPU buffer of a run's instance: printk lines
// are read as they come, so this only absorbs bursts.
const instanceBufferKB = 512

// startPrintk starts reading bpf_printk lines; pid, when not zero, limits
// them to that process and its children.
func startPrintk(out *printer, pid int) (*printkReader, error) {
	dir, err := tracefsDir()
	if err != nil {
		return nil, err
	}
	id := fmt.Sprintf("bpfcc-%d-%d", os.Getpid(), time.Now().UnixNano())
	r := &printkReader{start: id + "-start", end: id + "-end", done: make(chan struct{}), output: out}
	if inst, err := newInstance(dir, pid); err == nil {
		r.dir, r.inst = inst, true
	} else {
		r.dir = dir
	}
	r.f, err = os.Open(r.dir + "/trace_pipe")
	if err != nil {
		r.removeInstance()
		if errors.Is(err, unix.EBUSY) {
			return nil, fmt.Errorf("%s/trace_pipe is held by another reader, and this tracefs has no instances to read from", dir)
		}
		return nil, fmt.Errorf("open trace_pipe: %w", classify(err))
	}
	if !r.inst {
		if err := r.mark(r.start); err != nil {
			r.f.Close()
			return nil, err
		}
	}
	go r.loop()
	return r, nil
}

// newInstance makes this run's tracefs instance recording bpf_printk
// events (of process pid and its children when pid is not zero) and
// returns its directory. Instances that killed runs left behind are
// removed first.
func newInstance(tracefs string, pid int) (string, error) {
	base := tracefs + "/instances"
	removeStaleInstances(base)
	dir := fmt.Sprintf("%s/%s%d-%d", base, instancePrefix, os.Getpid(), instanceSeq.Add(1))
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", err
	}
	write := func(file, v string) error { return os.WriteFile(dir+"/"+file, []byte(v), 0) }
	err := write("buffer_size_kb", strconv.Itoa(instanceBufferKB))
	if err == nil && pid != 0 {
		if err = write("set_event_pid", strconv.Itoa(pid)); err == nil {
			err = write("options/event-fork", "1")
		}
	}
	if err == nil {
		err = write("events/"+printkEvent+"/enable", "1")
	}
	if err != nil {
		os.Remove(dir)
		return "", err
	}
	return dir, nil
}

// removeStaleInstances removes bpfcc instances whose process is gone (a
// run ended by SIGKILL cannot remove its own).
func removeStaleInstances(base string) {
	ents, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), instancePrefix)
		if !ok {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if err := unix.Kill(pid, 0); errors.Is(err, unix.ESRCH) {
			os.Remove(base + "/" + e.Name())
		}
	}
}

// removeInstance disables the event and removes the run's instance.
func (r *printkReader) removeInstance() {
	if !r.inst {
		return
	}
	os.WriteFile(r.dir+"/events/"+printkEvent+"/enable", []byte("0"), 0)
	for i := 0; i < 20; i++ {
		// rmdir fails with EBUSY while the instance's files are still
		// being released.
		if err := os.Remove(r.dir); err == nil || errors.Is(err, os.ErrNotExist) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (r *printkReader) mark(s string) error {
	if err := os.WriteFile(r.dir+"/trace_marker", []byte(s), 0); err != nil {
		return fmt.Errorf("write trace_marker: %w", err)
	}
	return nil
}

func (r *printkReader) loop() {
	defer close(r.done)
	sc := bufio.NewScanner(r.f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	started := r.inst
	for sc.Scan() {
		line := sc.Text()
		if strings.HasSuffix(line, r.start) {
			started = true
			continue
		}
		if strings.HasSuffix(line, r.end) {
			return
		}
		if !started {
			continue
		}
		if task, pid, msg, ok := parseTraceLine(line); ok {
			r.output.printk(task, pid, msg)
		}
	}
}

// stop drains the lines printed so far, closes trace_pipe and removes the
// instance; it waits at most timeout for the end marker.
func (r *printkReader) stop(timeout time.Duration) {
	if r.mark(r.end) == nil {
		select {
		case <-r.done:
		case <-time.After(timeout):
		}
	}
	r.f.Close()
	select {
	case <-r.done:
	case <-time.After(200 * time.Millisecond):
	}
	r.removeInstance()
}

// parseTraceLine splits a trace_pipe line such as
// "  app-1234  [002] d..31  567.89: bpf_trace_printk: hello 5"
// into the task name, its thread id and the message.
func parseTraceLine(line string) (task string, pid int, msg string, ok bool) {
	const tag = ": bpf_trace_printk: "
	i := strings.Index(line, tag)
	if i < 0 {
		return "", 0, "", false
	}
	msg = line[i+len(tag):]
	head := strings.TrimSpace(line[:i])
	if j := strings.Index(head, " ["); j >= 0 {
		head = strings.TrimSpace(head[:j])
	}
	if k := strings.LastIndexByte(head, '-'); k >= 0 {
		if n, err := strconv.Atoi(head[k+1:]); err == nil {
			return head[:k], n, msg, true
		}
	}
	return head, 0, msg, true
}
