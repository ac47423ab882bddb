package runtime

import (
	"strings"
	"testing"

	"github.com/cilium/ebpf"
)

// The read-error counters are reported by handler, variable and probe, and
// zero counters are left out.
func TestReadErrorsNamed(t *testing.T) {
	spec := &ebpf.CollectionSpec{Programs: map[string]*ebpf.ProgramSpec{
		"h":        {SectionName: "uprobe//bin/app:server_loop+0x2f"},
		"h_2":      {SectionName: "uprobe.s//bin/app:work+0x10"},
		"h__entry": {SectionName: "uprobe//bin/app:server_loop+0x0"},
	}}
	es := []entry{{value: Record{{"h__id", uint64(10)}, {"h__i", uint64(0)}, {"h_2__st_count", uint64(3)}}}}
	got := readErrors(spec, es)
	if len(got) != 2 || got[0] != (readError{"h", "server_loop+0x2f", "id", 10}) || got[1] != (readError{"h_2", "work+0x10", "st_count", 3}) {
		t.Fatalf("readErrors = %+v", got)
	}
	text := formatReadErrors(got)
	for _, want := range []string{"handler", "variable", "h        id", "server_loop+0x2f", "h_2      st_count"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "index") {
		t.Errorf("report shows array indices:\n%s", text)
	}
}

// The saved entry registers are internal; the read-error counters are not.
func TestEntryRegsHidden(t *testing.T) {
	if dumpable(&ebpf.MapSpec{Name: "__bpfcc_entry_regs", Type: ebpf.LRUHash}, false) {
		t.Error("__bpfcc_entry_regs is printed")
	}
	if !dumpable(&ebpf.MapSpec{Name: readErrorsMap, Type: ebpf.Array}, false) {
		t.Error("__bpfcc_read_errors is not printed")
	}
}
