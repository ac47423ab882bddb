package diag

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// SourceLine returns line n (1-based) of file, without its line ending, and
// whether that line is known.
type SourceLine func(file string, n int) (string, bool)

// FileLines returns a SourceLine that reads each file once from disk.
// Contents in overrides (file name to source, as for bpfcc.Options.Source)
// are used instead of the disk for the files they name.
func FileLines(overrides map[string][]byte) SourceLine {
	cache := map[string][]string{}
	return func(file string, n int) (string, bool) {
		lines, ok := cache[file]
		if !ok {
			b, found := overrides[file]
			if !found {
				var err error
				if b, err = os.ReadFile(file); err != nil {
					b = nil
				}
			}
			if b != nil {
				lines = strings.Split(string(b), "\n")
			}
			cache[file] = lines
		}
		if n < 1 || n > len(lines) {
			return "", false
		}
		return strings.TrimRight(lines[n-1], "\r"), true
	}
}

// ANSI colours, as clang and gcc use them.
const (
	ansiBold    = "\x1b[1m"
	ansiRed     = "\x1b[1;31m"
	ansiMagenta = "\x1b[1;35m"
	ansiCyan    = "\x1b[1;36m"
	ansiGreen   = "\x1b[1;32m"
	ansiReset   = "\x1b[0m"
)

// Print writes l sorted by position: each diagnostic as
// "file:line:col: error: message", then its source line with a caret under
// the column and its hint, if any. src may be nil (no source lines). With
// color, positions, severities and carets are coloured for a terminal.
// After MaxErrors errors the rest are counted, not printed.
func Print(w io.Writer, l List, src SourceLine, color bool) {
	l = append(List(nil), l...)
	l.Sort()
	errs, hidden := 0, 0
	for _, d := range l {
		if d.Severity == Error {
			errs++
			if errs > MaxErrors {
				hidden++
				continue
			}
		} else if errs > MaxErrors {
			continue // notes and warnings about hidden errors
		}
		printOne(w, d, src, color)
	}
	if hidden > 0 {
		fmt.Fprintf(w, "%d more error%s not shown\n", hidden, plural(hidden))
	}
}

func printOne(w io.Writer, d Diagnostic, src SourceLine, color bool) {
	if !color {
		fmt.Fprintln(w, d.String())
	} else {
		loc, _ := strings.CutSuffix(Diagnostic{File: d.File, Line: d.Line, Col: d.Col}.String(), "error: ")
		fmt.Fprintf(w, "%s%s%s%s%s:%s %s%s%s\n", ansiBold, loc, ansiReset,
			severityColor(d.Severity), d.Severity, ansiReset, ansiBold, d.Msg, ansiReset)
	}
	if src != nil && d.File != "" && d.Line > 0 {
		if line, ok := src(d.File, d.Line); ok {
			fmt.Fprintln(w, line)
			if d.Col > 0 {
				caret := "^"
				if color {
					caret = ansiGreen + "^" + ansiReset
				}
				fmt.Fprintf(w, "%s%s\n", CaretPad(line, d.Col), caret)
			}
		}
	}
	if d.Hint != "" {
		if color {
			fmt.Fprintf(w, "%shint:%s %s\n", ansiCyan, ansiReset, d.Hint)
		} else {
			fmt.Fprintf(w, "hint: %s\n", d.Hint)
		}
	}
}

func severityColor(s Severity) string {
	switch s {
	case Warning:
		return ansiMagenta
	case Note:
		return ansiCyan
	}
	return ansiRed
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// CaretPad returns the indentation that puts a caret under column col
// (1-based, in bytes) of line: tabs are kept so the caret lines up however
// the terminal expands them; a column past the end points just after it.
func CaretPad(line string, col int) string {
	var b strings.Builder
	for i := 0; i < col-1 && i < len(line); i++ {
		if line[i] == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// ColorFor reports whether output to f should be coloured: f is a terminal
// and NO_COLOR is unset.
func ColorFor(f *os.File) bool {
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
