package runtime

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
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

// printkReader copies bpf_printk lines from trace_pipe to the printer.
// trace_pipe is shared by the whole system: to print only this run's lines it
// writes a unique marker to trace_marker at start and skips everything
// before it; at stop it writes a second marker and reads up to it, so every
// line the programs printed before they were detached is shown.
type printkReader struct {
	dir    string
	f      *os.File
	start  string
	end    string
	done   chan struct{}
	output *printer
}

func startPrintk(out *printer) (*printkReader, error) {
	dir, err := tracefsDir()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(dir + "/trace_pipe")
	if err != nil {
		return nil, fmt.Errorf("open trace_pipe: %w", classify(err))
	}
	id := fmt.Sprintf("bpfcc-%d-%d", os.Getpid(), time.Now().UnixNano())
	r := &printkReader{dir: dir, f: f, start: id + "-start", end: id + "-end", done: make(chan struct{}), output: out}
	if err := r.mark(r.start); err != nil {
		f.Close()
		return nil, err
	}
	go r.loop()
	return r, nil
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
	started := false
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

// stop drains the lines printed so far and closes trace_pipe; it waits at
// most timeout for the end marker.
func (r *printkReader) stop(timeout time.Duration) {
	if r.mark(r.end) == nil {
		select {
		case <-r.done:
		case <-time.After(timeout):
		}
	}
	r.f.Close()
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
