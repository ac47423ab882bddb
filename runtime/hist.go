package runtime

import (
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/cilium/ebpf"

	"github.com/bpfcc/bpfcc/abi"
)

// Histogram conventions. A map is printed as a histogram when a decl tag on
// it says so or, failing that, when its name ends in "_hist" (log2) or
// "_lhist" (linear):
//
//	HistTag:  "bpfcc:hist"                    log2 buckets
//	HistSignedTag: "bpfcc:hist:signed"        log2, the last entry "(..., 0)"
//	LHistTag: "bpfcc:lhist" or "bpfcc:lhist:MIN:STEP"  linear buckets
//
// The key is the bucket index (an integer), or a struct whose last member is
// the bucket index and whose other members name a group (a two-dimensional
// histogram, printed as a heat map). The value is the count (an integer;
// per-CPU maps are summed). Log2 bucket 0 counts the value 0 and bucket k
// (k ≥ 1) counts values in [2^(k-1), 2^k): bucket = 64 - clz(v). Linear
// bucket i counts [MIN + i*STEP, MIN + (i+1)*STEP); MIN defaults to 0 and
// STEP to 1.
const (
	HistTag  = abi.HistTag
	LHistTag = abi.LHistTag
)

// histSpec says how a map's buckets are labelled.
type histSpec struct {
	linear    bool
	min, step int64
	// signed: the map's last entry counts the values below 0
	// (HistSignedTag), shown as bucket negBucket.
	signed bool
}

// negBucket is the bucket of the values below 0, "(..., 0)".
const negBucket = -1

// histOf returns the histogram layout of a map, if it is one.
func histOf(ms *ebpf.MapSpec) (histSpec, bool) {
	for _, tag := range ms.Tags {
		if tag == HistTag {
			return histSpec{}, true
		}
		if tag == abi.HistSignedTag {
			return histSpec{signed: true}, true
		}
		if rest, ok := strings.CutPrefix(tag, LHistTag); ok {
			h := histSpec{linear: true, step: 1}
			if parts := strings.Split(strings.TrimPrefix(rest, ":"), ":"); rest != "" && len(parts) == 2 {
				mn, err1 := strconv.ParseInt(parts[0], 0, 64)
				st, err2 := strconv.ParseInt(parts[1], 0, 64)
				if err1 == nil && err2 == nil && st > 0 {
					h.min, h.step = mn, st
				}
			}
			return h, true
		}
	}
	switch {
	case strings.HasSuffix(ms.Name, "_lhist"):
		return histSpec{linear: true, step: 1}, true
	case strings.HasSuffix(ms.Name, "_hist"):
		return histSpec{}, true
	}
	return histSpec{}, false
}

// bucketCount is one non-empty bucket.
type bucketCount struct {
	group  string // "" for one-dimensional histograms
	gval   any
	bucket int64
	count  uint64
}

// histBuckets extracts buckets from decoded entries; ok is false when the
// entries do not have a histogram's shape (integer bucket, integer count).
func histBuckets(es []entry) (bs []bucketCount, grouped bool, ok bool) {
	for _, e := range es {
		count, okc := asUint(e.value)
		if !okc {
			return nil, false, false
		}
		b := bucketCount{count: count}
		switch k := e.key.(type) {
		case Record:
			if len(k) < 2 {
				return nil, false, false
			}
			idx, okb := asInt(k[len(k)-1].Value)
			if !okb {
				return nil, false, false
			}
			b.bucket, grouped = idx, true
			g := k[:len(k)-1]
			if len(g) == 1 {
				b.gval = g[0].Value
				b.group = FormatValue(g[0].Value)
			} else {
				b.gval = g
				b.group = FormatRecord(g)
			}
		default:
			idx, okb := asInt(k)
			if !okb {
				return nil, false, false
			}
			b.bucket = idx
		}
		if b.bucket < 0 || b.bucket > 1<<20 {
			return nil, false, false
		}
		bs = append(bs, b)
	}
	return bs, grouped, true
}

// fits reports whether every bucket is one h can label: log2 buckets of
// 64-bit values go up to 64 (bpfcc_log2 of values >= 2^63).
func (h histSpec) fits(bs []bucketCount) bool {
	for _, b := range bs {
		if !h.linear && b.bucket > 64 {
			return false
		}
	}
	return true
}

