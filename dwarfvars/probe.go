package dwarfvars

import (
	"fmt"
	"strconv"
	"strings"
)

// ProbeKind is the form of a probe spec.
type ProbeKind uint8

// Probe spec forms, in perf-probe syntax.
const (
	ProbeFunc       ProbeKind = iota // FUNC (or FUNC%return)
	ProbeFuncOffset                  // FUNC+OFF
	ProbeFuncLine                    // FUNC:RLN, line relative to the declaration
	ProbeFileLine                    // FILE:LINE
)

// Probe is a parsed probe spec.
type Probe struct {
	// Spec is the text as given.
	Spec string
	// Binary is the BINARY: prefix, empty when absent.
	Binary string
	Kind   ProbeKind
	Func   string
	// Src is the @SRC of FUNC@SRC[...]: the function of that name whose
	// compile unit or declaration file has this path suffix (static
	// functions of the same name in several compile units).
	Src  string
	File string
	// Offset is the byte offset of FUNC+OFF.
	Offset uint64
	// Line is the relative line of FUNC:RLN or the line of FILE:LINE.
	Line int
	// Return is set for FUNC%return.
	Return bool
}

// String formats the probe without the binary prefix.
func (p Probe) String() string {
	fn := p.Func
	if p.Src != "" {
		fn += "@" + p.Src
	}
	switch p.Kind {
	case ProbeFuncOffset:
		return fmt.Sprintf("%s+%#x", fn, p.Offset)
	case ProbeFuncLine:
		return fmt.Sprintf("%s:%d", fn, p.Line)
	case ProbeFileLine:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	if p.Return {
		return fn + "%return"
	}
	return fn
}

// ParseProbe parses perf-probe syntax: FUNC, FUNC+OFF (decimal or 0x hex),
// FUNC:RLN, FILE.c:LINE and FUNC%return, where FUNC may be FUNC@SRC to
// pick the function defined in source file SRC (static functions of one
// name in several compile units), optionally prefixed by "BINARY:"
// when BINARY contains a '/'. A FILE is recognised by a '/' or a source
// file extension (.c, .h, .cc, ...).
func ParseProbe(s string) (Probe, error) {
	orig := s
	s = strings.TrimSpace(s)
	if s == "" {
		return Probe{}, fmt.Errorf("probe %q: empty", orig)
	}
	// Try BINARY: prefixes from the left: the first split whose prefix has
	// a '/', is not a source file, and whose rest parses wins.
	for i := 0; i < len(s); i++ {
		if s[i] != ':' || isScopeColon(s, i) {
			continue
		}
		bin, rest := s[:i], s[i+1:]
		if !strings.Contains(bin, "/") || isSourceFile(bin) {
			continue
		}
		if p, err := parseSpec(rest); err == nil {
			p.Spec, p.Binary = orig, bin
			return p, nil
		}
	}
	p, err := parseSpec(s)
	if err != nil {
		return Probe{}, fmt.Errorf("probe %q: %w", orig, err)
	}
	p.Spec = orig
	return p, nil
}

func parseSpec(s string) (Probe, error) {
	if at := strings.IndexByte(s, '@'); at >= 0 {
		// FUNC@SRC[+OFF|:RLN|%return]: SRC ends at the first '+', '%' or
		// the last ':'.
		fn, rest := s[:at], s[at+1:]
		end := len(rest)
		if i := strings.IndexAny(rest, "+%"); i >= 0 {
			end = i
		}
		if i := strings.LastIndexByte(rest[:end], ':'); i >= 0 {
			end = i
		}
		src := rest[:end]
		if src == "" || strings.ContainsAny(src, "@ \t") {
			return Probe{}, fmt.Errorf("invalid source file %q after '@' (want FUNC@FILE.c)", src)
		}
		p, err := parseSpec(fn + rest[end:])
		if err != nil {
			return p, err
		}
		if p.Kind == ProbeFileLine {
			return p, fmt.Errorf("invalid function name %q", fn)
		}
		p.Src = src
		return p, nil
	}
	var p Probe
	if f, ok := strings.CutSuffix(s, "%return"); ok {
		if !validFunc(f) {
			return p, fmt.Errorf("invalid function name %q", f)
		}
		p.Kind, p.Func, p.Return = ProbeFunc, f, true
		return p, nil
	}
	if i := lastColon(s); i >= 0 {
		head, tail := s[:i], s[i+1:]
		n, err := strconv.ParseUint(tail, 10, 31)
		if err != nil {
			return p, fmt.Errorf("invalid line number %q", tail)
		}
		if isSourceFile(head) || strings.Contains(head, "/") {
			if n == 0 {
				return p, fmt.Errorf("line numbers start at 1")
			}
			if strings.Contains(head, ":") {
				// BINARY:FILE:LINE splits at a ':' of its own: a ':' in
				// the file name would make the probe ambiguous.
				return p, fmt.Errorf("invalid file name %q (a ':' in it cannot be told from BINARY:)", head)
			}
			p.Kind, p.File, p.Line = ProbeFileLine, head, int(n)
			return p, nil
		}
		if !validFunc(head) {
			return p, fmt.Errorf("invalid function or file name %q", head)
		}
		p.Kind, p.Func, p.Line = ProbeFuncLine, head, int(n)
		return p, nil
	}
	if i := strings.IndexByte(s, '+'); i >= 0 {
		f, off := s[:i], s[i+1:]
		if !validFunc(f) {
			return p, fmt.Errorf("invalid function name %q", f)
		}
		n, err := strconv.ParseUint(off, 0, 64)
		if err != nil || off == "" || off[0] == '+' || off[0] == '-' {
			return p, fmt.Errorf("invalid offset %q", off)
		}
		p.Kind, p.Func, p.Offset = ProbeFuncOffset, f, n
		return p, nil
	}
	if !validFunc(s) {
		return p, fmt.Errorf("invalid function name %q", s)
	}
	p.Kind, p.Func = ProbeFunc, s
	return p, nil
}

// validFunc accepts C identifiers plus the '.' of compiler clones
// (helper.constprop.0) and '$'; C++ qualified names (ns::Class::method,
// ~Class, templates) with an optional parameter list that picks an
// overload (Class::add(long)); Go names (main.f, pkg.(*T).Method).
func validFunc(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' || s[0] == '.' || s[0] == ':' || strings.Contains(s, ":::") {
		return false
	}
	depth, angle := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '.' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
		case c == ':':
			if !isScopeColon(s, i) {
				return false
			}
		case c == '(':
			depth++
		case c == ')':
			if depth--; depth < 0 {
				return false
			}
		case c == '<':
			angle++
		case c == '>':
			angle = max(angle-1, 0)
		case c == '~' || c == '*' || c == '&' || c == ',' || c == ' ' && (depth > 0 || angle > 0):
			// (Blanks in a parameter list or template arguments:
			// geo::clampsum<long int>.)
		default:
			return false
		}
	}
	return depth == 0 && !strings.HasSuffix(s, "::")
}

// isScopeColon reports whether s[i] is one of the two ':' of a C++ "::".
func isScopeColon(s string, i int) bool {
	return i+1 < len(s) && s[i+1] == ':' || i > 0 && s[i-1] == ':'
}

// lastColon returns the index of the last ':' that is not part of a "::"
// nor inside parentheses (a parameter list), or -1.
func lastColon(s string) int {
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ')':
			depth++
		case '(':
			depth--
		case ':':
			if depth == 0 && !isScopeColon(s, i) {
				return i
			}
		}
	}
	return -1
}

var sourceExts = []string{".c", ".go", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".i", ".s", ".S", ".inc", ".C", ".y", ".l"}

func isSourceFile(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t:") {
		return false
	}
	for _, e := range sourceExts {
		if strings.HasSuffix(s, e) && len(s) > len(e) {
			return true
		}
	}
	return false
}
