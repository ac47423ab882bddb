package frontend

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"time"

	"github.com/bpfcc/bpfcc/frontend/hcache"
)

// vindex is splitVmlinux's result in the form the header cache stores:
// names interned (sorted, so a root is found by binary search without a
// map of a hundred thousand names) and declarations naming them by
// number. Splitting the 5 MB header is most of a compile that includes
// it; decoding the index is a few milliseconds.
type vindex struct {
	names []string // sorted, unique
	decls []idecl
}

type idecl struct {
	start, end int
	kind       byte // one of vkinds' indexes
	name       int  // -1: none
	enums      []int
	refs       []int
	// ptrRefs[k] is needed in full when memberOf[k] is a root, else only
	// declared.
	ptrRefs  []int
	memberOf []int
}

var vkinds = []string{"other", "struct", "union", "enum", "typedef", "fwd"}

const (
	kOther byte = iota
	kStruct
	kUnion
	kEnum
	kTypedef
	kFwd
)

func kindOf(s string) byte {
	for i, k := range vkinds {
		if k == s {
			return byte(i)
		}
	}
	return kOther
}

// newVindex splits src into its index.
func newVindex(src []byte) *vindex {
	decls := splitVmlinux(src)
	// Number the names in one pass, in the order met, then renumber them
	// in sorted order: one map operation per name occurrence.
	id := make(map[string]int, len(src)/40)
	var names []string
	var pool []int
	ids := func(l []string) []int {
		if len(l) == 0 {
			return nil
		}
		if len(pool) < len(l) {
			pool = make([]int, max(len(l), 1<<16))
		}
		r := pool[:len(l):len(l)]
		pool = pool[len(l):]
		for i, n := range l {
			v, ok := id[n]
			if !ok {
				v = len(names)
				id[n] = v
				names = append(names, n)
			}
			r[i] = v
		}
		return r
	}
	ix := &vindex{decls: make([]idecl, len(decls))}
	for i, d := range decls {
		name := -1
		if d.name != "" {
			name = ids([]string{d.name})[0]
		}
		ix.decls[i] = idecl{start: d.start, end: d.end, kind: kindOf(d.kind), name: name,
			enums: ids(d.enums), refs: ids(d.refs), ptrRefs: ids(d.ptrRefs), memberOf: ids(d.memberOf)}
	}
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return names[order[a]] < names[order[b]] })
	rank := make([]int, len(names))
	ix.names = make([]string, len(names))
	for r, o := range order {
		rank[o] = r
		ix.names[r] = names[o]
	}
	remap := func(l []int) {
		for i, v := range l {
			l[i] = rank[v]
		}
	}
	for i := range ix.decls {
		d := &ix.decls[i]
		if d.name >= 0 {
			d.name = rank[d.name]
		}
		remap(d.enums)
		remap(d.refs)
		remap(d.ptrRefs)
		remap(d.memberOf)
	}
	return ix
}

// typedefNames returns the names of the header's typedefs.
func (ix *vindex) typedefNames() []string {
	var r []string
	for _, d := range ix.decls {
		if d.kind == kTypedef && d.name >= 0 {
			r = append(r, ix.names[d.name])
		}
	}
	return r
}

// lookup returns name's number, or -1.
func (ix *vindex) lookup(name string) int {
	i := sort.SearchStrings(ix.names, name)
	if i < len(ix.names) && ix.names[i] == name {
		return i
	}
	return -1
}

