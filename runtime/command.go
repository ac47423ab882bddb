package runtime

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// gateScript holds the command until the probes are attached: the shell
// waits for fd 3 to close, then execs the command in the same process, so
// the PID the uprobes filter on is the command's.
const gateScript = `read _ <&3; exec 3<&-; exec "$@"`

// command is a traced command started by Run.
type command struct {
	cmd      *exec.Cmd
	argv     []string
	path     string // the command's binary, found through $PATH
	gate     *os.File
	released bool
	stopped  bool // bpfcc signalled it (end of the run)
	done     chan struct{}
	err      error
}

// startCommand starts argv held at the gate. A single argument with spaces
// that is not an existing file is a command line, split by SplitCommand.
func startCommand(argv []string, opts *Options) (*command, error) {
	if len(argv) == 1 && strings.ContainsAny(argv[0], " \t\n") {
		if _, err := os.Stat(argv[0]); err != nil {
			words, err := SplitCommand(argv[0])
			if err != nil {
				return nil, fmt.Errorf("%w: %w", ErrCommand, err)
			}
			argv = words
		}
	}
	if len(argv) == 0 {
		return nil, fmt.Errorf("%w: empty command", ErrCommand)
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCommand, err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCommand, err)
	}
	defer r.Close()
	cmd := exec.Command("/bin/sh", append([]string{"-c", gateScript, "sh", path}, argv[1:]...)...)
	cmd.Stdin = os.Stdin
	cmd.Stdout = opts.CommandStdout
	cmd.Stderr = opts.CommandStderr
	if cmd.Stdout == nil {
		cmd.Stdout = os.Stdout
	}
	if cmd.Stderr == nil {
		cmd.Stderr = os.Stderr
	}
	cmd.ExtraFiles = []*os.File{r}
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil, fmt.Errorf("%w: %w", ErrCommand, err)
	}
	c := &command{cmd: cmd, argv: argv, path: path, gate: w, done: make(chan struct{})}
	go func() {
		c.err = cmd.Wait()
		close(c.done)
	}()
	return c, nil
}

// pid is the command's process id (the gate shell execs into the command).
func (c *command) pid() int { return c.cmd.Process.Pid }

// release lets the command run.
func (c *command) release() {
	c.released = true
	c.gate.Close()
}

// stop ends the command if it is still running: SIGTERM, then SIGKILL. A
// command still held at the gate is killed there and never runs.
func (c *command) stop() {
	if !c.released {
		c.cmd.Process.Kill()
	}
	c.gate.Close()
	select {
	case <-c.done:
		return
	default:
	}
	c.stopped = true
	c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.done:
	case <-timeAfter(killGrace):
		c.cmd.Process.Kill()
		<-c.done
	}
}

// failure reports how a command that ended on its own failed: a non-zero
// exit status or a signal; nil when it succeeded or bpfcc stopped it.
func (c *command) failure() error {
	if c.stopped || c.err == nil {
		return nil
	}
	ps := c.cmd.ProcessState
	if ps == nil {
		return nil
	}
	e := &CommandError{Command: strings.Join(c.argv, " "), Status: ps.ExitCode()}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		e.Signal = ws.Signal()
	}
	if e.Status == 0 && e.Signal == 0 {
		return nil
	}
	return e
}

// CommandError reports a traced command that failed on its own: it
// exited with a non-zero status or was killed by a signal. Run returns it
// after the results are printed.
type CommandError struct {
	Command string
	Status  int            // exit status; -1 when killed by a signal
	Signal  syscall.Signal // the signal that killed it, or 0
}

func (e *CommandError) Error() string {
	if e.Signal != 0 {
		return fmt.Sprintf("the traced command %q was killed by %s", e.Command, unix.SignalName(e.Signal))
	}
	return fmt.Sprintf("the traced command %q exited with status %d", e.Command, e.Status)
}

// ExitCode is the status a shell reports for the command: its exit
// status, or 128 plus the signal that killed it.
func (e *CommandError) ExitCode() int {
	if e.Signal != 0 {
		return 128 + int(e.Signal)
	}
	return e.Status
}

// SplitCommand splits a command line into words as a shell does for simple
// commands, without running one: words are separated by blanks; 'single
// quotes' keep everything literally; in "double quotes" a backslash
// escapes " \\ $ or ` ; outside quotes a backslash keeps the next
// character. Nothing is expanded: an unquoted |, &, ;, <, >, (, ), $ or `
// (or $ or ` in double quotes) is an error that says so, as is an
// unterminated quote.
func SplitCommand(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '\'':
			j := i + 1
			for j < len(rs) && rs[j] != '\'' {
				j++
			}
			if j == len(rs) {
				return nil, fmt.Errorf("command %q: unterminated ' quote", line)
			}
			w.WriteString(string(rs[i+1 : j]))
			inWord, i = true, j
		case c == '"':
			j := i + 1
			for ; j < len(rs) && rs[j] != '"'; j++ {
				if rs[j] == '\\' && j+1 < len(rs) && strings.ContainsRune("\"\\$`", rs[j+1]) {
					j++
				} else if rs[j] == '$' || rs[j] == '`' {
					return nil, fmt.Errorf("command %q: %q needs a shell, and the command is run without one: quote it with ', or run the shell yourself (-c \"sh -c '...'\")", line, rs[j])
				}
				w.WriteRune(rs[j])
			}
			if j == len(rs) {
				return nil, fmt.Errorf("command %q: unterminated \" quote", line)
			}
			inWord, i = true, j
		case c == '\\':
			if i+1 < len(rs) {
				i++
				if rs[i] != '\n' {
					w.WriteRune(rs[i])
				}
			}
			inWord = true
		case strings.ContainsRune("|&;<>()$`", c):
			return nil, fmt.Errorf("command %q: %q needs a shell, and the command is run without one: quote it, or run the shell yourself (-c \"sh -c '...'\")", line, c)
		default:
			w.WriteRune(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}
