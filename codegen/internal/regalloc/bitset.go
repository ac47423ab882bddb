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
