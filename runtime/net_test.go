package runtime

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/link"
	"golang.org/x/sys/unix"
)

// TestXDPAndRawTracepoint attaches an XDP program to lo and a raw
// tracepoint in one run, checks both links exist while running, and that the
// raw tracepoint counted into a per-CPU array (summed, and per CPU with -v).
func TestXDPAndRawTracepoint(t *testing.T) {
	needKernel(t)
	spec := &ebpf.CollectionSpec{
		Maps: map[string]*ebpf.MapSpec{
			"hits": {Name: "hits", Type: ebpf.PerCPUArray, KeySize: 4, ValueSize: 8, MaxEntries: 1, Key: u32, Value: u64},
		},
		Programs: map[string]*ebpf.ProgramSpec{
			"pass": {Name: "pass", SectionName: "xdp", License: "GPL", Instructions: asm.Instructions{
				asm.Mov.Imm(asm.R0, 2).WithSymbol("pass"), asm.Return()}}, // XDP_PASS
			"enter": program("enter", "raw_tp/sys_enter", asm.Instructions{
				asm.StoreImm(asm.RFP, -4, 0, asm.Word),
			}, increment("hits", -4, "r")),
		},
	}
	spec.Programs["enter"].Type = ebpf.UnspecifiedProgram // inferred from the section
	var kinds []string
	out, stderr, err := runSpec(t, spec, Options{Iface: "lo", Duration: 200 * time.Millisecond, Verbose: true, Ready: func() {
		it := new(link.Iterator)
		for it.Next() {
			if info, err := it.Take().Info(); err == nil {
				kinds = append(kinds, fmt.Sprint(info.Type))
			}
		}
		for i := 0; i < 10; i++ {
			unix.Getpid()
		}
	}})
	if err != nil {
		t.Fatalf("%v\n%s", Describe(err), stderr)
	}
	joined := strings.Join(kinds, ",")
	if !strings.Contains(joined, fmt.Sprint(link.XDPType)) || !strings.Contains(joined, fmt.Sprint(link.RawTracepointType)) {
		t.Errorf("links while running: %v", kinds)
	}
	m := regexp.MustCompile(`(?m)^hits:\n +index +value +per_cpu\n +0 +(\d+) +\[([\d ]+)\]$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no per-CPU table:\n%s", out)
	}
	var sum, n int
	for _, f := range strings.Fields(m[2]) {
		var x int
		if _, err := fmtSscan(f, &x); err == nil {
			sum += x
		}
		n++
	}
	if total := atoi(m[1]); total < 10 || total != sum || n < 1 {
		t.Errorf("sum %s, per-CPU %s", m[1], m[2])
	}
	if !strings.Contains(stderr, "verifier log") {
		t.Errorf("-v printed no verifier log:\n%.500s", stderr)
	}
	_ = context.Background
}
