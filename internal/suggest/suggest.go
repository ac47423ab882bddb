// Package suggest finds the names closest to a misspelled one, for the
// "did you mean" of diagnostics in the compiler and the loader alike.
package suggest

import (
	"sort"
	"strings"
)

// Closest returns at most three candidates within an edit distance of a
// third of name's length (at least 1) and of two more than the nearest,
// nearest first, ties by name.
func Closest(name string, candidates []string) []string {
	limit := max(1, len(name)/3)
	type near struct {
		name string
		d    int
	}
	seen := map[string]bool{}
	var best []near
	for _, c := range candidates {
		if seen[c] || c == name {
			continue
		}
		seen[c] = true
		if d := distance(name, c, limit); d <= limit {
			best = append(best, near{c, d})
		}
	}
	sort.Slice(best, func(i, j int) bool {
		if best[i].d != best[j].d {
			return best[i].d < best[j].d
		}
		return best[i].name < best[j].name
	})
	// Far worse than the nearest is noise beside it.
	var names []string
	for i := 0; i < len(best) && i < 3 && best[i].d <= best[0].d+2; i++ {
		names = append(names, best[i].name)
	}
	return names
}

// DidYouMean is Closest as a message suffix: " (did you mean a, b?)", or
// "" when nothing is close.
func DidYouMean(name string, candidates []string) string {
	names := Closest(name, candidates)
	if len(names) == 0 {
		return ""
	}
	return " (did you mean " + strings.Join(names, ", ") + "?)"
}

// distance is the edit distance of a and b counting a swap of two
// adjacent letters as one edit ("wrok" for "work", the commonest typo;
// optimal string alignment), or limit+1 as soon as it must exceed limit
// (rows are abandoned early: candidate lists are long).
func distance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
