// Package filecheck matches text against CHECK patterns in the manner of
// LLVM's FileCheck, so that a golden test pins the lines it is about
// rather than a whole listing.
//
// A pattern is literal text in which {{RE}} stands for a regular
// expression; runs of spaces and tabs match any such run. The directives:
//
//	CHECK: P       P occurs on a later line than the previous match
//	CHECK-NEXT: P  P occurs on the line right after the previous match
//	CHECK-SAME: P  P occurs later on the previous match's line
//	CHECK-NOT: P   P occurs on no line between the previous match and the
//	               next one (or the end)
//	CHECK-EMPTY:   the next line is empty
package filecheck

import (
	"fmt"
	"regexp"
	"strings"
)

// A Directive is one CHECK line.
type Directive struct {
	Kind    string // "CHECK", "CHECK-NEXT", "CHECK-SAME", "CHECK-NOT", "CHECK-EMPTY"
	Pattern string
	Line    int // where it was written, for messages
	re      *regexp.Regexp
}

var directiveRE = regexp.MustCompile(`\b(CHECK(?:-NEXT|-SAME|-NOT|-EMPTY)?):(.*)$`)

// Parse collects the directives of text, one per line, after whatever
// comment leader the line has ("; CHECK: ...", "// CHECK: ...").
func Parse(text string) ([]Directive, error) {
	var ds []Directive
	for i, l := range strings.Split(text, "\n") {
		m := directiveRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		d := Directive{Kind: m[1], Pattern: strings.TrimSpace(m[2]), Line: i + 1}
		if (d.Pattern == "") != (d.Kind == "CHECK-EMPTY") {
			return nil, fmt.Errorf("line %d: %s needs a pattern (CHECK-EMPTY none)", d.Line, d.Kind)
		}
		re, err := compile(d.Pattern)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", d.Line, err)
		}
		d.re = re
		ds = append(ds, d)
	}
	return ds, nil
}

// compile turns a pattern into a regular expression.
func compile(p string) (*regexp.Regexp, error) {
	var sb strings.Builder
	for p != "" {
		i := strings.Index(p, "{{")
		if i < 0 {
			sb.WriteString(literal(p))
			break
		}
		j := strings.Index(p[i+2:], "}}")
		if j < 0 {
			return nil, fmt.Errorf("unterminated {{ in %q", p)
		}
		sb.WriteString(literal(p[:i]))
		sb.WriteString("(?:" + p[i+2:i+2+j] + ")")
		p = p[i+2+j+2:]
	}
	return regexp.Compile(sb.String())
}

// literal quotes s, letting a run of blanks match any run of blanks.
func literal(s string) string {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' })
	for i, f := range fields {
		fields[i] = regexp.QuoteMeta(f)
	}
	blank := func(b byte) bool { return b == ' ' || b == '\t' }
	if len(fields) == 0 {
		if s == "" {
			return ""
		}
		return `[ \t]+`
	}
	out := strings.Join(fields, `[ \t]+`)
	if blank(s[0]) {
		out = `[ \t]+` + out
	}
	if blank(s[len(s)-1]) {
		out += `[ \t]+`
	}
	return out
}

// Match checks text against ds and returns one error per failed
// directive (nil when all hold). Each message starts with the
// directive's line number ("12: CHECK: ..."), for the caller to prefix
// with its file, and says where in text the search was.
func Match(text string, ds []Directive) []error {
	lines := strings.Split(text, "\n")
	var errs []error
	cur, col := -1, 0 // the previous match: line and the column after it
	var nots []Directive
	fail := func(d Directive, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%d: %s: %s: %s", d.Line, d.Kind, d.Pattern, fmt.Sprintf(format, args...)))
	}
	// checkNots applies pending CHECK-NOTs to lines (from, to).
	checkNots := func(from, to int) {
		for _, n := range nots {
			for l := max(from, 0); l < to && l < len(lines); l++ {
				if n.re.MatchString(lines[l]) {
					fail(n, "matched line %d: %q", l+1, lines[l])
				}
			}
		}
		nots = nil
	}
	for _, d := range ds {
		switch d.Kind {
		case "CHECK-NOT":
			nots = append(nots, d)
		case "CHECK":
			found := -1
			for l := cur + 1; l < len(lines); l++ {
				if loc := d.re.FindStringIndex(lines[l]); loc != nil {
					found, col = l, loc[1]
					break
				}
			}
			if found < 0 {
				fail(d, "no match after line %d", cur+1)
				nots = nil
				continue
			}
			checkNots(cur+1, found)
			cur = found
		case "CHECK-NEXT", "CHECK-EMPTY":
			l := cur + 1
			checkNots(l, l)
			ok := l < len(lines)
			if ok && d.Kind == "CHECK-EMPTY" {
				ok = lines[l] == ""
				col = 0
			} else if ok {
				loc := d.re.FindStringIndex(lines[l])
				ok = loc != nil
				if ok {
					col = loc[1]
				}
			}
			if !ok {
				next := "end of text"
				if l < len(lines) {
					next = fmt.Sprintf("%q", lines[l])
				}
				fail(d, "line %d is %s", l+1, next)
				continue
			}
			cur = l
		case "CHECK-SAME":
			if cur < 0 {
				fail(d, "no previous match")
				continue
			}
			loc := d.re.FindStringIndex(lines[cur][col:])
			if loc == nil {
				fail(d, "not in the rest of line %d: %q", cur+1, lines[cur][col:])
				continue
			}
			col += loc[1]
		}
	}
	checkNots(cur+1, len(lines))
	return errs
}
