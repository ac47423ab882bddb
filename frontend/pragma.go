package frontend

import (
	"bytes"
	"math"
	"strings"

	"modernc.org/cc/v4"
	"modernc.org/token"
)

// pragmas handles the #pragma directives bpfcc acts on; cc passes it every
// one it does not handle itself:
//
//   - `#pragma once`: later includes of the same file are skipped;
//   - `#pragma clang attribute push(__attribute__((preserve_access_index)),
//     apply_to = record)` ... `#pragma clang attribute pop`, as vmlinux.h
//     wraps its types: records defined between them get CO-RE relocations
//     (see Unit.PreservesAccessIndex).
type pragmas struct {
	seen map[string]int
	// stack holds the open `clang attribute push` regions; an entry is nil
	// when the pushed attribute is not preserve_access_index.
	stack   []*accessRegion
	regions []accessRegion
}

// accessRegion is a stretch of one file under preserve_access_index:
// from and to are (line, column) positions, both included.
type accessRegion struct {
	file     string
	from, to srcPos
}

// srcPos is a (line, column) position.
type srcPos struct{ line, col int }

func (a srcPos) before(b srcPos) bool {
	return a.line < b.line || a.line == b.line && a.col < b.col
}

func (r accessRegion) contains(file string, p srcPos) bool {
	return r.file == file && !p.before(r.from) && !r.to.before(p)
}

func newPragmas() *pragmas { return &pragmas{seen: map[string]int{}} }

func (p *pragmas) handle(toks []cc.Token) error {
	if len(toks) == 0 {
		return nil
	}
	pos := toks[0].Position()
	switch {
	case toks[0].SrcStr() == "once":
		// A later include reaches the pragma that was seen first; a
		// second #pragma once further down the same pass through the
		// file (beyla's gpuevent.h) changes nothing.
		if line, ok := p.seen[pos.Filename]; ok {
			if line == pos.Line || line < 0 {
				return cc.SkipSource
			}
			return nil
		}
		p.seen[pos.Filename] = pos.Line
	case len(toks) >= 3 && toks[0].SrcStr() == "clang" && toks[1].SrcStr() == "attribute":
		switch toks[2].SrcStr() {
		case "push":
			var r *accessRegion
			for _, t := range toks[3:] {
				if t.SrcStr() == "preserve_access_index" {
					r = &accessRegion{file: pos.Filename, from: srcPos{pos.Line + 1, 0}, to: srcPos{math.MaxInt, 0}}
				}
			}
			p.stack = append(p.stack, r)
		case "pop":
			if n := len(p.stack); n > 0 {
				if r := p.stack[n-1]; r != nil {
					if r.file == pos.Filename {
						r.to = srcPos{pos.Line, 0}
					}
					p.regions = append(p.regions, *r)
				}
				p.stack = p.stack[:n-1]
			}
		}
	}
	return nil
}

// finish closes the regions still open at the end of the input.
func (p *pragmas) finish() []accessRegion {
	for _, r := range p.stack {
		if r != nil {
			p.regions = append(p.regions, *r)
		}
	}
	p.stack = nil
	return p.regions
}

// PreservesAccessIndex reports whether t is a struct or union whose member
// accesses get CO-RE relocations, as clang decides it: the record has
// __attribute__((preserve_access_index)), or its definition lies inside a
// `#pragma clang attribute push(... preserve_access_index ...)` region.
func (u *Unit) PreservesAccessIndex(t cc.Type) bool {
	if t == nil || (t.Kind() != cc.Struct && t.Kind() != cc.Union) {
		return false
	}
	if a, ok := t.(interface{ Attributes() *cc.Attributes }); ok {
		if at := a.Attributes(); at != nil && at.IsAttrSet("preserve_access_index") {
			return true
		}
	}
	if len(u.accessRegions) == 0 {
		return false
	}
	pos, ok := definedAt(t)
	if !ok {
		return false
	}
	for _, r := range u.accessRegions {
		if r.contains(pos.Filename, srcPos{pos.Line, pos.Column}) {
			return true
		}
	}
	return false
}

