package runtime

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
)

// gateScript holds the command until the probes are attached: the shell
// waits for fd 3 to close, then execs the command in the same process, so
// the PID the uprobes filter on is the command's.
const gateScript = `read _ <&3; exec 3<&-; exec "$@"`

// command is a traced command started by Run.
type command struct {
	cmd  *exec.Cmd
	gate *os.File
	done chan struct{}
	err  error
}

// startCommand starts argv held at the gate. A single argument with spaces
// is split on white space (-c 'CMD ARGS').
func startCommand(argv []string, opts *Options) (*command, error) {
	if len(argv) == 1 && strings.ContainsAny(argv[0], " \t") {
		argv = strings.Fields(argv[0])
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
	c := &command{cmd: cmd, gate: w, done: make(chan struct{})}
	go func() {
		c.err = cmd.Wait()
		close(c.done)
	}()
	return c, nil
}

// pid is the command's process id (the gate shell execs into the command).
func (c *command) pid() int { return c.cmd.Process.Pid }

// release lets the command run.
func (c *command) release() { c.gate.Close() }

// stop ends the command if it is still running: SIGTERM, then SIGKILL.
func (c *command) stop() {
	c.gate.Close()
	select {
	case <-c.done:
		return
	default:
	}
	c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.done:
	case <-timeAfter(killGrace):
		c.cmd.Process.Kill()
		<-c.done
	}
}
