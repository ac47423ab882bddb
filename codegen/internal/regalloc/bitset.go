package regalloc

import "math/bits"

// Bitset is a fixed-size set of small non-negative integers.
type Bitset []uint64

// NewBitset returns an empty set able to hold 0..n-1.
func NewBitset(n int) Bitset { return make(Bitset, (n+63)/64) }

// Has reports whether i is in the set.
func (s Bitset) Has(i int) bool { return s[i/64]&(1<<(uint(i)%64)) != 0 }

// Add inserts i.
func (s Bitset) Add(i int) { s[i/64] |= 1 << (uint(i) % 64) }

// Remove deletes i.
func (s Bitset) Remove(i int) { s[i/64] &^= 1 << (uint(i) % 64) }

// Copy returns an independent copy.
func (s Bitset) Copy() Bitset { return append(Bitset(nil), s...) }

// UnionWith adds every element of t and reports whether s changed.
func (s Bitset) UnionWith(t Bitset) bool {
	changed := false
	for i, w := range t {
		if n := s[i] | w; n != s[i] {
			s[i] = n
			changed = true
		}
	}
	return changed
}

// Empty reports whether the set has no elements.
func (s Bitset) Empty() bool {
	for _, w := range s {
		if w != 0 {
			return false
		}
	}
	return true
}

// First returns the smallest element, or -1 for the empty set.
func (s Bitset) First() int {
	for i, w := range s {
		if w != 0 {
			return i*64 + bits.TrailingZeros64(w)
		}
	}
	return -1
}

// ForEach calls fn for every element in increasing order.
func (s Bitset) ForEach(fn func(int)) {
	for i, w := range s {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			fn(i*64 + b)
			w &^= 1 << uint(b)
		}
	}
}

// workset is a Bitset used as a worklist: it counts its elements and
// remembers the first word that may hold one, so that Empty is O(1) and
// repeated First calls scan the set once overall, not once per call.
type workset struct {
	Bitset
	n  int // elements
	lo int // no element lies in a word below lo
}

func newWorkset(n int) workset { return workset{Bitset: NewBitset(n)} }

// Add adds i.
func (s *workset) Add(i int) {
	w, b := i/64, uint64(1)<<(uint(i)%64)
	if s.Bitset[w]&b == 0 {
		s.Bitset[w] |= b
		s.n++
		s.lo = min(s.lo, w)
	}
}

// Remove removes i.
func (s *workset) Remove(i int) {
	w, b := i/64, uint64(1)<<(uint(i)%64)
	if s.Bitset[w]&b != 0 {
		s.Bitset[w] &^= b
		s.n--
	}
}

// Empty reports whether the set has no elements.
func (s *workset) Empty() bool { return s.n == 0 }

// First returns the smallest element, or -1 for the empty set.
func (s *workset) First() int {
	for s.lo < len(s.Bitset) && s.Bitset[s.lo] == 0 {
		s.lo++
	}
	if s.lo == len(s.Bitset) {
		return -1
	}
	return s.lo*64 + bits.TrailingZeros64(s.Bitset[s.lo])
}

// liveSet is a Bitset with a summary bit per word, so that iterating a
// sparse set over many registers skips the empty words 64 at a time.
type liveSet struct {
	words, sum Bitset
}

func newLiveSet(b Bitset) liveSet {
	s := liveSet{words: b.Copy(), sum: NewBitset(len(b))}
	for i, w := range s.words {
		if w != 0 {
			s.sum.Add(i)
		}
	}
	return s
}

// reset empties the set.
func (s liveSet) reset() {
	s.sum.ForEach(func(i int) { s.words[i] = 0 })
	clear(s.sum)
}

// Add adds i.
func (s liveSet) Add(i int) {
	s.words.Add(i)
	s.sum.Add(i / 64)
}

// Remove removes i.
func (s liveSet) Remove(i int) {
	s.words.Remove(i)
	if s.words[i/64] == 0 {
		s.sum.Remove(i / 64)
	}
}

// ForEach calls fn for every element in increasing order.
func (s liveSet) ForEach(fn func(int)) {
	s.sum.ForEach(func(i int) {
		for w := s.words[i]; w != 0; w &= w - 1 {
			fn(i*64 + bits.TrailingZeros64(w))
		}
	})
}
