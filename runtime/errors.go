package runtime

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/cilium/ebpf/link"
	"golang.org/x/sys/unix"
)

// Categories of failure. Every error Run returns wraps exactly one of them, so
// the driver can pick an exit status with errors.Is.
var (
	// ErrLoad means the object could not be loaded into the kernel.
	ErrLoad = errors.New("load failed")
	// ErrAttach means a program could not be attached.
	ErrAttach = errors.New("attach failed")
	// ErrCommand means the traced command could not be started.
	ErrCommand = errors.New("command failed")
	// ErrInterrupted means ctx ended, or SIGINT or SIGTERM arrived, before
	// the probes were attached: nothing was traced, and everything the
	// run had set up is gone.
	ErrInterrupted = errors.New("interrupted before the probes were attached")
)

// Causes that get a sentence telling the user what to do. They are wrapped
// together with a category.
var (
	// ErrPermission: the kernel refused bpf() or perf_event_open().
	ErrPermission = errors.New("permission denied")
	// ErrNoKprobes: the kernel was built without CONFIG_KPROBES.
	ErrNoKprobes = errors.New("kernel has no kprobe support")
	// ErrNoBinary: the binary named by a uprobe does not exist.
	ErrNoBinary = errors.New("binary not found")
	// ErrNeedBinary: a uprobe's probe names a function but no binary.
	ErrNeedBinary = errors.New("the uprobe names no binary")
	// ErrRefused: the kernel answered EPERM although bpfcc holds the
	// capabilities it needs: a security policy forbids the program or
	// attachment (kernel lockdown, an LSM).
	ErrRefused = errors.New("refused by the kernel's security policy")
	// ErrNoTracepoint: the tracepoint a program names does not exist.
	ErrNoTracepoint = errors.New("no such tracepoint")
	// ErrNoKernelFunc: the kernel function or LSM hook a program names
	// does not exist (in the kernel's BTF).
	ErrNoKernelFunc = errors.New("no such kernel function")
	// ErrNoSymbol: the function named by a uprobe is not in the binary.
	ErrNoSymbol = errors.New("symbol not found")
	// ErrMemlock: the locked-memory limit is too low.
	ErrMemlock = errors.New("locked-memory limit too low")
	// ErrNoTarget: a program's section names no attach point and none was given.
	ErrNoTarget = errors.New("no attach point")
	// ErrSection: a program's section name is not one the runtime can attach.
	ErrSection = errors.New("unsupported section")
	// ErrNoInterface: an XDP or TC program needs a network interface.
	ErrNoInterface = errors.New("no network interface")
	// ErrBTF: the kernel rejected the object's BTF (its type information).
	ErrBTF = errors.New("the kernel rejected the object's BTF (type information)")
	// ErrVerifier: the verifier rejected a program (see *VerifierReport).
	ErrVerifier = errors.New("rejected by the verifier")
)

// hints holds one sentence per cause, in the order Hint checks them.
var hints = []struct {
	err  error
	text string
}{
	{ErrNoKprobes, "this kernel was built without kprobes (CONFIG_KPROBES is not set): use a tracepoint (tp/CAT/NAME), a raw tracepoint (raw_tp/NAME) or a uprobe instead"},
	{ErrRefused, "a security policy of this machine (kernel lockdown, or a security module such as the BPF LSM) forbids it; use another kind of program: a tracepoint (tp/CAT/NAME), tp_btf/NAME or raw_tp/NAME instead of fentry/fexit"},
	{ErrNoTracepoint, "the kernel's tracepoints are listed in available_events in tracefs (/sys/kernel/tracing) as CAT:NAME; name one as tp/CAT/NAME (raw_tp/NAME and tp_btf/NAME take the NAME)"},
	{ErrNoKernelFunc, "fentry, fexit and fmod_ret attach to kernel functions the kernel's BTF lists (bpftool btf dump file /sys/kernel/btf/vmlinux | grep FUNC), lsm/ to LSM hooks (bpf_lsm_HOOK)"},
	{ErrPermission, "run as root, or give the binary CAP_BPF and CAP_PERFMON (plus CAP_NET_ADMIN for XDP/TC): sudo setcap cap_bpf,cap_perfmon,cap_net_admin+ep ./bpfcc"},
	{ErrMemlock, "raise the locked-memory limit (ulimit -l unlimited) or run as root; kernels before 5.11 charge BPF maps to RLIMIT_MEMLOCK"},
	{ErrNeedBinary, "add -x BINARY, the program whose function the uprobe probes (or write the probe as BINARY:FUNC)"},
	{ErrNoBinary, "check the binary path in the probe (use an absolute path, or a name found in $PATH)"},
	{ErrNoSymbol, "check the function name: it must be a function symbol of the binary (nm -D or nm BINARY lists them); stripped binaries need an address (BINARY:0xOFFSET)"},
	{ErrNoTarget, "name the attach point in the section (SEC(\"uprobe//path/bin:func\")) or with --load PROBE"},
	{ErrNoInterface, "give the network interface with --iface NAME"},
	{ErrBTF, "the object's .BTF section is damaged or uses what this kernel's BTF checker refuses (the reason names the type); rebuild the object, or look at it with bpftool btf dump file OBJECT"},
	{ErrVerifier, "the report above shows the instruction the verifier refused and its source line"},
}