// definedAt is where record t's body is: its first member's declarator
// (which also places anonymous and typedef'd records), else its tag.
func definedAt(t cc.Type) (token.Position, bool) {
	type record interface {
		NumFields() int
		FieldByIndex(int) *cc.Field
		Tag() cc.Token
	}
	r, ok := t.(record)
	if !ok {
		return token.Position{}, false
	}
	for i := 0; i < r.NumFields(); i++ {
		if f := r.FieldByIndex(i); f != nil && f.Declarator() != nil {
			return f.Declarator().Position(), true
		}
	}
	tag := r.Tag()
	if tag.SrcStr() == "" {
		return token.Position{}, false
	}
	return tag.Position(), true
}

// hideAccessAttribute removes __attribute__((preserve_access_index)) from
// the records of src, recording each record's body as a region instead.
// cc loses the members of a self-referential record that has an attribute
// (a pointer member then points to an incomplete copy of the type), and
// the attribute matters to bpfcc only through PreservesAccessIndex, which
// regions answer as well. Spaces replace the attribute: positions stay.
func hideAccessAttribute(file string, src []byte) ([]byte, []accessRegion) {
	if !mayHaveAccessAttribute(src) {
		return src, nil
	}
	toks := scanTokens(src)
	var out []byte
	var regions []accessRegion
	for i := 0; i+5 < len(toks); i++ {
		if toks[i].text != "__attribute__" && toks[i].text != "__attribute" || toks[i+1].text != "(" || toks[i+2].text != "(" ||
			strings.Trim(toks[i+3].text, "_") != "preserve_access_index" || toks[i+4].text != ")" || toks[i+5].text != ")" {
			continue
		}
		var open, close int = -1, -1
		switch {
		case i > 0 && toks[i-1].text == "}": // struct s { ... } __attribute__((...))
			close = i - 1
			open = matching(toks, close, -1)
		case i > 0 && isRecordKeyword(toks[i-1].text): // struct __attribute__((...)) s { ... }
			k := i + 6
			if k < len(toks) && toks[k].ident {
				k++
			}
			if k < len(toks) && toks[k].text == "{" {
				open = k
				close = matching(toks, k, +1)
			}
		}
		if open < 0 || close < 0 {
			continue // not on a record definition: cc handles it
		}
		if out == nil {
			out = bytes.Clone(src)
		}
		for k := toks[i].off; k <= toks[i+5].off; k++ {
			if out[k] != '\n' {
				out[k] = ' '
			}
		}
		fl, fc := lineCol(src, toks[open].off)
		tl, tc := lineCol(src, toks[close].off)
		regions = append(regions, accessRegion{file: file, from: srcPos{fl, fc}, to: srcPos{tl, tc}})
	}
	if out == nil {
		return src, nil
	}
	return out, regions
}

// matching returns the index of the bracket matching toks[i], searching
// forward (dir +1) or backward (dir -1), or -1.
func matching(toks []ctoken, i, dir int) int {
	depth := 0
	for k := i; k >= 0 && k < len(toks); k += dir {
		switch toks[k].text {
		case "{":
			depth += dir
		case "}":
			depth -= dir
		}
		if depth == 0 {
			return k
		}
	}
	return -1
}

// mayHaveAccessAttribute reports whether src may spell the attribute
// preserve_access_index: the name right after a '(' (blanks and a leading
// "__" aside). linux/bpf.h names only __builtin_preserve_access_index, in
// a comment, and a token scan of its 250 KB was 7% of a compile.
func mayHaveAccessAttribute(src []byte) bool {
	const name = "preserve_access_index"
	for off := 0; ; {
		i := bytes.Index(src[off:], []byte(name))
		if i < 0 {
			return false
		}
		j := off + i
		off = j + len(name)
		if j >= 2 && string(src[j-2:j]) == "__" {
			j -= 2
		}
		for j > 0 && (src[j-1] == ' ' || src[j-1] == '\t' || src[j-1] == '\n' || src[j-1] == '\r') {
			j--
		}
		if j > 0 && src[j-1] == '(' {
			return true
		}
	}
}