func asUint(v any) (uint64, bool) {
	switch x := v.(type) {
	case uint64:
		return x, true
	case int64:
		if x >= 0 {
			return uint64(x), true
		}
	}
	return 0, false
}

func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case uint64:
		if x <= 1<<62 {
			return int64(x), true
		}
	case int64:
		return x, true
	}
	return 0, false
}

// sizeSuffix writes n with a K/M/G/T/P/E suffix when it is a multiple of
// the power of 1024, as bpftrace labels its buckets.
func sizeSuffix(n *big.Int) string {
	units := []string{"", "K", "M", "G", "T", "P", "E"}
	n = new(big.Int).Set(n)
	k, m := big.NewInt(1024), new(big.Int)
	i := 0
	for n.Sign() > 0 && i < len(units)-1 {
		q, r := new(big.Int).QuoRem(n, k, m)
		if r.Sign() != 0 {
			break
		}
		n = q
		i++
	}
	return n.String() + units[i]
}

// bucketRange returns the values bucket i covers: [lo, hi). The bounds are
// exact: log2 bucket 64 is [2^63, 2^64), beyond every int64 and uint64.
func (h histSpec) bucketRange(i int64) (lo, hi *big.Int) {
	if h.linear {
		lo = new(big.Int).Mul(big.NewInt(i), big.NewInt(h.step))
		lo.Add(lo, big.NewInt(h.min))
		return lo, new(big.Int).Add(lo, big.NewInt(h.step))
	}
	if i == 0 {
		return big.NewInt(0), big.NewInt(1)
	}
	lo = new(big.Int).Lsh(big.NewInt(1), uint(i-1))
	return lo, new(big.Int).Lsh(lo, 1)
}

func (h histSpec) label(i int64) string {
	if i == negBucket {
		return "(..., 0)"
	}
	lo, hi := h.bucketRange(i)
	if !h.linear {
		if i <= 1 {
			return fmt.Sprintf("[%s]", lo)
		}
		return fmt.Sprintf("[%s, %s)", sizeSuffix(lo), sizeSuffix(hi))
	}
	if h.step == 1 {
		return fmt.Sprintf("[%s]", lo)
	}
	return fmt.Sprintf("[%s, %s)", lo, hi)
}

// barWidth is the width of a full histogram bar, as in bpftrace.
const barWidth = 52

// formatHist prints a one-dimensional histogram from the lowest to the
// highest non-empty bucket.
func formatHist(name string, h histSpec, bs []bucketCount) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:\n", name)
	writeHistBody(&b, h, bs)
	return b.String()
}

func writeHistBody(b *strings.Builder, h histSpec, bs []bucketCount) {
	counts := map[int64]uint64{}
	lo, hi := int64(-1), int64(-1)
	for _, c := range bs {
		counts[c.bucket] += c.count
	}
	neg := counts[negBucket]
	delete(counts, negBucket)
	peak := neg
	for k, c := range counts {
		if c == 0 {
			continue
		}
		if lo < 0 || k < lo {
			lo = k
		}
		hi = max(hi, k)
		peak = max(peak, c)
	}
	if neg > 0 {
		fmt.Fprintf(b, "%-16s %8d |%-*s|\n", h.label(negBucket), neg, barWidth, strings.Repeat("@", int(neg*barWidth/peak)))
		if lo > 0 {
			lo = 0 // the rows go on from [0], as bpftrace's
		}
	}
	if lo < 0 {
		return
	}
	for i := lo; i <= hi; i++ {
		c := counts[i]
		n := 0
		if peak > 0 {
			n = int(c * barWidth / peak)
		}
		fmt.Fprintf(b, "%-16s %8d |%-*s|\n", h.label(i), c, barWidth, strings.Repeat("@", n))
	}
}

// heatRamp shades heat-map cells from empty to the largest count.
const heatRamp = " .:-=+*#%@"

