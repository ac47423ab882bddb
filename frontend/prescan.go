package frontend

import (
	"fmt"

	"github.com/bpfcc/bpfcc/diag"
)

// Limits checked before cc sees the main file. modernc.org/cc/v4 recurses
// without a bound on nesting, and a Go stack overflow cannot be recovered:
// the process dies. clang's default -fbracket-depth is 256 too.
const (
	// MaxNesting bounds nested parentheses, brackets and braces.
	MaxNesting = 256
	// MaxDeclaratorDepth bounds pointer levels and array dimensions of one
	// declarator ("int **...*p", "int a[1][1]...").
	MaxDeclaratorDepth = 256
)

// prescan checks the main file for what would crash or hang cc: nesting
// over MaxNesting, declarators deeper than MaxDeclaratorDepth, and a
// struct or union that contains itself (cc's type checker recurses forever
// on it). Macro expansions are not seen; headers are the system's.
func prescan(path string, src []byte) *diag.Diagnostic {
	toks := scanTokens(src)
	errAt := func(t ctoken, format string, args ...any) *diag.Diagnostic {
		return &diag.Diagnostic{File: path, Line: t.line, Col: t.col, Msg: fmt.Sprintf(format, args...)}
	}
	// open holds the brackets that are open; a '{' that starts the body of
	// "struct TAG" or "union TAG" records the tag.
	type open struct {
		ch  byte
		tag string
	}
	var stack []open
	stars, dims := 0, 0
	for i, t := range toks {
		switch t.text {
		case "*":
			if stars++; stars > MaxDeclaratorDepth {
				return errAt(t, "more than %d pointer levels in a row", MaxDeclaratorDepth)
			}
			continue
		case "[":
			if i > 0 && toks[i-1].text == "]" {
				dims++
			} else {
				dims = 1
			}
			if dims > MaxDeclaratorDepth {
				return errAt(t, "more than %d array dimensions", MaxDeclaratorDepth)
			}
		}
		stars = 0
		if t.text != "[" && t.text != "]" && (i == 0 || toks[i-1].text != "[") {
			dims = 0
		}
		switch t.text {
		case "(", "[", "{":
			o := open{ch: t.text[0]}
			if t.text == "{" && i >= 2 && isRecordKeyword(toks[i-2].text) && toks[i-1].ident {
				o.tag = toks[i-1].text
			}
			stack = append(stack, o)
			if len(stack) > MaxNesting {
				return errAt(t, "parentheses, brackets and braces nested more than %d deep", MaxNesting)
			}
		case ")", "]", "}":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case "struct", "union":
			// "struct TAG name" directly inside the body of struct TAG.
			if i+2 >= len(toks) || !toks[i+1].ident || len(stack) == 0 || stack[len(stack)-1].ch != '{' {
				break
			}
			if next := toks[i+2]; !next.ident && next.text != "[" {
				break
			}
			for _, o := range stack {
				if o.tag == toks[i+1].text {
					return errAt(toks[i+1], "field has incomplete type '%s %s': a %s cannot contain itself (use a pointer)", t.text, o.tag, t.text)
				}
			}
		}
	}
	return nil
}

func isRecordKeyword(s string) bool { return s == "struct" || s == "union" }

// ctoken is a C token of the main file as prescan needs it: punctuation
// and identifiers with their positions; literals, comments and
// preprocessor lines are skipped.
type ctoken struct {
	text      string
	ident     bool
	line, col int
}

func scanTokens(src []byte) []ctoken {
	var toks []ctoken
	line, col := 1, 1
	atLineStart := true
	advance := func(n int, i *int) {
		for k := 0; k < n && *i < len(src); k++ {
			if src[*i] == '\n' {
				line, col = line+1, 1
				atLineStart = true
			} else {
				col++
			}
			*i++
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			wasStart := atLineStart
			advance(1, &i)
			if c != '\n' {
				atLineStart = wasStart
			}
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			advance(2, &i)
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			advance(2, &i)
			for i < len(src) && !(src[i] == '*' && i+1 < len(src) && src[i+1] == '/') {
				advance(1, &i)
			}
			advance(2, &i)
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				advance(1, &i)
			}
		case c == '#' && atLineStart:
			// A preprocessor line, with its continuations.
			for i < len(src) && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) && src[i+1] == '\n' {
					advance(1, &i)
				}
				advance(1, &i)
			}
		case c == '"' || c == '\'':
			atLineStart = false
			advance(1, &i)
			for i < len(src) && src[i] != c && src[i] != '\n' {
				if src[i] == '\\' {
					advance(1, &i)
				}
				advance(1, &i)
			}
			advance(1, &i)
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			atLineStart = false
			start, l, cl := i, line, col
			for i < len(src) && (src[i] == '_' || src[i] >= 'a' && src[i] <= 'z' || src[i] >= 'A' && src[i] <= 'Z' || src[i] >= '0' && src[i] <= '9') {
				advance(1, &i)
			}
			toks = append(toks, ctoken{text: string(src[start:i]), ident: true, line: l, col: cl})
		case c >= '0' && c <= '9':
			atLineStart = false
			for i < len(src) && (src[i] == '.' || src[i] == '_' || src[i] >= 'a' && src[i] <= 'z' || src[i] >= 'A' && src[i] <= 'Z' || src[i] >= '0' && src[i] <= '9') {
				advance(1, &i)
			}
		default:
			atLineStart = false
			toks = append(toks, ctoken{text: string(c), line: line, col: col})
			advance(1, &i)
		}
	}
	return toks
}