// prune is pruneVmlinux on the index: the declarations the roots cannot
// reach are dropped, and every kept token keeps its line and column in
// the file called name (see compactWriter).
func (ix *vindex) prune(src []byte, roots map[string]bool, name string) []byte {
	isRoot := make([]bool, len(ix.names))
	// name -> the decls that define it: decls[first[n]:first[n+1]].
	first := make([]int32, len(ix.names)+1)
	for _, d := range ix.decls {
		if d.name >= 0 {
			first[d.name+1]++
		}
		for _, e := range d.enums {
			first[e+1]++
		}
	}
	for n := range ix.names {
		first[n+1] += first[n]
	}
	defs := make([]int32, first[len(ix.names)])
	fill := append([]int32(nil), first[:len(ix.names)]...)
	for i, d := range ix.decls {
		if d.name >= 0 {
			defs[fill[d.name]] = int32(i)
			fill[d.name]++
		}
		for _, e := range d.enums {
			defs[fill[e]] = int32(i)
			fill[e]++
		}
	}
	full := make([]bool, len(ix.decls))
	fwd := make([]bool, len(ix.names))
	var work []int32
	need := func(name int) {
		for _, i := range defs[first[name]:first[name+1]] {
			if !full[i] {
				full[i] = true
				work = append(work, i)
			}
		}
	}
	for name := range roots {
		if id := ix.lookup(name); id >= 0 {
			isRoot[id] = true
			need(id)
		}
	}
	for len(work) > 0 {
		d := &ix.decls[work[len(work)-1]]
		work = work[:len(work)-1]
		for _, r := range d.refs {
			need(r)
		}
		for k, r := range d.ptrRefs {
			if isRoot[d.memberOf[k]] {
				need(r)
			} else {
				fwd[r] = true
			}
		}
	}
	w := compactWriter{src: src, name: name}
	prev := 0
	for i, d := range ix.decls {
		if full[i] || d.kind == kFwd || d.kind == kOther {
			continue
		}
		w.keep(prev, d.start)
		if (d.kind == kStruct || d.kind == kUnion) && fwd[d.name] {
			w.text(d.start, vkinds[d.kind]+" "+ix.names[d.name]+";")
		}
		prev = d.end
	}
	w.keep(prev, len(src))
	return append(w.out, '\n')
}

// compactWriter writes the kept parts of a header at their lines and
// columns: blank lines are dropped, and a #line directive moves on where
// more than a few would be needed. cc scans every line it is given, and
// a pruned vmlinux.h blanked in place is 130,000 lines, most of them
// empty: half a compile.
type compactWriter struct {
	src, out []byte
	name     string
	counted  int // src's lines are counted up to here
	line     int // line of counted (0-based)
	outLine  int // the output's line and column, as src's (1-based)
	outCol   int
	started  bool
}

// pos returns the 1-based line and column of src[off] (off never goes
// back).
func (w *compactWriter) pos(off int) (int, int) {
	w.line += bytes.Count(w.src[w.counted:off], []byte{'\n'})
	w.counted = off
	return w.line + 1, off - bytes.LastIndexByte(w.src[:off], '\n')
}

// moveTo puts the output at src's line and column.
func (w *compactWriter) moveTo(line, col int) {
	switch {
	case w.started && line == w.outLine && col >= w.outCol:
		w.out = appendSpaces(w.out, col-w.outCol)
	case w.started && line > w.outLine && line-w.outLine <= 3:
		w.out = append(w.out, "\n\n\n"[:line-w.outLine]...)
		w.out = appendSpaces(w.out, col-1)
	default:
		if w.started {
			w.out = append(w.out, '\n')
		}
		w.out = fmt.Appendf(w.out, "#line %d \"%s\"\n", line, w.name)
		w.out = appendSpaces(w.out, col-1)
	}
	w.started, w.outLine, w.outCol = true, line, col
}

// keep writes src[a:b], but for its blank lines.
func (w *compactWriter) keep(a, b int) {
	for a < b {
		e := a
		for e < b && w.src[e] != '\n' {
			e++
		}
		f := a
		for f < e && (w.src[f] == ' ' || w.src[f] == '\t' || w.src[f] == '\r') {
			f++
		}
		if f < e {
			w.moveTo(w.pos(f))
			w.out = append(w.out, w.src[f:e]...)
			w.outCol += e - f
		}
		a = e + 1
	}
}

// text writes s where src[off] is.
func (w *compactWriter) text(off int, s string) {
	w.moveTo(w.pos(off))
	w.out = append(w.out, s...)
	w.outCol += len(s)
}

func appendSpaces(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}

// encode serialises the index: uvarints and length-prefixed names.
func (ix *vindex) encode() []byte {
	var b []byte
	u := func(v int) { b = binary.AppendUvarint(b, uint64(v)) }
	list := func(l []int) {
		u(len(l))
		for _, v := range l {
			u(v)
		}
	}
	u(len(ix.names))
	for _, n := range ix.names {
		u(len(n))
		b = append(b, n...)
	}
	u(len(ix.decls))
	for _, d := range ix.decls {
		u(d.start)
		u(d.end)
		u(int(d.kind))
		u(d.name + 1)
		list(d.enums)
		list(d.refs)
		list(d.ptrRefs)
		list(d.memberOf)
	}
	return b
}

var errBadIndex = errors.New("malformed vmlinux.h index")

