package runtime

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/cilium/ebpf"

	"github.com/bpfcc/bpfcc/abi"
)

// maxDumpEntries bounds how many entries of one map are read at exit.
const maxDumpEntries = 1 << 20

// entry is one decoded map element.
type entry struct {
	keyRaw []byte
	key    any
	value  any   // per-CPU maps: the sum over CPUs
	perCPU []any // per-CPU maps: the value on each CPU
}

// dumpable reports whether a map is printed at exit: key/value maps, not
// output maps, and internal .data/.rodata/.bss maps only when verbose.
func dumpable(ms *ebpf.MapSpec, verbose bool) bool {
	switch ms.Type {
	case ebpf.Hash, ebpf.Array, ebpf.PerCPUHash, ebpf.PerCPUArray, ebpf.LRUHash, ebpf.LRUCPUHash:
	default:
		return false
	}
	if strings.HasPrefix(ms.Name, ".") || strings.Contains(ms.Name, ".rodata") || strings.Contains(ms.Name, ".data") || strings.Contains(ms.Name, ".bss") {
		return verbose
	}
	// Ring buffer drop counters are reported as lost events.
	if strings.HasSuffix(ms.Name, LostSuffix) {
		return verbose
	}
	// The process filter's PID set and counters: -v prints the counts.
	if ms.Name == pidSetMap || ms.Name == pidStatsMap {
		return false
	}
	// The compiler's own maps: saved entry registers are internal; the
	// read-error counters are shown (they are empty unless a read failed).
	if strings.HasPrefix(ms.Name, abi.ReservedPrefix) && ms.Name != readErrorsMap {
		return verbose
	}
	return true
}

func isPerCPU(t ebpf.MapType) bool {
	return t == ebpf.PerCPUHash || t == ebpf.PerCPUArray || t == ebpf.LRUCPUHash
}

// readEntries reads and decodes every element of m. Array elements whose
// value is all zero are left out: they hold no data.
func readEntries(m *ebpf.Map, ms *ebpf.MapSpec) ([]entry, error) {
	var out []entry
	perCPU := isPerCPU(ms.Type)
	key := make([]byte, m.KeySize())
	it := m.Iterate()
	for {
		var ok bool
		var vals [][]byte
		var val []byte
		if perCPU {
			ok = it.Next(&key, &vals)
		} else {
			val = make([]byte, m.ValueSize())
			ok = it.Next(&key, &val)
		}
		if !ok {
			break
		}
		if len(out) >= maxDumpEntries {
			break
		}
		if !perCPU {
			vals = [][]byte{val}
		}
		if isArray(ms.Type) && allZero(vals) {
			continue
		}
		e, err := decodeEntry(ms, key, vals, perCPU)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("map %s: iterate: %w", ms.Name, err)
	}
	return out, nil
}

func isArray(t ebpf.MapType) bool { return t == ebpf.Array || t == ebpf.PerCPUArray }

func allZero(vals [][]byte) bool {
	for _, v := range vals {
		if bytes.ContainsFunc(v, func(r rune) bool { return r != 0 }) {
			return false
		}
	}
	return true
}

func decodeEntry(ms *ebpf.MapSpec, key []byte, vals [][]byte, perCPU bool) (entry, error) {
	e := entry{keyRaw: bytes.Clone(key)}
	var err error
	if e.key, err = Decode(ms.Key, key); err != nil {
		return e, fmt.Errorf("map %s key: %w", ms.Name, err)
	}
	for _, v := range vals {
		d, err := Decode(ms.Value, v)
		if err != nil {
			return e, fmt.Errorf("map %s value: %w", ms.Name, err)
		}
		if perCPU {
			e.perCPU = append(e.perCPU, d)
		}
		if e.value == nil {
			e.value = d
		} else {
			e.value = sumValues(e.value, d)
		}
	}
	return e, nil
}

// sumValues adds decoded values: numbers add, records and arrays add member
// by member, anything else keeps the first value.
func sumValues(a, b any) any {
	switch x := a.(type) {
	case uint64:
		if y, ok := b.(uint64); ok {
			return x + y
		}
	case int64:
		if y, ok := b.(int64); ok {
			return x + y
		}
	case float64:
		if y, ok := b.(float64); ok {
			return x + y
		}
	case Record:
		if y, ok := b.(Record); ok && len(x) == len(y) {
			r := make(Record, len(x))
			for i := range x {
				r[i] = Field{x[i].Name, sumValues(x[i].Value, y[i].Value)}
			}
			return r
		}
	case []any:
		if y, ok := b.([]any); ok && len(x) == len(y) {
			r := make([]any, len(x))
			for i := range x {
				r[i] = sumValues(x[i], y[i])
			}
			return r
		}
	}
	return a
}

