package frontend

import "bytes"

// stripComments shrinks a header's comments and blank lines without moving
// a token: a run of lines holding only blanks and comments, with the
// newline ending the line before it (or the rest of a line after its last
// token, from a comment on), becomes "/*", its newlines, "*/" and a
// newline. Every token keeps its line and column, so positions
// (diagnostics, BTF line info) do not change.
//
// It matters for speed: linux/bpf.h and bpf_helper_defs.h are three
// quarters documentation comments. cc scans comments rune by rune, makes a
// line of every source line, even an empty one, and copies the newlines and
// comments before each line's first token into that token's separator.
//
// The scan follows cc's lexer (string and character literals, header names
// after #include, line splices). Whatever it is unsure of (an unterminated
// literal or comment, a splice in a comment delimiter or ending a //
// comment) leaves the file as it is, so cc sees and reports it unchanged.
func stripComments(src []byte) []byte {
	if !bytes.Contains(src, []byte("/*")) && !bytes.Contains(src, []byte("//")) && !bytes.Contains(src, []byte("\n\n")) {
		return src
	}
	if hasDelimiterSplice(src) {
		return src
	}
	var out []byte // nil until the first change
	done := 0      // src[:done] is in out
	// shrink replaces src[i:e], which holds m >= 1 newlines and ends with
	// one, and returns e.
	shrink := func(i, e, m int) int {
		out = append(out, src[done:i]...)
		if m > 1 {
			out = append(out, "/*"...)
			for range m - 1 {
				out = append(out, '\n')
			}
			out = append(out, "*/"...)
		}
		out = append(out, '\n')
		done = e
		return e
	}
	lineStart, hash, header := true, false, false
	i := 0
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		i = 3 // cc skips a byte order mark
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			e, m := blankRun(src, i+1)
			if m > 0 && (i == 0 || src[i-1] != '/') {
				i = shrink(i, e, m+1)
			} else {
				i++
			}
			lineStart, hash, header = true, false, false
			continue
		case isBlank(c):
			i++
			continue
		case c == '\\' && spliceLen(src, i) > 0:
			i += spliceLen(src, i)
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := bytes.Index(src[i+2:], []byte("*/"))
			if j < 0 {
				return src
			}
			if e, m := blankRun(src, i); m > 0 {
				i = shrink(i, e, m)
				lineStart, hash, header = true, false, false
			} else {
				i += 2 + j + 2
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			k := bytes.IndexByte(src[i:], '\n')
			if k < 0 {
				i = len(src) // it ends the file
				continue
			}
			if l := bytes.TrimRight(src[i:i+k], "\r"); l[len(l)-1] == '\\' {
				return src // a spliced // comment goes on
			}
			e, m := blankRun(src, i)
			i = shrink(i, e, m)
			lineStart, hash, header = true, false, false
			continue
		}
		// A token.
		wasHash := hash
		hash, lineStart = lineStart && c == '#', false
		switch {
		case header && (c == '<' || c == '"'):
			close := byte('>')
			if c == '"' {
				close = '"'
			}
			j := bytes.IndexAny(src[i+1:], string([]byte{close, '\n'}))
			if j < 0 || src[i+1+j] == '\n' {
				return src
			}
			i += 1 + j + 1
		case c == '"' || c == '\'':
			end := literalEnd(src, i)
			if end < 0 {
				return src
			}
			i = end
		case isIdentByte(c):
			j := i + 1
			for j < len(src) && (isIdentByte(src[j]) || '0' <= src[j] && src[j] <= '9') {
				j++
			}
			word := src[i:j]
			header = wasHash && (string(word) == "include" || string(word) == "include_next")
			i = j
			continue
		default:
			i++
		}
		header = false
	}
	if out == nil {
		return src
	}
	return append(out, src[done:]...)
}

// blankRun returns the end of the lines from i on that hold only blanks and
// complete comments, and how many there are (the newlines in src[i:e]).
// A line splice, an unterminated comment or the end of the file without a
// newline ends the run.
func blankRun(src []byte, i int) (e, m int) {
	e = i
	for j := i; ; {
		switch {
		case j < len(src) && isBlank(src[j]):
			j++
		case j < len(src) && src[j] == '\n':
			m += bytes.Count(src[e:j+1], []byte("\n"))
			e, j = j+1, j+1
		case j+1 < len(src) && src[j] == '/' && src[j+1] == '*':
			k := bytes.Index(src[j+2:], []byte("*/"))
			if k < 0 {
				return e, m
			}
			j += 2 + k + 2
		case j+1 < len(src) && src[j] == '/' && src[j+1] == '/':
			k := bytes.IndexByte(src[j:], '\n')
			if k < 0 {
				return e, m
			}
			if l := bytes.TrimRight(src[j:j+k], "\r"); l[len(l)-1] == '\\' {
				return e, m
			}
			j += k
		default:
			return e, m
		}
	}
}

// hasDelimiterSplice reports whether line splices ("\\\n" or "\\\r\n") split
// a "/*", "*/" or "//".
func hasDelimiterSplice(src []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\\')
		if j < 0 {
			return false
		}
		j += i
		k := j
		for n := spliceLen(src, k); n > 0; n = spliceLen(src, k) {
			k += n
		}
		if k > j && j > 0 && k < len(src) {
			a, b := src[j-1], src[k]
			if a == '*' && b == '/' || a == '/' && (b == '*' || b == '/') {
				return true
			}
		}
		i = max(k, j+1)
	}
}

// spliceLen is the length of the line splice at src[i], or 0.
func spliceLen(src []byte, i int) int {
	switch {
	case i+1 < len(src) && src[i] == '\\' && src[i+1] == '\n':
		return 2
	case i+2 < len(src) && src[i] == '\\' && src[i+1] == '\r' && src[i+2] == '\n':
		return 3
	}
	return 0
}

// literalEnd returns the offset after the string or character literal at
// src[i], or -1 when it is not terminated on its line.
func literalEnd(src []byte, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); {
		switch src[j] {
		case q:
			return j + 1
		case '\n':
			return -1
		case '\\':
			if n := spliceLen(src, j); n > 0 {
				j += n
			} else {
				j += 2
			}
		default:
			j++
		}
	}
	return -1
}

// isBlank reports whether c is a separator cc skips other than '\n'.
func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'
}

// isIdentByte reports whether c may start an identifier for cc's lexer
// (non-ASCII bytes included: cc accepts Unicode letters).
func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}