// Hint returns a sentence telling the user how to fix err, or "" when err has
// no known cause.
func Hint(err error) string {
	var r *VerifierReport
	if errors.As(err, &r) {
		if a := r.Advice(); a != "" {
			return a
		}
	}
	for _, h := range hints {
		if errors.Is(err, h.err) {
			return h.text
		}
	}
	return ""
}

// Describe renders err for a terminal: the error and, when known, a line
// with what to do about it.
func Describe(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	for _, advice := range ciliumAdvice {
		s = strings.ReplaceAll(s, advice, "")
	}
	if h := Hint(err); h != "" {
		s += "\nhint: " + h
	}
	return s
}

// classify wraps a kernel error with the cause a user can act on, when there
// is one.
func classify(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.EPERM) && hasBPFCaps() && memlockLimited && strings.Contains(err.Error(), "MEMLOCK"):
		return fmt.Errorf("%w: %w", ErrMemlock, err)
	case errors.Is(err, unix.EPERM) && hasBPFCaps():
		return &refusedError{cause: err, policy: securityPolicy()}
	case errors.Is(err, unix.EPERM):
		return fmt.Errorf("%w: %w", ErrPermission, err)
	case errors.Is(err, link.ErrNoSymbol):
		return fmt.Errorf("%w: %w", ErrNoSymbol, err)
	case errors.Is(err, os.ErrNotExist) && strings.Contains(err.Error(), "executable"):
		return fmt.Errorf("%w: %w", ErrNoBinary, err)
	}
	return err
}

// refusedError is an EPERM that capabilities do not explain.
type refusedError struct {
	cause  error
	policy string
}

func (e *refusedError) Error() string {
	what := e.cause.Error()
	for _, advice := range ciliumAdvice {
		what = strings.ReplaceAll(what, advice, "")
	}
	what = strings.TrimSuffix(what, ": operation not permitted")
	return what + ": operation not permitted, although bpfcc runs with the capabilities BPF needs" + e.policy
}

func (e *refusedError) Unwrap() []error { return []error{ErrRefused, e.cause} }

// ciliumAdvice is advice in cilium/ebpf's errors meant for Go callers
// (rlimit.RemoveMemlock, whose work bpfcc already does; LogSizeStart): a person
// at a terminal gets a hint instead.
var ciliumAdvice = []string{" (MEMLOCK may be too low, consider rlimit.RemoveMemlock)", " (hit verifier bug, increase LogSizeStart to fit the log and check dmesg)"}

// memlockLimited is set when removing RLIMIT_MEMLOCK failed. Kernels from
// 5.11 on charge BPF memory to the memory cgroup, and there removing the
// limit succeeds without changing it: EPERM is then never the limit.
var memlockLimited bool

// securityPolicy describes what may forbid BPF on this machine although
// bpfcc has the capabilities: kernel lockdown and the active LSMs, as far
// as securityfs shows them (", kernel lockdown: integrity; LSMs: ...").
func securityPolicy() string {
	var parts []string
	if b, err := os.ReadFile("/sys/kernel/security/lockdown"); err == nil {
		if i, j := strings.IndexByte(string(b), '['), strings.IndexByte(string(b), ']'); i >= 0 && j > i {
			parts = append(parts, "kernel lockdown: "+string(b)[i+1:j])
		}
	}
	if b, err := os.ReadFile("/sys/kernel/security/lsm"); err == nil && len(strings.TrimSpace(string(b))) > 0 {
		parts = append(parts, "security modules: "+strings.TrimSpace(string(b)))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// hasBPFCaps reports whether this process holds CAP_BPF or CAP_SYS_ADMIN
// in its effective set; without them EPERM means privileges, not memlock.
func hasBPFCaps() bool {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return os.Geteuid() == 0
	}
	has := func(c uint) bool { return data[c/32].Effective&(1<<(c%32)) != 0 }
	return has(unix.CAP_BPF) || has(unix.CAP_SYS_ADMIN)
}
