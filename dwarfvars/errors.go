package dwarfvars

import (
	"debug/dwarf"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Sentinel errors; every typed error below matches one of them with
// errors.Is so callers can classify without a type switch.
var (
	ErrNoDWARF      = errors.New("no DWARF debug info")
	ErrNotFound     = errors.New("not found")
	ErrNoCode       = errors.New("no code at line")
	ErrBadOffset    = errors.New("offset not on an instruction boundary")
	ErrOptimizedOut = errors.New("optimized out")
	ErrUnsupported  = errors.New("unsupported")
	ErrMalformed    = errors.New("malformed debug info")
)

// NoDWARFError says a binary has no usable debug info.
type NoDWARFError struct {
	Path string
	// Tried lists separate debug files that were looked for.
	Tried []string
}

func (e *NoDWARFError) Error() string {
	return fmt.Sprintf("%s has no DWARF debug info; rebuild with -g or install its debug file", e.Path)
}

// Is makes errors.Is(err, ErrNoDWARF) work.
func (e *NoDWARFError) Is(t error) bool { return t == ErrNoDWARF }

// ProbeNotFoundError says a probe's function or file is unknown.
type ProbeNotFoundError struct {
	Probe string
	// What is "function" or "file".
	What, Name string
	// Suggestions are close names that do exist, best first.
	Suggestions []string
	// InlinedCopies counts the inlined copies of a function that has no
	// out-of-line copy (a return probe has nothing to return from).
	InlinedCopies int
}

func (e *ProbeNotFoundError) Error() string {
	if e.InlinedCopies > 0 {
		copies := "1 place"
		if e.InlinedCopies > 1 {
			copies = fmt.Sprintf("%d places", e.InlinedCopies)
		}
		return fmt.Sprintf("probe %s: %s %q is only inlined (at %s) and has no out-of-line copy to return from; probe its lines instead (FILE.c:LINE, or %s:RLN with RLN counted from its declaration; %s alone probes the start of every inlined copy)",
			e.Probe, e.What, e.Name, copies, e.Name, e.Name)
	}
	s := fmt.Sprintf("probe %s: %s %q not found", e.Probe, e.What, e.Name)
	if len(e.Suggestions) > 0 {
		s += "; did you mean " + strings.Join(e.Suggestions, ", ") + "?"
	}
	return s
}

// Is makes errors.Is(err, ErrNotFound) work.
func (e *ProbeNotFoundError) Is(t error) bool { return t == ErrNotFound }

// AmbiguousFuncError says a FUNC+OFF names several functions (static
// functions of one name in several compile units): an offset is an
// instruction of one of them only.
type AmbiguousFuncError struct {
	Probe, Func string
	// Units are the compile units defining Func; Alternatives the probes
	// that name each copy.
	Units, Alternatives []string
}

func (e *AmbiguousFuncError) Error() string {
	return fmt.Sprintf("probe %s: %d functions are named %q (in %s): an offset is specific to one of them; say which with %s",
		e.Probe, len(e.Units), e.Func, strings.Join(e.Units, ", "), strings.Join(e.Alternatives, " or "))
}

// NoCodeError says a source line has no instructions.
type NoCodeError struct {
	Probe string
	File  string
	Line  int
	// Nearest lists the closest lines of the same file (or function) that
	// have code.
	Nearest []int
}

func (e *NoCodeError) Error() string {
	s := fmt.Sprintf("probe %s: no code at %s:%d", e.Probe, e.File, e.Line)
	if len(e.Nearest) > 0 {
		s += "; nearest lines with code: " + joinInts(e.Nearest)
	}
	return s
}

// Is makes errors.Is(err, ErrNoCode) work.
func (e *NoCodeError) Is(t error) bool { return t == ErrNoCode }

// BadOffsetError says FUNC+OFF falls inside an instruction or outside the
// function. Prev and Next are the neighbouring instruction boundaries.
type BadOffsetError struct {
	Probe      string
	Func       string
	Offset     uint64
	Prev, Next uint64
	Outside    bool
}

func (e *BadOffsetError) Error() string {
	if e.Outside {
		return fmt.Sprintf("probe %s: offset %#x is outside function %s", e.Probe, e.Offset, e.Func)
	}
	return fmt.Sprintf("probe %s: offset %#x is inside an instruction of %s (instructions start at +%#x and +%#x)",
		e.Probe, e.Offset, e.Func, e.Prev, e.Next)
}

// Is makes errors.Is(err, ErrBadOffset) work.
func (e *BadOffsetError) Is(t error) bool { return t == ErrBadOffset }

// VarNotFoundError says no variable of that name is visible at the site.
type VarNotFoundError struct {
	Site    string
	Name    string
	Visible []string
}

func (e *VarNotFoundError) Error() string {
	s := fmt.Sprintf("%s: no variable %q visible", e.Site, e.Name)
	if len(e.Visible) > 0 {
		s += "; visible: " + strings.Join(e.Visible, ", ")
	}
	return s
}

// Is makes errors.Is(err, ErrNotFound) work.
func (e *VarNotFoundError) Is(t error) bool { return t == ErrNotFound }

// OptimizedOutError says a variable has no location at the site.
type OptimizedOutError struct {
	Site, Var string
	// Lines lists the lines of the function where the variable has a
	// location (empty when it has none anywhere).
	Lines []int
	// OtherLines lists where it has a location in code inlined from other
	// files ("stdlib.h:364").
	OtherLines []string
	// Reason replaces the generic explanation when set.
	Reason string
	// Line is the site's own line, 0 when unknown. When Lines holds it,
	// the variable has a location at other instructions of that line,
	// not at the site's.
	Line int
	// Here are those instructions as FUNC+OFF probes, where known.
	Here []string
}

func (e *OptimizedOutError) Error() string {
	s := fmt.Sprintf("%s: %s is optimized out here", e.Site, e.Var)
	if e.Reason != "" {
		return fmt.Sprintf("%s: %s is not available here: %s", e.Site, e.Var, e.Reason)
	}
	if a := e.available(); a != "" {
		s += "; it is available at " + a
	} else {
		s += " and has no location anywhere in the function"
	}
	return s
}

// Is makes errors.Is(err, ErrOptimizedOut) work.
func (e *OptimizedOutError) Is(t error) bool { return t == ErrOptimizedOut }

// UnsupportedError says a location cannot be read by a probe program: a
// DWARF op not lowered, a value in an XMM register, and the like.
type UnsupportedError struct {
	Site, Var string
	// Op names the DWARF operation (DW_OP_xxx) when one is at fault.
	Op string
	// Reg names the register (xmm0...) when the value lives where pt_regs
	// cannot reach.
	Reg    string
	Reason string
}

func (e *UnsupportedError) Error() string {
	var what string
	switch {
	case e.Reg != "":
		what = fmt.Sprintf("is in register %s, which a probe cannot read", e.Reg)
	case e.Op != "":
		what = fmt.Sprintf("uses %s, which bpfcc does not lower", e.Op)
	default:
		what = e.Reason
	}
	if e.Reason != "" && (e.Reg != "" || e.Op != "") {
		what += " (" + e.Reason + ")"
	}
	return fmt.Sprintf("%s: %s %s", prefixSite(e.Site), e.Var, what)
}

// Is makes errors.Is(err, ErrUnsupported) work.
func (e *UnsupportedError) Is(t error) bool { return t == ErrUnsupported }

// ImplicitPointerError is a pointer variable with no value of its own
// (DW_OP_implicit_pointer: the optimiser removed it): what it points to is
// the variable at DIE Target, Offset bytes in, which a binding reads
// through it (gdb's <synthetic pointer>).
type ImplicitPointerError struct {
	Site, Var string
	Target    dwarf.Offset
	Offset    int64
}

func (e *ImplicitPointerError) Error() string {
	return fmt.Sprintf("%s: %s is a pointer the optimiser removed (DW_OP_implicit_pointer): it has no value, what it points to does (%s->m, %s[0], *%s)",
		prefixSite(e.Site), e.Var, e.Var, e.Var, e.Var)
}

// Is makes errors.Is(err, ErrUnsupported) work.
func (e *ImplicitPointerError) Is(t error) bool { return t == ErrUnsupported }

// PathError says a binding path does not fit the variable's type.
type PathError struct {
	Site, Expr string
	Reason     string
	// Err is the underlying error, if any (*OpaqueTypeError).
	Err error
}

// Unwrap returns the underlying error.
func (e *PathError) Unwrap() error { return e.Err }

func (e *PathError) Error() string {
	return fmt.Sprintf("%s: %s: %s", prefixSite(e.Site), e.Expr, e.Reason)
}

// Is makes errors.Is(err, ErrNotFound) work for missing members.
func (e *PathError) Is(t error) bool { return t == ErrNotFound }

func prefixSite(s string) string {
	if s == "" {
		return "dwarfvars"
	}
	return s
}

func joinInts(v []int) string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = fmt.Sprint(n)
	}
	return strings.Join(parts, ", ")
}

