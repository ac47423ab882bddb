package runtime

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
)

// logTailLines is how much of the verifier log a rejection report shows.
const logTailLines = 12

// VerifierReport describes a program the kernel's verifier rejected. It is
// the error Run returns (wrapped with ErrLoad) in that case.
type VerifierReport struct {
	Program     string   // program (function) name
	Reason      string   // the verifier's reason, e.g. "R0 invalid mem access 'map_value_or_null'"
	Insn        int      // index of the failing instruction (8-byte slots), -1 when unknown
	Instruction string   // the failing instruction as the verifier printed it
	File        string   // source file of the failing instruction, "" when unknown
	Line        int      // source line, 0 when unknown
	Column      int      // source column, 0 when unknown
	SourceLine  string   // text of the source line, "" when unavailable
	Log         []string // the whole verifier log
	Cause       error    // the error from the kernel
}

// Error formats the report over several lines: what was rejected and why,
// where in the source, the source line, and the tail of the verifier log.
func (r *VerifierReport) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "program %s rejected by the verifier: %s", r.Program, r.Reason)
	if r.Insn >= 0 {
		fmt.Fprintf(&b, "\n  at instruction %d: %s", r.Insn, r.Instruction)
	}
	if r.File != "" {
		fmt.Fprintf(&b, "\n  %s:%d", r.File, r.Line)
		if r.Column > 0 {
			fmt.Fprintf(&b, ":%d", r.Column)
		}
		if r.SourceLine != "" {
			fmt.Fprintf(&b, "\n  %5d | %s", r.Line, strings.TrimRight(r.SourceLine, " \t"))
		}
	}
	if tail := r.LogTail(); len(tail) > 0 {
		fmt.Fprintf(&b, "\n  verifier log (last %d lines):", len(tail))
		for _, l := range tail {
			b.WriteString("\n    " + l)
		}
	}
	return b.String()
}

// Unwrap returns ErrVerifier and the kernel's error.
func (r *VerifierReport) Unwrap() []error { return []error{ErrVerifier, r.Cause} }

// LogTail returns the last lines of the log.
func (r *VerifierReport) LogTail() []string {
	return r.Log[max(0, len(r.Log)-logTailLines):]
}

// load creates the collection: maps, then programs with the verifier log off.
// Only when the kernel rejects a program is it loaded again with the log on,
// to build a VerifierReport. With verbose the log is on from the start.
func load(spec *ebpf.CollectionSpec, opts *Options) (*ebpf.Collection, error) {
	co := ebpf.CollectionOptions{Programs: ebpf.ProgramOptions{LogDisabled: true}, Maps: ebpf.MapOptions{PinPath: opts.PinPath}}
	if opts.Verbose {
		co.Programs = ebpf.ProgramOptions{LogLevel: ebpf.LogLevelInstruction | ebpf.LogLevelStats, LogSizeStart: 1 << 20}
	}
	coll, err := ebpf.NewCollectionWithOptions(spec, co)
	if err == nil {
		return coll, nil
	}
	if !opts.Verbose && isProgramError(err) {
		co.Programs = ebpf.ProgramOptions{LogLevel: ebpf.LogLevelBranch, LogSizeStart: 1 << 20}
		var coll2 *ebpf.Collection
		coll2, err = ebpf.NewCollectionWithOptions(spec, co)
		if err == nil {
			// Loaded with the log on: the first failure was transient.
			return coll2, nil
		}
	}
	var ve *ebpf.VerifierError
	if errors.As(err, &ve) && strings.Contains(err.Error(), "load BTF: ") {
		return nil, fmt.Errorf("%w: %w", ErrLoad, btfRejection(err, ve))
	}
	if errors.As(err, &ve) {
		r := newReport(spec, programOf(err), ve, opts.SourcePath)
		return nil, fmt.Errorf("%w: %w", ErrLoad, r)
	}
	return nil, fmt.Errorf("%w: %w", ErrLoad, classify(err))
}

// btfRejection describes the kernel refusing the object's BTF, which
// happens before any program reaches the verifier: the kernel's reason is
// the last line of the BTF log ("[1] FUNC o_work type_id=6 Invalid name").
func btfRejection(err error, ve *ebpf.VerifierError) error {
	what := ""
	if p := programOf(err); p != "" {
		what = " (loading program " + p + ")"
	} else if m, ok := strings.CutPrefix(err.Error(), "map "); ok {
		name, _, _ := strings.Cut(m, ":")
		what = " (creating map " + name + ")"
	}
	reason := ""
	for i := len(ve.Log) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(ve.Log[i]); l != "" {
			reason = l
			break
		}
	}
	if reason == "" && ve.Cause != nil {
		reason = ve.Cause.Error()
	}
	return fmt.Errorf("%w%s: %s", ErrBTF, what, reason)
}

func isProgramError(err error) bool { return strings.HasPrefix(err.Error(), "program ") }