// compareValues orders decoded values: numbers numerically, strings
// lexically, records and arrays element by element.
func compareValues(a, b any) int {
	switch x := a.(type) {
	case uint64:
		if y, ok := b.(uint64); ok {
			return cmp.Compare(x, y)
		}
	case int64:
		if y, ok := b.(int64); ok {
			return cmp.Compare(x, y)
		}
	case float64:
		if y, ok := b.(float64); ok {
			return cmp.Compare(x, y)
		}
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y)
		}
	case Record:
		if y, ok := b.(Record); ok {
			for i := 0; i < len(x) && i < len(y); i++ {
				if c := compareValues(x[i].Value, y[i].Value); c != 0 {
					return c
				}
			}
			return cmp.Compare(len(x), len(y))
		}
	case []any:
		if y, ok := b.([]any); ok {
			return slices.CompareFunc(x, y, compareValues)
		}
	}
	return strings.Compare(FormatValue(a), FormatValue(b))
}

// sortEntries orders a table: arrays by index; other maps whose value is a
// single number by that number, smallest first (as bpftrace does, so the
// largest is printed last), then by key; the rest by key.
func sortEntries(es []entry, t ebpf.MapType) {
	byValue := !isArray(t) && len(es) > 0 && isNumber(es[0].value)
	sort.SliceStable(es, func(i, j int) bool {
		if byValue {
			if c := compareValues(es[i].value, es[j].value); c != 0 {
				return c < 0
			}
		}
		if c := compareValues(es[i].key, es[j].key); c != 0 {
			return c < 0
		}
		return bytes.Compare(es[i].keyRaw, es[j].keyRaw) < 0
	})
}

func isNumber(v any) bool {
	switch v.(type) {
	case uint64, int64, float64:
		return true
	}
	return false
}

// column is one column of a table: a header and a cell per row.
type column struct {
	name    string
	cells   []string
	numeric bool
}

// flatten turns a decoded value into named cells: a record gives one cell
// per member ("a.b" for nested records), anything else one cell named def.
func flatten(prefix, def string, v any, emit func(name string, v any)) {
	r, ok := v.(Record)
	if !ok {
		if prefix == "" {
			prefix = def
		}
		emit(prefix, v)
		return
	}
	for _, f := range r {
		name := f.Name
		if prefix != "" {
			name = prefix + "." + f.Name
		}
		flatten(name, def, f.Value, emit)
	}
}

// formatTable renders entries as an aligned table with a header row.
func formatTable(name string, ms *ebpf.MapSpec, es []entry, verbose bool) string {
	var cols []*column
	index := map[string]*column{}
	add := func(row int, prefix string) func(string, any) {
		return func(n string, v any) {
			n = prefix + n
			c := index[n]
			if c == nil {
				c = &column{name: n, numeric: true}
				index[n] = c
				cols = append(cols, c)
			}
			for len(c.cells) < row {
				c.cells = append(c.cells, "")
			}
			c.cells = append(c.cells, FormatValue(v))
			c.numeric = c.numeric && isNumber(v)
		}
	}
	keyName := "key"
	if isArray(ms.Type) {
		keyName = "index"
	}
	for i, e := range es {
		flatten("", keyName, e.key, add(i, ""))
		flatten("", "value", e.value, add(i, ""))
		if verbose && e.perCPU != nil {
			cells := make([]string, len(e.perCPU))
			for j, v := range e.perCPU {
				cells[j] = FormatValue(v)
			}
			add(i, "")("per_cpu", rawText("["+strings.Join(cells, " ")+"]"))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s:\n", name)
	for _, c := range cols {
		for len(c.cells) < len(es) {
			c.cells = append(c.cells, "")
		}
	}
	// Column widths are computed once: the table is linear in its cells.
	widths := make([]int, len(cols))
	for i, c := range cols {
		w := utf8.RuneCountInString(c.name)
		for _, s := range c.cells {
			w = max(w, utf8.RuneCountInString(s))
		}
		widths[i] = w
	}
	var line []byte
	for row := -1; row < len(es); row++ {
		line = append(line[:0], ' ')
		for i, c := range cols {
			s := c.name
			if row >= 0 {
				s = c.cells[row]
			}
			line = append(line, ' ')
			pad := widths[i] - utf8.RuneCountInString(s)
			if c.numeric {
				line = appendSpaces(line, pad)
				line = append(line, s...)
			} else {
				line = append(line, s...)
				line = appendSpaces(line, pad)
			}
		}
		b.Write(bytes.TrimRight(line, " "))
		b.WriteByte('\n')
	}
	return b.String()
}

func appendSpaces(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}

// rawText is a preformatted cell.
type rawText string

func (r rawText) String() string { return string(r) }

// jsonEntries is the --json form of a table.
func jsonEntries(name string, ms *ebpf.MapSpec, es []entry, verbose bool) map[string]any {
	rows := make([]map[string]any, 0, len(es))
	for _, e := range es {
		row := map[string]any{"key": e.key, "value": e.value}
		if verbose && e.perCPU != nil {
			row["per_cpu"] = e.perCPU
		}
		rows = append(rows, row)
	}
	return map[string]any{"type": "map", "name": name, "map_type": ms.Type.String(), "entries": rows}
}

func sortStrings(s []string) { sort.Strings(s) }
