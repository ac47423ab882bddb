package progrun

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"sort"
)

// Difference is one thing two runs observed differently. What names it
// for lists of known differences: "error", "retval", "packet", "ctx",
// "map NAME" or "global NAME".
type Difference struct {
	What   string
	Detail string
}

func (d Difference) String() string { return d.What + ": " + d.Detail }

// Compare compares clang's and bpfcc's observations of one run. ignore
// names maps and globals left out (non-deterministic by design).
func Compare(clang, bpfcc Observation, ignore func(name string) bool) []Difference {
	if ignore == nil {
		ignore = func(string) bool { return false }
	}
	var diffs []Difference
	add := func(what, format string, args ...any) {
		diffs = append(diffs, Difference{What: what, Detail: fmt.Sprintf(format, args...)})
	}
	if clang.Err != bpfcc.Err {
		add("error", "bpfcc %q, clang %q", bpfcc.Err, clang.Err)
	}
	if clang.Retval != bpfcc.Retval {
		add("retval", "bpfcc %d, clang %d", int32(bpfcc.Retval), int32(clang.Retval))
	}
	if !bytes.Equal(clang.Out, bpfcc.Out) {
		add("packet", "\nbpfcc %x\nclang %x", bpfcc.Out, clang.Out)
	}
	if !bytes.Equal(clang.CtxOut, bpfcc.CtxOut) {
		add("ctx", "\nbpfcc %x\nclang %x", bpfcc.CtxOut, clang.CtxOut)
	}
	for _, name := range SortedKeys(clang.Maps) {
		if ignore(name) {
			continue
		}
		what := "map " + name
		cm, bm := clang.Maps[name], bpfcc.Maps[name]
		for _, k := range SortedKeys(cm.Entries) {
			cv, bv := cm.Entries[k], bm.Entries[k]
			if cm.PerCPU {
				// A test run executes on whichever CPU it is given, and
				// repeated runs may move between CPUs: compare what the
				// CPUs hold together, word by word.
				cv, bv = cpuSum(cv), cpuSum(bv)
			}
			if bv == nil {
				add(what, "key %s: bpfcc has no entry, clang %x", k, cv)
			} else if !equalValues(cv, bv) {
				add(what, "key %s: bpfcc %x, clang %x", k, bv, cv)
			}
		}
		for _, k := range SortedKeys(bm.Entries) {
			if cm.Entries[k] == nil {
				add(what, "key %s: bpfcc %x, clang has no entry", k, bm.Entries[k])
			}
		}
	}
	for _, name := range SortedKeys(clang.Vars) {
		if ignore(name) {
			continue
		}
		cv := clang.Vars[name]
		bv, ok := bpfcc.Vars[name]
		switch {
		case !ok:
			add("global "+name, "missing from bpfcc's object")
		case !bytes.Equal(cv, bv):
			add("global "+name, "bpfcc %s, clang %s", hex.EncodeToString(bv), hex.EncodeToString(cv))
		}
	}
	return diffs
}

func equalValues(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// SortedKeys returns m's keys in order.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// cpuSum adds per-CPU values as little-endian 64-bit words (32-bit, or
// bytes, when the value's size is no multiple of 8 or 4), as the per-CPU
// counters a program bumps are read (nil stays nil).
func cpuSum(vs [][]byte) [][]byte {
	if len(vs) == 0 {
		return vs
	}
	n := len(vs[0])
	w := 8
	for n%w != 0 {
		w /= 2
	}
	sum := make([]byte, n)
	for _, v := range vs {
		if len(v) != n {
			return vs // not per-CPU copies of one value
		}
		for off := 0; off < n; off += w {
			var a, b uint64
			for i := w - 1; i >= 0; i-- {
				a = a<<8 | uint64(sum[off+i])
				b = b<<8 | uint64(v[off+i])
			}
			a += b
			for i := 0; i < w; i++ {
				sum[off+i] = byte(a >> (8 * i))
			}
		}
	}
	return [][]byte{sum}
}
