package frontend

import "bytes"

// stripComments removes from a header the comments whose removal moves no
// token: a // comment, and a /* */ comment with nothing but blanks after it
// on its line, which becomes the newlines it spans. Every token keeps its
// line and column, so positions (diagnostics, BTF line info) are unchanged.
//
// It matters for speed: linux/bpf.h and bpf_helper_defs.h are mostly
// documentation comments, which cc scans rune by rune and, for each token
// that starts a line, copies with the newlines before it into the token's
// separator.
//
// The scan follows cc's lexer (string and character literals, header names
// after #include, line splices). Whatever it is unsure of (an unterminated
// literal or comment, a splice in a comment delimiter or ending a //
// comment) leaves the file as it is, so cc sees and reports it unchanged.
func stripComments(src []byte) []byte {
	if !bytes.Contains(src, []byte("/*")) && !bytes.Contains(src, []byte("//")) {
		return src
	}
	if hasDelimiterSplice(src) {
		return src
	}
	var out []byte // nil until the first removal
	done := 0      // src[:done] is in out
	lineStart, hash, header := true, false, false
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			lineStart, hash, header = true, false, false
			i++
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
			end := i + 2 + j + 2
			if restBlank(src, end) {
				out = append(out, src[done:i]...)
				for n := bytes.Count(src[i:end], []byte("\n")); n > 0; n-- {
					out = append(out, '\n')
				}
				done = end
			}
			i = end
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			end := len(src)
			if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
				end = i + j
			}
			if e := bytes.TrimRight(src[i:end], "\r"); len(e) > 0 && e[len(e)-1] == '\\' {
				return src // a spliced // comment goes on
			}
			out = append(out, src[done:i]...)
			done, i = end, end
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

// restBlank reports whether only blanks follow src[i] on its line.
func restBlank(src []byte, i int) bool {
	for ; i < len(src) && src[i] != '\n'; i++ {
		if !isBlank(src[i]) {
			return false
		}
	}
	return true
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
