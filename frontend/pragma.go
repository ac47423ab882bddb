package frontend

import (
	"math"

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
	seen map[string]bool
	// stack holds the open `clang attribute push` regions; an entry is nil
	// when the pushed attribute is not preserve_access_index.
	stack   []*accessRegion
	regions []accessRegion
}

// accessRegion is a range of lines of one file under preserve_access_index.
type accessRegion struct {
	file     string
	from, to int
}

func newPragmas() *pragmas { return &pragmas{seen: map[string]bool{}} }

func (p *pragmas) handle(toks []cc.Token) error {
	if len(toks) == 0 {
		return nil
	}
	pos := toks[0].Position()
	switch {
	case toks[0].SrcStr() == "once":
		if p.seen[pos.Filename] {
			return cc.SkipSource
		}
		p.seen[pos.Filename] = true
	case len(toks) >= 3 && toks[0].SrcStr() == "clang" && toks[1].SrcStr() == "attribute":
		switch toks[2].SrcStr() {
		case "push":
			var r *accessRegion
			for _, t := range toks[3:] {
				if t.SrcStr() == "preserve_access_index" {
					r = &accessRegion{file: pos.Filename, from: pos.Line, to: math.MaxInt}
				}
			}
			p.stack = append(p.stack, r)
		case "pop":
			if n := len(p.stack); n > 0 {
				if r := p.stack[n-1]; r != nil {
					if r.file == pos.Filename {
						r.to = pos.Line
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
		if r.file == pos.Filename && pos.Line > r.from && pos.Line < r.to {
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
