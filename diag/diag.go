// Package diag holds positioned diagnostics shared by every compiler stage.
// Stages collect diagnostics as values; only the driver prints them.
package diag

import (
	"fmt"
	"sort"
	"strings"
)

// Severity is Error or Warning.
type Severity int

const (
	Error Severity = iota
	Warning
	Note
)

func (s Severity) String() string {
	switch s {
	case Warning:
		return "warning"
	case Note:
		return "note"
	}
	return "error"
}

// Diagnostic is one message about the input.
type Diagnostic struct {
	File      string
	Line, Col int
	Severity  Severity
	Msg       string
	Hint      string
}

func (d Diagnostic) String() string {
	var b strings.Builder
	switch {
	case d.File != "" && d.Line > 0 && d.Col > 0:
		fmt.Fprintf(&b, "%s:%d:%d: ", d.File, d.Line, d.Col)
	case d.File != "" && d.Line > 0:
		fmt.Fprintf(&b, "%s:%d: ", d.File, d.Line)
	case d.File != "":
		fmt.Fprintf(&b, "%s: ", d.File)
	}
	fmt.Fprintf(&b, "%s: %s", d.Severity, d.Msg)
	return b.String()
}

// List is a set of diagnostics; as an error it prints one per line, sorted.
type List []Diagnostic

// MaxErrors bounds how many errors one run reports.
const MaxErrors = 20

func (l List) Error() string {
	l.Sort()
	var b strings.Builder
	for i, d := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(d.String())
	}
	return b.String()
}

// Sort orders by file, line, column, keeping insertion order for ties.
func (l List) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// HasErrors reports whether l holds at least one error.
func (l List) HasErrors() bool {
	for _, d := range l {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Errors returns only the errors of l.
func (l List) Errors() List {
	var r List
	for _, d := range l {
		if d.Severity == Error {
			r = append(r, d)
		}
	}
	return r
}

// Warnings returns only the warnings of l.
func (l List) Warnings() List {
	var r List
	for _, d := range l {
		if d.Severity == Warning {
			r = append(r, d)
		}
	}
	return r
}
