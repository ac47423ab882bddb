package frontend

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"sync"

	"github.com/bpfcc/bpfcc/diag"
)

// checkEOF reports a main file whose last declaration is not terminated.
// Beyond being an error, such input sends modernc.org/cc/v4's parser into
// an endless loop (a pointer declarator or stray token at end of input), so
// it is caught before cc sees it. A translation unit ends in ';' or '}' (or
// ')' after a macro invocation), a preprocessor line, or nothing.
func checkEOF(path string, src []byte) *diag.Diagnostic {
	line, col, last := lastToken(src)
	if last == 0 {
		return nil
	}
	switch last {
	case ';', '}', ')':
		return nil
	}
	return &diag.Diagnostic{File: path, Line: line, Col: col,
		Msg: fmt.Sprintf("unexpected end of file after %q: the last declaration is not terminated (missing ';' or '}')", string(last))}
}

// lastToken returns the position and first byte of the last significant
// character of src, skipping comments, whitespace and preprocessor lines
// (0 when there is none).
func lastToken(src []byte) (line, col int, b byte) {
	ln, c := 1, 0
	inBlock, inLine, inDirective, atLineStart := false, false, false, true
	var quote byte
	for i := 0; i < len(src); i++ {
		ch := src[i]
		if ch == '\n' {
			ln, c = ln+1, 0
			inLine = false
			if !(i > 0 && src[i-1] == '\\') {
				inDirective = false
			}
			atLineStart = true
			continue
		}
		c++
		switch {
		case inBlock:
			if ch == '*' && i+1 < len(src) && src[i+1] == '/' {
				inBlock = false
				i++
				c++
			}
			continue
		case inLine || inDirective:
			continue
		case quote != 0:
			if ch == '\\' {
				i++
				c++
			} else if ch == quote {
				quote = 0
			}
			line, col, b = ln, c, ch
			continue
		}
		switch {
		case ch == '/' && i+1 < len(src) && src[i+1] == '*':
			inBlock = true
			i++
			c++
		case ch == '/' && i+1 < len(src) && src[i+1] == '/':
			inLine = true
		case ch == '#' && atLineStart:
			inDirective = true
		case ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v':
		default:
			atLineStart = false
			if ch == '"' || ch == '\'' {
				quote = ch
			}
			line, col, b = ln, c, ch
		}
	}
	return line, col, b
}

var includeLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^[ \t]*#[ \t]*include[ \t]*"([^"]+)"`) })

// checkSelfInclude reports a main file that includes itself: cc would
// expand it forever (its include-depth check is not effective).
func checkSelfInclude(path string, src []byte) *diag.Diagnostic {
	if !bytes.Contains(src, []byte(filepath.Base(path))) {
		return nil // no include can name it: skip the regexp (0.2 ms)
	}
	for _, m := range includeLine().FindAllSubmatchIndex(src, -1) {
		name := string(src[m[2]:m[3]])
		if filepath.Clean(filepath.Join(filepath.Dir(path), name)) == filepath.Clean(path) {
			line := 1 + bytes.Count(src[:m[0]], []byte("\n"))
			return &diag.Diagnostic{File: path, Line: line, Col: m[2] - bytes.LastIndexByte(src[:m[2]], '\n'),
				Msg: fmt.Sprintf("%q includes itself: the inclusion would never end", name)}
		}
	}
	return nil
}
