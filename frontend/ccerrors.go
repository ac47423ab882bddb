package frontend

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/bpfcc/bpfcc/diag"
)

// modernc.org/cc/v4 reports errors as one text, a line per error:
// "file:line:col: message (check.go:123:check:)". Some lines are its own
// TODO notes ("TODO *cc.AdditiveExpression missed/failed type check"),
// mostly follow-ons of a real error on the line before; tokens at the end of
// input have no position ("-: unexpected EOF"). convertErrors turns that
// text into diagnostics a user can act on.
//
// bpfcc's regular expressions are compiled on first use (sync.OnceValue):
// compiled at package initialisation, the forty of them were a tenth of
// every command's start-up, a compile that never needs them included.

var (
	ccErrLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.+?):(\d+):(?:(\d+):)? (.*)$`) })
	// ccNoPos is cc's rendering of an invalid position.
	ccNoPos = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:-|<unknown>|\?):? (.*)$`) })
	// originTag matches cc's origin annotations: "(check.go:5373:check:)",
	// "(cc.go:123:)".
	originTag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s*\(?[\w./-]+\.go:\d+:[\w.]*:?\)?`) })
	// todoSpecifiers is cc's complaint about an invalid specifier list.
	todoSpecifiers = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`DeclarationSpecifiers missed/failed type check: \[(.*)\]`)
	})
	// todoInit is cc's complaint about an initializer it cannot convert.
	todoInit    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<- val .*, t (.+), exprT (.+)$`) })
	todoNode    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^TODO \*cc\.(\w+)`) })
	undefinedRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^undefined: (\S+)$`) })
	noMemberRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^type (.+) has no member(?: named)? (\S+)$`) })
	expansionRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^macro expansion limit exceeded \(Config\.ExpansionLimit (\d+)\)$`)
	})
)

// convertErrors rewrites cc's error text into positioned diagnostics: origin
// tags and TODO notes go, follow-on errors of an invalid type go, types are
// printed without their member lists, and errors at the end of input point
// at the last line of src. At most diag.MaxErrors errors are kept.
func convertErrors(path string, src []byte, err error) diag.List {
	var real, todos diag.List
	seen := map[string]bool{}
	for _, line := range strings.Split(err.Error(), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || seen[line] {
			continue
		}
		seen[line] = true
		d := diag.Diagnostic{File: path}
		msg := line
		if m := ccErrLine().FindStringSubmatch(line); m != nil && !strings.HasPrefix(line, "TODO") {
			d.File = m[1]
			d.Line, _ = strconv.Atoi(m[2])
			d.Col, _ = strconv.Atoi(m[3])
			msg = m[4]
		} else if m := ccNoPos().FindStringSubmatch(line); m != nil {
			msg = m[1]
		}
		if strings.HasPrefix(msg, "TODO") {
			d.Msg = todoMessage(msg)
			if d.Line == 0 {
				d.Line, d.Col = locateTODO(src, msg)
			}
			todos = append(todos, d)
			continue
		}
		d.Msg = cleanMsg(msg)
		if d.Line == 0 && isEOFMsg(d.Msg) {
			d.File = path
			d.Line, d.Col = endOfInput(src)
		}
		real = append(real, d)
	}
	real.Sort()
	l := dropCascades(real)
	for _, d := range todos {
		// A typeof whose expression had an error is that error's echo
		// (BPF_CORE_READ of a missing member).
		typeofEcho := len(real) > 0 && strings.HasSuffix(d.Msg, "type specifiers: typeofexpr")
		if d.Line > 0 && !strings.HasPrefix(d.Msg, "invalid or unsupported") && !typeofEcho {
			l = append(l, d) // a real error cc only has a note for
		}
	}
	if len(l) == 0 {
		// Only cc's own notes: they are the whole story, say them plainly.
		l = todos
	}
	if len(l) == 0 {
		l = diag.List{{File: path, Msg: cleanMsg(err.Error())}}
	}
	return truncate(placeUnpositioned(path, src, l))
}

// placeUnpositioned handles the errors cc reports without a position: next
// to positioned ones they are noise and are dropped; alone, they are put at
// the end of the input, the only place bpfcc can point to.
func placeUnpositioned(path string, src []byte, l diag.List) diag.List {
	var pos, nopos diag.List
	for _, d := range l {
		if d.Line > 0 {
			pos = append(pos, d)
		} else {
			nopos = append(nopos, d)
		}
	}
	if len(pos) > 0 {
		return pos
	}
	line, col := endOfInput(src)
	for i := range nopos {
		if nopos[i].File == "" || nopos[i].File == "-" {
			nopos[i].File = path
		}
		nopos[i].Line, nopos[i].Col = line, col
	}
	return nopos
}

// dropCascades removes follow-on errors: errors about operands whose type
// is already invalid, a second error at the same position, and a syntax
// error expecting the same thing as the syntax error before it (cc's parser
// recovery repeats "unexpected 'do', expected direct-declarator" for every
// line that follows a broken declaration), and the end-of-input errors
// after an #include that was not found.
func dropCascades(l diag.List) diag.List {
	var out diag.List
	type pos struct {
		file      string
		line, col int
	}
	at := map[pos]bool{}
	lastExpect := ""
	includeFailed := false
	for _, d := range l {
		if includeFailed && isEOFMsg(d.Msg) {
			continue // cc stops reading at an #include it cannot find
		}
		includeFailed = includeFailed || strings.HasPrefix(d.Msg, "include file not found")
		p := pos{d.File, d.Line, d.Col}
		if strings.Contains(d.Msg, "<invalid type>") || (d.Line > 0 && at[p]) {
			continue
		}
		if m := syntaxErr().FindStringSubmatch(d.Msg); m != nil {
			if m[1] == lastExpect {
				continue
			}
			lastExpect = m[1]
		}
		at[p] = true
		out = append(out, d)
	}
	if len(out) == 0 {
		return l
	}
	return out
}

