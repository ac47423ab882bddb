package runtime

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/cilium/ebpf"
)

// bigTable returns n decoded entries of a hash map u64 -> u64.
func bigTable(t testing.TB, n int) (*ebpf.MapSpec, []entry) {
	ms := &ebpf.MapSpec{Name: "seen", Type: ebpf.Hash, Key: u64, Value: u64}
	es := make([]entry, 0, n)
	for i := range n {
		e, err := decodeEntry(ms, le64(uint64(i*7919)), [][]byte{le64(1)}, false)
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, e)
	}
	return ms, es
}

// TestTablePrintLinear: 80,000 rows print in well under a second (column
// widths were recomputed for every row: 18 s).
func TestTablePrintLinear(t *testing.T) {
	for _, json := range []bool{false, true} {
		ms, es := bigTable(t, 80000)
		var out bytes.Buffer
		start := time.Now()
		printMap(ms.Name, ms, es, &Options{JSON: json}, &printer{out: &out, errw: &out, json: json})
		d := time.Since(start)
		t.Logf("json=%v: 80000 rows in %v (%d bytes)", json, d, out.Len())
		if d > time.Second {
			t.Errorf("json=%v: 80000 rows took %v", json, d)
		}
		if !json {
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if len(lines) != 80002 || strings.Fields(lines[1])[0] != "key" {
				t.Errorf("table: %d lines, header %q", len(lines), lines[1])
			}
		}
	}
}
