// Package filecheck matches text against CHECK patterns in the manner of
// LLVM's FileCheck, so that a golden test pins the lines it is about
// rather than a whole listing.
//
// A pattern is literal text in which {{RE}} stands for a regular
// expression; runs of spaces and tabs match any such run. [[NAME:RE]]
// matches RE and binds NAME to the text it matched; [[NAME]] in a later
// directive matches exactly that text (so a test can say "the register the
// load defined is the one the store uses" without naming it). A NAME is
// letters, digits and _, starting with a letter or _; a binding lasts until
// it is bound again. The directives:
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
	// With variables: the pattern's pieces, turned into re at match time.
	parts []part
}

// A part is a piece of a pattern that uses or binds variables: literal
// regular expression text (re), a use of a variable (use) or a binding of
// one (def, to what re matches).
type part struct {
	re, use, def string
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
		parts, err := split(d.Pattern)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", d.Line, err)
		}
		re, err := build(parts, nil)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", d.Line, err)
		}
		d.re = re
		for _, p := range parts {
			if p.use != "" || p.def != "" {
				d.parts = parts
				break
			}
		}
		if d.parts != nil && d.Kind == "CHECK-NOT" {
			for _, p := range parts {
				if p.def != "" {
					return nil, fmt.Errorf("line %d: CHECK-NOT cannot bind a variable", d.Line)
				}
			}
		}
		ds = append(ds, d)
	}
	return ds, nil
}

var (
	varDefRE = regexp.MustCompile(`^\[\[([A-Za-z_][A-Za-z0-9_]*):(.*?\]*)\]\]`)
	varUseRE = regexp.MustCompile(`^\[\[([A-Za-z_][A-Za-z0-9_]*)\]\]`)
)

// split cuts a pattern into literal text, {{RE}}, [[NAME:RE]] and [[NAME]].
// The RE of [[NAME:RE]] ends at the last "]]" of the first run of "]"s, so
// [[R:r[0-9]]] binds R to what r[0-9] matches.
func split(p string) ([]part, error) {
	var parts []part
	bound := map[string]bool{}
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, part{re: literal(lit.String())})
			lit.Reset()
		}
	}
	for p != "" {
		switch {
		case strings.HasPrefix(p, "{{"):
			j := strings.Index(p[2:], "}}")
			if j < 0 {
				return nil, fmt.Errorf("unterminated {{ in %q", p)
			}
			flush()
			parts = append(parts, part{re: "(?:" + p[2:2+j] + ")"})
			p = p[2+j+2:]
		case strings.HasPrefix(p, "[["):
			flush()
			if m := varDefRE.FindStringSubmatch(p); m != nil {
				if bound[m[1]] {
					return nil, fmt.Errorf("[[%s:...]] twice in one pattern", m[1])
				}
				bound[m[1]] = true
				parts = append(parts, part{def: m[1], re: m[2]})
				p = p[len(m[0]):]
			} else if m := varUseRE.FindStringSubmatch(p); m != nil {
				if bound[m[1]] {
					return nil, fmt.Errorf("[[%s]] in the pattern that binds it", m[1])
				}
				parts = append(parts, part{use: m[1]})
				p = p[len(m[0]):]
			} else {
				return nil, fmt.Errorf("bad variable at %q: want [[NAME]] or [[NAME:RE]]", p)
			}
		default:
			i := len(p)
			for _, open := range []string{"{{", "[["} {
				if k := strings.Index(p, open); k >= 0 && k < i {
					i = k
				}
			}
			if i == 0 { // a lone brace or bracket
				i = 1
			}
			lit.WriteString(p[:i])
			p = p[i:]
		}
	}
	flush()
	return parts, nil
}

// build turns a pattern's parts into a regular expression; vars holds the
// variables' values (nil: uses match anything, for checking the syntax).
// A binding NAME is the capture group named vNAME.
func build(parts []part, vars map[string]string) (*regexp.Regexp, error) {
	var sb strings.Builder
	for _, p := range parts {
		switch {
		case p.def != "":
			sb.WriteString("(?P<v" + p.def + ">" + p.re + ")")
		case p.use != "" && vars == nil:
			sb.WriteString("(?:.*?)")
		case p.use != "":
			sb.WriteString(regexp.QuoteMeta(vars[p.use]))
		default:
			sb.WriteString(p.re)
		}
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
	vars := map[string]string{}
	// prepare gives d the regular expression for the variables' values
	// now; false: it uses a variable not bound yet.
	prepare := func(d *Directive) bool {
		if d.parts == nil {
			return true
		}
		for _, p := range d.parts {
			if _, ok := vars[p.use]; p.use != "" && !ok {
				fail(*d, "variable %s is not bound", p.use)
				return false
			}
		}
		re, err := build(d.parts, vars)
		if err != nil { // the syntax was checked by Parse
			fail(*d, "%v", err)
			return false
		}
		d.re = re
		return true
	}
	// bind records the variables d binds in line (a match of d.re).
	bind := func(d Directive, line string) {
		if d.parts == nil {
			return
		}
		m := d.re.FindStringSubmatch(line)
		for _, p := range d.parts {
			if p.def != "" {
				vars[p.def] = m[d.re.SubexpIndex("v"+p.def)]
			}
		}
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
		if !prepare(&d) {
			if d.Kind != "CHECK-NOT" {
				nots = nil
			}
			continue
		}
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
			bind(d, lines[cur])
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
			bind(d, lines[cur])
		case "CHECK-SAME":
			if cur < 0 {
				fail(d, "no previous match")
				continue
			}
			rest := lines[cur][col:]
			loc := d.re.FindStringIndex(rest)
			if loc == nil {
				fail(d, "not in the rest of line %d: %q", cur+1, rest)
				continue
			}
			bind(d, rest)
			col += loc[1]
		}
	}
	checkNots(cur+1, len(lines))
	return errs
}