var syntaxErr = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^unexpected .*, (expected .*)$`) })

// truncate keeps the first diag.MaxErrors diagnostics in source order and
// says how many more there were.
func truncate(l diag.List) diag.List {
	if len(l) <= diag.MaxErrors {
		return l
	}
	l.Sort()
	more := len(l) - diag.MaxErrors
	l = l[:diag.MaxErrors:diag.MaxErrors]
	last := l[len(l)-1]
	return append(l, diag.Diagnostic{File: last.File, Line: last.Line, Col: last.Col, Severity: diag.Note,
		Msg: fmt.Sprintf("too many errors: %d more not shown", more)})
}

// cleanMsg strips cc's origin tags from one message and rewrites its
// phrasings that leak cc's internals.
func cleanMsg(s string) string {
	s = strings.TrimSpace(originTag().ReplaceAllString(s, ""))
	s = collapseTypeBodies(s)
	if m := undefinedRe().FindStringSubmatch(s); m != nil {
		return fmt.Sprintf("use of undeclared identifier '%s'", m[1])
	}
	if m := noMemberRe().FindStringSubmatch(s); m != nil {
		return fmt.Sprintf("%s has no member named '%s'", m[1], m[2])
	}
	if m := expansionRe().FindStringSubmatch(s); m != nil {
		return fmt.Sprintf("macro expansion limit exceeded: more than %s tokens of expansion work (a recursive or exponentially growing macro?)", m[1])
	}
	return s
}

// collapseTypeBodies shortens cc's type renderings: "struct s {a int; b
// int}" becomes "struct s"; an anonymous body over 40 bytes becomes "{...}".
func collapseTypeBodies(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '{' {
			b.WriteByte(s[i])
			continue
		}
		end := matchingBrace(s, i)
		if end < 0 {
			b.WriteString(s[i:])
			break
		}
		body := s[i : end+1]
		switch {
		case taggedTypeBefore(s[:i]):
			// "struct NAME " already written: drop the body and the space.
			out := strings.TrimRight(b.String(), " ")
			b.Reset()
			b.WriteString(out)
		case len(body) > 40:
			b.WriteString("{...}")
		default:
			b.WriteString(body)
		}
		i = end
	}
	return b.String()
}

func matchingBrace(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// specifierGap is what may stand between two specifiers being searched for.
const specifierGap = `\s+(?:(?:const|volatile|static|extern|inline|signed|unsigned|short|long|int|char|__\w+)\s+)*?`

var taggedType = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(?:struct|union|enum) \w+ $`) })

func taggedTypeBefore(s string) bool { return taggedType().MatchString(s) }

func isEOFMsg(s string) bool {
	return strings.HasPrefix(s, "unexpected EOF") || strings.HasPrefix(s, "unexpected <EOF>")
}

// endOfInput is the position just after the last non-blank line of src.
func endOfInput(src []byte) (line, col int) {
	lines := strings.Split(string(src), "\n")
	for n := len(lines); n > 0; n-- {
		if t := strings.TrimRight(lines[n-1], " \t\r"); t != "" {
			return n, len(t) + 1
		}
	}
	return 1, 1
}

// todoMessage says in C terms what one of cc's TODO notes is about.
func todoMessage(s string) string {
	s = strings.TrimSpace(originTag().ReplaceAllString(s, ""))
	if m := todoSpecifiers().FindStringSubmatch(s); m != nil {
		return "invalid combination of type specifiers: " + strings.Join(specifierWords(m[1]), " ")
	}
	if m := todoInit().FindStringSubmatch(s); m != nil {
		return fmt.Sprintf("cannot initialize %s with a value of type %s", collapseTypeBodies(m[1]), collapseTypeBodies(m[2]))
	}
	if m := todoNode().FindStringSubmatch(s); m != nil {
		return "invalid or unsupported " + nodeWords(m[1])
	}
	return "invalid or unsupported construct"
}

// specifierWords turns "TypeSpecifierInt TypeSpecifierLong" into C keywords.
func specifierWords(list string) []string {
	var w []string
	for _, f := range strings.Fields(list) {
		f = strings.TrimPrefix(f, "TypeSpecifier")
		w = append(w, strings.ToLower(f))
	}
	return w
}

// nodeWords turns "AdditiveExpression" into "additive expression".
func nodeWords(name string) string {
	var b strings.Builder
	for i, r := range name {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte(' ')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// locateTODO finds where a TODO note without a position applies, when its
// text says: a type specifier list is searched for in src. 0, 0: unknown.
func locateTODO(src []byte, msg string) (line, col int) {
	m := todoSpecifiers().FindStringSubmatch(msg)
	if m == nil {
		return 0, 0
	}
	words := specifierWords(m[1])
	if len(words) == 0 {
		return 0, 0
	}
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = regexp.QuoteMeta(w)
	}
	re, err := regexp.Compile(`\b` + strings.Join(quoted, specifierGap) + `\b`)
	if err != nil {
		return 0, 0
	}
	loc := re.FindIndex(src)
	if loc == nil {
		return 0, 0
	}
	before := src[:loc[0]]
	line = bytes.Count(before, []byte("\n")) + 1
	col = loc[0] - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}