// programOf extracts the program name from cilium/ebpf's "program NAME: ..." wrapping.
func programOf(err error) string {
	s, ok := strings.CutPrefix(err.Error(), "program ")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(s, ":")
	return name
}

var (
	insnLine   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d+): \([0-9a-f]{2}\) (.*)$`) })
	linfoLine  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^; (.*) @ (.+):(\d+)$`) })
	summaryPfx = []string{"processed ", "verification time", "stack depth", "-- END PROG LOAD LOG --", "mark_precise"}
)

func isSummary(l string) bool {
	for _, p := range summaryPfx {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return strings.TrimSpace(l) == ""
}

// newReport builds a VerifierReport from the log: the last instruction the
// verifier printed is the one it refused, and the lines after it give the
// reason. The source position comes from the line annotations the kernel
// prints when the program carries BTF line info, or else from the spec's own
// line info.
func newReport(spec *ebpf.CollectionSpec, prog string, ve *ebpf.VerifierError, sourcePath string) *VerifierReport {
	r := &VerifierReport{Program: prog, Insn: -1, Log: ve.Log, Cause: ve.Cause}
	last := -1
	for i, l := range ve.Log {
		if m := insnLine().FindStringSubmatch(l); m != nil {
			last = i
			r.Insn, _ = strconv.Atoi(m[1])
			r.Instruction = m[2]
		}
	}
	var reason []string
	for _, l := range ve.Log[last+1:] {
		if !isSummary(l) && !linfoLine().MatchString(l) {
			reason = append(reason, strings.TrimSpace(l))
		}
	}
	if len(reason) == 0 && last < 0 {
		for i := len(ve.Log) - 1; i >= 0; i-- {
			if !isSummary(ve.Log[i]) {
				reason = []string{ve.Log[i]}
				break
			}
		}
	}
	r.Reason = strings.Join(reason, "; ")
	if r.Reason == "" && ve.Cause != nil {
		r.Reason = ve.Cause.Error()
	}
	for i := last; i >= 0; i-- {
		if m := linfoLine().FindStringSubmatch(ve.Log[i]); m != nil {
			r.SourceLine, r.File = m[1], m[2]
			r.Line, _ = strconv.Atoi(m[3])
			break
		}
	}
	if ps := spec.Programs[prog]; ps != nil {
		if r.File == "" && r.Insn >= 0 {
			r.locate(ps.Instructions)
		} else if r.File != "" {
			r.File = recordedPath(ps.Instructions, r.File, r.Line)
		}
	}
	if r.File != "" {
		if text, ok := readSourceLine(r.File, sourcePath, r.Line); ok {
			r.SourceLine = text
		}
	}
	return r
}

// lineSource is what *btf.Line offers; any instruction source with these
// methods gives a position.
type lineSource interface {
	FileName() string
	LineNumber() uint32
}

// locate finds the source position of instruction slot r.Insn in insns: the
// nearest instruction at or before it that carries line info.
func (r *VerifierReport) locate(insns asm.Instructions) {
	var pos lineSource
	off := 0
	for _, ins := range insns {
		if off > r.Insn {
			break
		}
		if ls, ok := ins.Source().(lineSource); ok && ls.FileName() != "" {
			pos = ls
		}
		off += int(ins.Size() / asm.InstructionSize)
	}
	if pos == nil || off <= r.Insn {
		return
	}
	r.File, r.Line = pos.FileName(), int(pos.LineNumber())
	if c, ok := pos.(interface{ LineColumn() uint32 }); ok {
		r.Column = int(c.LineColumn())
	}
	if t, ok := pos.(interface{ Line() string }); ok {
		r.SourceLine = t.Line()
	}
}

// recordedPath gives the path the object records for file, which the
// kernel's log shortens to its base name ("inc/helper.h" logs as
// "helper.h"): the path of a line-info entry at the same line whose base
// name matches, or file itself.
func recordedPath(insns asm.Instructions, file string, line int) string {
	for _, ins := range insns {
		ls, ok := ins.Source().(lineSource)
		if ok && int(ls.LineNumber()) == line && ls.FileName() != file && filepath.Base(ls.FileName()) == file {
			return ls.FileName()
		}
	}
	return file
}

// readSourceLine reads line n of file, trying the name the object records
// and then sourcePath when its base name matches (objects often record a
// relative path).
func readSourceLine(file, sourcePath string, n int) (string, bool) {
	candidates := []string{file}
	if sourcePath != "" && (filepath.Base(sourcePath) == filepath.Base(file) || file == "") {
		candidates = append([]string{sourcePath}, candidates...)
	}
	for _, c := range candidates {
		f, err := os.Open(c)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for i := 1; sc.Scan(); i++ {
			if i == n {
				f.Close()
				return sc.Text(), true
			}
		}
		f.Close()
	}
	return "", false
}
