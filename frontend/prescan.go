package frontend

import (
	"bytes"
	"fmt"
	"strings"
	"unsafe"

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
		line, col := lineCol(src, t.off)
		return &diag.Diagnostic{File: path, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
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
		if (t.text == "u" || t.text == "U") && t.off+1 < len(src) && (src[t.off+1] == '"' || src[t.off+1] == '\'') {
			// cc's scanner knows only the L and u8 prefixes.
			return errAt(t, "%s%c...%c literals (char%d_t) are not supported; use L%c...%c (wchar_t, 4 bytes) or an array of integer constants",
				t.text, src[t.off+1], src[t.off+1], map[string]int{"u": 16, "U": 32}[t.text], src[t.off+1], src[t.off+1])
		}
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
			// "struct TAG name;" (or , [ :) only: in "struct TAG __arena
			// *next" the identifier is a macro (an attribute) and a
			// pointer follows.
			if next := toks[i+2]; !next.ident || i+3 < len(toks) && !strings.Contains(";,[:", toks[i+3].text) {
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

// punct holds each byte as a one-byte string, so that punctuation tokens
// cost no allocation.
var punct = func() (t [256]string) {
	for i := range t {
		t[i] = string(rune(i))
		if i >= 0x80 {
			t[i] = string([]byte{byte(i)})
		}
	}
	return t
}()

// ctoken is a C token as prescan and pruneVmlinux need it: punctuation
// and identifiers with their byte offsets; literals, comments and
// preprocessor lines are skipped.
type ctoken struct {
	text  string
	ident bool
	off   int // byte offset
}

// lineCol converts a byte offset of src to a 1-based line and column.
func lineCol(src []byte, off int) (line, col int) {
	line = 1 + bytes.Count(src[:off], []byte{'\n'})
	return line, off - bytes.LastIndexByte(src[:off], '\n')
}

// scanTokens tokenizes src. Identifiers share src's memory (vmlinux.h has
// a million of them): src must not change while the tokens are in use.
func scanTokens(src []byte) []ctoken {
	// About a token per four bytes that are not blanks: a pruned vmlinux.h
	// is mostly line breaks, and sizing by its length took 4 MB a scan.
	blank := bytes.Count(src, []byte{'\n'}) + bytes.Count(src, []byte{' '}) + bytes.Count(src, []byte{'\t'})
	toks := make([]ctoken, 0, (len(src)-blank)/4+16)
	atLineStart := true
	n := len(src)
	for i := 0; i < n; {
		c := src[i]
		switch {
		case c == '\n':
			atLineStart = true
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '\\' && i+1 < n && src[i+1] == '\n':
			i += 2
		case c == '/' && i+1 < n && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				return toks
			}
			i += 2 + end + 2
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i++
			}
		case c == '#' && atLineStart:
			// A preprocessor line, with its continuations.
			for i < n && src[i] != '\n' {
				if src[i] == '\\' && i+1 < n && src[i+1] == '\n' {
					i++
				}
				i++
			}
		case c == '"' || c == '\'':
			atLineStart = false
			i++
			for i < n && src[i] != c && src[i] != '\n' {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			i++
		case isIdentStart(c):
			atLineStart = false
			start := i
			for i < n && (isIdentStart(src[i]) || src[i] >= '0' && src[i] <= '9') {
				i++
			}
			toks = append(toks, ctoken{text: unsafe.String(&src[start], i-start), ident: true, off: start})
		case c >= '0' && c <= '9':
			atLineStart = false
			for i < n && (src[i] == '.' || isIdentStart(src[i]) || src[i] >= '0' && src[i] <= '9') {
				i++
			}
		default:
			atLineStart = false
			toks = append(toks, ctoken{text: punct[c], off: i})
			i++
		}
	}
	return toks
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// rewriteU8 turns u8"..." literals into "...": C11 makes them char arrays of
// the UTF-8 bytes, which a plain literal of the same (UTF-8) source is;
// cc takes the 8 for part of the string. The prefix becomes two spaces so
// that positions stay.
func rewriteU8(src []byte) []byte {
	if !bytes.Contains(src, []byte(`u8"`)) {
		return src
	}
	var out []byte
	for _, t := range scanTokens(src) {
		if t.text == "u8" && t.off+2 < len(src) && src[t.off+2] == '"' {
			if out == nil {
				out = bytes.Clone(src)
			}
			out[t.off], out[t.off+1] = ' ', ' '
		}
	}
	if out == nil {
		return src
	}
	return out
}

// endLine ends src with a line break after a final backslash-newline: a
// line continuation into the end of the file (C leaves it undefined) sends
// cc's preprocessor into an endless loop when it is inside a literal.
func endLine(src []byte) []byte {
	if bytes.HasSuffix(src, []byte("\\\n")) || bytes.HasSuffix(src, []byte("\\\r\n")) || bytes.HasSuffix(src, []byte("\\")) {
		return append(bytes.Clone(src), '\n')
	}
	return src
}

// rewriteFnArray rewrites libbpf's __array(NAME, RET (PARAMS)), a prog
// array's table of programs, to __bpfcc_fnarray(NAME, RET, (PARAMS)),
// which declares the same array of function pointers: the macro expands to
// typeof(RET (PARAMS)), a function type name cc cannot parse. Line breaks
// inside the invocation move after it, so lines stay put.
func rewriteFnArray(src []byte) []byte {
	if !bytes.Contains(src, []byte("__array")) {
		return src
	}
	toks := scanTokens(src)
	var out []byte
	done := 0
	for i := 0; i+3 < len(toks); i++ {
		if toks[i].text != "__array" || toks[i+1].text != "(" {
			continue
		}
		end := matchingParen(toks, i+1)
		if end < 0 {
			continue
		}
		comma := -1
		depth := 0
		for k := i + 2; k < end; k++ {
			switch toks[k].text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			case ",":
				if depth == 0 && comma < 0 {
					comma = k
				}
			}
		}
		if comma < 0 || comma+1 >= end {
			continue
		}
		open := -1
		for k := comma + 1; k < end; k++ {
			if toks[k].text == "(" {
				open = k
				break
			}
		}
		if open < 0 || open == comma+1 {
			continue // not a function type: typeof handles it
		}
		closeParen := matchingParen(toks, open)
		if closeParen < 0 || closeParen+1 != end {
			continue
		}
		span := src[toks[i].off : toks[end].off+1]
		repl := "__bpfcc_fnarray(" + string(src[toks[i+2].off:toks[comma].off]) + ", " +
			string(src[toks[comma+1].off:toks[open].off]) + ", " +
			string(src[toks[open].off:toks[closeParen].off+1]) + ")"
		repl = strings.ReplaceAll(repl, "\n", " ") + strings.Repeat("\n", bytes.Count(span, []byte("\n")))
		out = append(append(out, src[done:toks[i].off]...), repl...)
		done = toks[end].off + 1
		i = end
	}
	if out == nil {
		return src
	}
	return append(out, src[done:]...)
}

// matchingParen returns the index of the ')' matching the '(' at toks[i].
func matchingParen(toks []ctoken, i int) int {
	depth := 0
	for k := i; k < len(toks); k++ {
		switch toks[k].text {
		case "(":
			depth++
		case ")":
			if depth--; depth == 0 {
				return k
			}
		}
	}
	return -1
}