// malformed wraps a lower-level failure reading debug info.
func malformed(what string, err error) error {
	return fmt.Errorf("%s: %w: %v", what, ErrMalformed, err)
}

// editDistance is the Levenshtein distance, used to suggest names.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// suggest returns up to 5 names close to name.
func suggest(name string, names []string) []string {
	type cand struct {
		s string
		d int
	}
	var cs []cand
	seen := map[string]bool{}
	limit := max(2, len(name)/3)
	for _, n := range names {
		if seen[n] || n == "" {
			continue
		}
		seen[n] = true
		d := editDistance(name, n)
		if strings.Contains(n, name) || strings.Contains(name, n) && len(n) > 2 {
			d = min(d, 1)
		}
		if d <= limit {
			cs = append(cs, cand{n, d})
		}
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].d < cs[j].d || cs[i].d == cs[j].d && cs[i].s < cs[j].s })
	var out []string
	for i := 0; i < len(cs) && i < 5; i++ {
		out = append(out, cs[i].s)
	}
	return out
}

// available renders where the variable has a location: "lines 6, 8 (and
// stdlib.h:364)", or "" when nowhere.
func (e *OptimizedOutError) available() string {
	var s string
	var others []int
	here := false
	for _, l := range e.Lines {
		if l == e.Line && l != 0 {
			here = true
		} else {
			others = append(others, l)
		}
	}
	switch {
	case len(others) == 1:
		s = fmt.Sprintf("line %d", others[0])
	case len(others) > 1:
		s = "lines " + joinInts(others)
	}
	if here {
		// Not "line 29" when the probe is at line 29: the value exists at
		// other instructions of this line, not at the probe's.
		if s != "" {
			s += ", and "
		}
		s += fmt.Sprintf("other instructions of line %d (this probe's line)", e.Line)
		if len(e.Here) > 0 {
			s += fmt.Sprintf(": probe %s to read it there", strings.Join(e.Here, " or "))
		}
	}
	if len(e.OtherLines) > 0 {
		o := strings.Join(e.OtherLines, ", ")
		if s == "" {
			return o
		}
		s += " (and " + o + ")"
	}
	return s
}