// formatHeatmap prints a two-dimensional histogram: up to maxGroupHists
// groups as a histogram each, more as a heat map, one row per group, one
// column per bucket from the lowest to the highest non-empty one, each cell
// shaded by its count relative to the largest; then the column legend.
// Verbose adds each group's full histogram to the heat map.
func formatHeatmap(name string, h histSpec, bs []bucketCount, verbose bool) string {
	type row struct {
		label  string
		gval   any
		counts map[int64]uint64
		total  uint64
	}
	rows := map[string]*row{}
	lo, hi := int64(-1), int64(-1)
	var peak uint64
	for _, c := range bs {
		r := rows[c.group]
		if r == nil {
			r = &row{label: c.group, gval: c.gval, counts: map[int64]uint64{}}
			rows[c.group] = r
		}
		r.counts[c.bucket] += c.count
		r.total += c.count
		if c.count > 0 {
			if lo < 0 || c.bucket < lo {
				lo = c.bucket
			}
			hi = max(hi, c.bucket)
		}
	}
	order := make([]*row, 0, len(rows))
	w := 5
	for _, r := range rows {
		order = append(order, r)
		w = max(w, len(r.label))
		for _, c := range r.counts {
			peak = max(peak, c)
		}
	}
	sort.Slice(order, func(i, j int) bool { return compareValues(order[i].gval, order[j].gval) < 0 })
	var b strings.Builder
	groupHist := func(r *row) {
		var one []bucketCount
		for k, c := range r.counts {
			one = append(one, bucketCount{bucket: k, count: c})
		}
		fmt.Fprintf(&b, "%s[%s]:\n", name, r.label)
		writeHistBody(&b, h, one)
	}
	if len(order) <= maxGroupHists && lo >= 0 {
		// Few groups: a histogram each, as bpftrace prints @h[key].
		for i, r := range order {
			if i > 0 {
				b.WriteString("\n")
			}
			groupHist(r)
		}
		return b.String()
	}
	fmt.Fprintf(&b, "%s:\n", name)
	if lo < 0 {
		return b.String()
	}
	for _, r := range order {
		var cells strings.Builder
		for i := lo; i <= hi; i++ {
			c := r.counts[i]
			k := 0
			if c > 0 {
				k = 1 + int(c*uint64(len(heatRamp)-2)/peak)
			}
			cells.WriteByte(heatRamp[min(k, len(heatRamp)-1)])
		}
		fmt.Fprintf(&b, "%-*s |%s| %d\n", w, r.label, cells.String(), r.total)
	}
	fmt.Fprintf(&b, "%-*s  columns %s .. %s, one per bucket; shades %q up to %d\n", w, "", h.label(lo), h.label(hi), heatRamp, peak)
	if verbose {
		for _, r := range order {
			groupHist(r)
		}
	}
	return b.String()
}

// maxGroupHists is how many groups a grouped histogram prints as one
// histogram each; more make a heat map, a row per group.
const maxGroupHists = 8

// jsonHist is the --json form of a histogram.
func jsonHist(name string, h histSpec, bs []bucketCount) map[string]any {
	sort.SliceStable(bs, func(i, j int) bool {
		if c := compareValues(bs[i].gval, bs[j].gval); c != 0 {
			return c < 0
		}
		return bs[i].bucket < bs[j].bucket
	})
	out := make([]map[string]any, 0, len(bs))
	for _, c := range bs {
		if c.count == 0 {
			continue
		}
		var m map[string]any
		if c.bucket == negBucket {
			m = map[string]any{"bucket": c.bucket, "max": -1, "count": c.count} // (..., 0): no min
		} else {
			lo, hi := h.bucketRange(c.bucket)
			// max is inclusive, as bpftrace's: [2, 4) is min 2, max 3,
			// and the top log2 bucket's max is 2^64-1, a __u64.
			hi.Sub(hi, big.NewInt(1))
			m = map[string]any{"bucket": c.bucket, "min": json.Number(lo.String()), "max": json.Number(hi.String()), "count": c.count}
		}
		if c.gval != nil {
			m["group"] = c.gval
		}
		out = append(out, m)
	}
	kind := "log2"
	if h.linear {
		kind = "linear"
	}
	return map[string]any{"type": "hist", "name": name, "kind": kind, "buckets": out}
}