// decodeVindex reads encode's output, checking it against src: a stale or
// damaged entry is an error, never a wrong index.
func decodeVindex(b []byte, srcLen int) (*vindex, error) {
	var bad bool
	u := func(limit int) int {
		v, n := binary.Uvarint(b)
		if n <= 0 || v > uint64(limit) {
			bad = true
			return 0
		}
		b = b[n:]
		return int(v)
	}
	nn := u(len(b))
	ix := &vindex{names: make([]string, 0, nn)}
	// The names share one string, the lists one array: a hundred
	// thousand small allocations would cost more than the decoding.
	all := string(b)
	for i := 0; i < nn && !bad; i++ {
		l := u(len(b))
		if bad || l > len(b) {
			return nil, errBadIndex
		}
		off := len(all) - len(b)
		ix.names = append(ix.names, all[off:off+l])
		b = b[l:]
	}
	var pool []int
	list := func() []int {
		n := u(len(b))
		if bad || n == 0 {
			return nil
		}
		if len(pool) < n {
			pool = make([]int, max(n, 1<<16))
		}
		l := pool[:n:n]
		pool = pool[n:]
		for i := range l {
			l[i] = u(nn - 1)
		}
		return l
	}
	nd := u(len(b))
	ix.decls = make([]idecl, 0, nd)
	prevEnd := 0
	for i := 0; i < nd && !bad; i++ {
		d := idecl{start: u(srcLen), end: u(srcLen), kind: byte(u(int(kFwd))), name: u(nn) - 1}
		d.enums, d.refs, d.ptrRefs, d.memberOf = list(), list(), list(), list()
		if d.start < prevEnd || d.end < d.start || len(d.ptrRefs) != len(d.memberOf) ||
			(d.name < 0 && (d.kind == kStruct || d.kind == kUnion)) {
			bad = true
		}
		prevEnd = d.end
		ix.decls = append(ix.decls, d)
	}
	if bad || len(b) != 0 || !sort.StringsAreSorted(ix.names) {
		return nil, errBadIndex
	}
	return ix, nil
}

// matches reports whether every declaration of ix ends with ';' in src,
// starts with its keyword and holds its name: an index of another file
// (a stale entry) fails, so it is never used to prune.
func (ix *vindex) matches(src []byte) bool {
	for _, d := range ix.decls {
		span := src[d.start:d.end]
		if len(span) == 0 || span[len(span)-1] != ';' {
			return false
		}
		if d.kind != kOther && d.kind != kFwd && !bytes.HasPrefix(span, []byte(vkinds[d.kind])) {
			return false
		}
		if d.name >= 0 && !bytes.Contains(span, []byte(ix.names[d.name])) {
			return false
		}
	}
	return true
}

// vmlinuxIndex returns src's index from the cache, or splits src and
// stores the index.
func vmlinuxIndex(c *hcache.Cache, name string, src []byte) *vindex {
	if c == nil {
		return newVindex(src)
	}
	key := vindexKey(name, src, time.Now())
	if b, ok := c.Get(key); ok {
		if ix, err := decodeVindex(b, len(src)); err == nil && ix.matches(src) {
			return ix
		}
		c.Warnf("ignoring a malformed vmlinux.h index in the header cache")
	}
	ix := newVindex(src)
	c.Put(key, ix.encode())
	return ix
}

// settled is how long ago a file must have been modified before its
// identity (path, inode, size, times) stands for its content. Time stamps
// come from a coarse clock, and a file written while it is being read
// could pair a new identity with old bytes (git's "racily clean" problem).
// The modification time alone decides: a write sets it to now, and one
// set back by hand changes the ctime the identity holds.
const settled = 2 * time.Second

// vindexKey names src's index: by the identity of the file it was read
// from, as the preamble's dependencies are checked, when the file has
// settled; by its content otherwise. Hashing the 3 MB of a vmlinux.h was
// 2% of a warm CO-RE compile.
func vindexKey(name string, src []byte, now time.Time) hcache.Key {
	st, ok := statOf(name)
	abs, err := filepath.Abs(name)
	if !ok || err != nil || st.size != int64(len(src)) || now.Sub(time.Unix(0, st.mtime)) < settled {
		return hcache.NewKey("vmlinux-index", src)
	}
	var id [32]byte
	binary.LittleEndian.PutUint64(id[0:], uint64(st.size))
	binary.LittleEndian.PutUint64(id[8:], uint64(st.mtime))
	binary.LittleEndian.PutUint64(id[16:], uint64(st.ctime))
	binary.LittleEndian.PutUint64(id[24:], uint64(st.ino))
	return hcache.NewKey("vmlinux-index-file", []byte(abs), id[:])
}
