package frontend

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"modernc.org/cc/v4"
	"modernc.org/token"
)

// A packed bit-field can straddle 9 bytes (uint64_t b: 61 after 4 bits):
// clang lays it out at the next free bit and reads it in pieces, but
// cc's Config.ABILayout refuses it, having no single access unit for it.
// bpfcc translates such a file a second time with each of those
// declarators split in two, "NAME: W" as "NAME: 33, : (W) - 33": in a
// packed struct both parts go at the next free bit, so NAME starts where
// it did and every later member keeps its place, and cc does not check
// unnamed bit-fields' units. 33 bits keep the expression type of NAME the
// declared 64-bit type (a bit-field of 32 bits or fewer is an int). Lower then reads NAME as the W bits it
// declared (Unit.SplitBitField) and leaves the unnamed filler out of BTF,
// as it does every unnamed bit-field.

var wideBitFieldErr = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(.+?):(\d+):(\d+): bit-field (\w+) occupies more than 8 bytes, which Config\.ABILayout does not support`)
})

// wideBitFields returns the declarators of the bit-fields err refuses as
// too wide, by position, with their names; ok is false when err reports
// anything else too.
func wideBitFields(err error) (at map[token.Position]string, ok bool) {
	at = map[token.Position]string{}
	for _, line := range strings.Split(err.Error(), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		m := wideBitFieldErr().FindStringSubmatch(line)
		if m == nil {
			return nil, false
		}
		l, _ := strconv.Atoi(m[2])
		c, _ := strconv.Atoi(m[3])
		at[token.Position{Filename: m[1], Line: l, Column: c}] = m[4]
	}
	return at, len(at) > 0
}

// splitWideBitFields rewrites the declarators of at that lie in file src
// (named file) as the comment above says; it keeps every token's line.
// ok is false when one of them is not spelled out there (a macro made it)
// or its width is not a plain expression.
func splitWideBitFields(file string, src []byte, at map[token.Position]string) (out []byte, ok bool) {
	type edit struct {
		at, end int
		text    string
	}
	var edits []edit
	for p, name := range at {
		if p.Filename != file {
			continue
		}
		i := byteOffset(src, p.Line, p.Column)
		if i < 0 || !bytes.HasPrefix(src[i:], []byte(name)) {
			return nil, false
		}
		colon := skipBlanks(src, i+len(name))
		if colon >= len(src) || src[colon] != ':' {
			return nil, false
		}
		end, ok := widthEnd(src, colon+1)
		if !ok {
			return nil, false
		}
		edits = append(edits, edit{colon + 1, end, " 33, : (" + string(src[colon+1:end]) + ") - 33"})
	}
	if len(edits) == 0 {
		return src, true
	}
	out = bytes.Clone(src)
	// Apply from the end so earlier offsets stay valid.
	for len(edits) > 0 {
		last := 0
		for k := range edits {
			if edits[k].at > edits[last].at {
				last = k
			}
		}
		e := edits[last]
		out = append(out[:e.at:e.at], append([]byte(e.text), out[e.end:]...)...)
		edits = append(edits[:last], edits[last+1:]...)
	}
	return out, true
}

// byteOffset returns the offset of line and column (1-based, in bytes) in
// src, or -1.
func byteOffset(src []byte, line, col int) int {
	i := 0
	for l := 1; l < line; l++ {
		n := bytes.IndexByte(src[i:], '\n')
		if n < 0 {
			return -1
		}
		i += n + 1
	}
	if i+col-1 >= len(src) {
		return -1
	}
	return i + col - 1
}

// widthEnd returns where the bit-field width starting at i ends: at the
// ',' or ';' outside parentheses. An attribute after the width would go to
// the filler, so it is refused.
func widthEnd(src []byte, i int) (int, bool) {
	depth := 0
	for ; i < len(src); i++ {
		switch src[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ',', ';':
			if depth == 0 {
				return i, true
			}
		case '{', '}', '"', '\'', '#', '/':
			return 0, false
		case '_':
			if bytes.HasPrefix(src[i:], []byte("__attribute")) {
				return 0, false
			}
		}
	}
	return 0, false
}

// SplitBitField reports whether the bit-field declared at p was split
// (see wideBitFields): its width is its own plus that of the unnamed
// bit-field after it.
func (u *Unit) SplitBitField(d *cc.Declarator) bool {
	if d == nil || len(u.splitBitFields) == 0 {
		return false
	}
	p := d.Position()
	_, ok := u.splitBitFields[token.Position{Filename: p.Filename, Line: p.Line, Column: p.Column}]
	return ok
}
