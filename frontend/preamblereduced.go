package frontend

import (
	"bytes"
	"slices"

	"github.com/bpfcc/bpfcc/frontend/hcache"
)

// A reduced entry is what a preamble entry gives one main file: the
// declarations and macros its body reaches (preamble.reduced), with the
// files the preamble was made from, its #pragma once files and access
// regions. Which items a body reaches depends on the entry and on the
// identifiers the body names, so the reduced entry is keyed by both: a
// compile after an edit that names nothing new (the common one) reads a
// few KB instead of decoding the preamble's hundreds and walking its
// reachability (a fifth of a warm XDP compile).
type reducedEntry struct {
	deps    []pdep
	once    []string
	regions []accessRegion
	head    []byte // with mainFile for the main file's path
}

// reducedKey names the reduced entry of the preamble entry key for body.
func reducedKey(key hcache.Key, body []byte) hcache.Key {
	seen := map[string]bool{}
	var idents []string
	scanIdents(body, func(w []byte) {
		if !seen[string(w)] {
			seen[string(w)] = true
			idents = append(idents, string(w))
		}
	})
	slices.Sort(idents)
	var b bytes.Buffer
	if includesAfterCode(body) {
		b.WriteString("#include\x00")
	}
	for _, id := range idents {
		b.WriteString(id)
		b.WriteByte(0)
	}
	return hcache.NewKey("preamble-reduced", key[:], b.Bytes())
}

func (r *reducedEntry) encode() []byte {
	e := penc{b: make([]byte, 0, len(r.head)+64*len(r.deps))}
	e.deps(r.deps)
	e.strs(r.once)
	e.regions(r.regions)
	e.str(string(r.head))
	return e.b
}

func decodeReduced(b []byte) (*reducedEntry, error) {
	d := &pdec{b: b}
	r := &reducedEntry{deps: d.deps(), once: d.strs(), regions: d.regions(), head: d.bytes(d.count())}
	if d.bad || len(d.b) != 0 {
		return nil, errBadPreamble
	}
	return r, nil
}

// loadReduced returns the reduced entry under key if every file it was
// made from is unchanged.
func loadReduced(c *hcache.Cache, key hcache.Key) *reducedEntry {
	b, ok := c.Get(key)
	if !ok {
		return nil
	}
	r, err := decodeReduced(b)
	if err != nil {
		c.Warnf("ignoring a malformed reduced preamble in the header cache: %v", err)
		return nil
	}
	if !depsHold(r.deps) {
		return nil
	}
	return r
}
