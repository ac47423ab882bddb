package runtime

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/btf"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// golden compares got with testdata/NAME.golden (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s:\n--- got\n%s--- want\n%s", name, path, got, want)
	}
}

func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func le64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

func eventBytes(pid uint32, n int32, comm string) []byte {
	b := append(le32(pid), le32(uint32(n))...)
	c := make([]byte, 16)
	copy(c, comm)
	return append(b, c...)
}

// render runs printMap over raw entries, as dumpMaps does with a live map.
func render(t *testing.T, ms *ebpf.MapSpec, kvs [][2][]byte, opts Options) string {
	t.Helper()
	var es []entry
	for _, kv := range kvs {
		e, err := decodeEntry(ms, kv[0], [][]byte{kv[1]}, false)
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, e)
	}
	var out bytes.Buffer
	printMap(ms.Name, ms, es, &opts, &printer{out: &out, errw: &out, json: opts.JSON})
	return out.String()
}

func TestGoldenOutput(t *testing.T) {
	key := &btf.Struct{Name: "key", Size: 20, Members: []btf.Member{
		{Name: "pid", Type: u32}, {Name: "comm", Type: &btf.Array{Index: u32, Type: chr, Nelems: 16}, Offset: 32}}}
	table := &ebpf.MapSpec{Name: "calls", Type: ebpf.Hash, Key: key, Value: u64}
	k := func(pid uint32, comm string) []byte {
		c := make([]byte, 16)
		copy(c, comm)
		return append(le32(pid), c...)
	}
	tableKVs := [][2][]byte{{k(300, "sh"), le64(2)}, {k(12, "target"), le64(100)}, {k(7, "init"), le64(2)}}
	hist := &ebpf.MapSpec{Name: "lat_hist", Type: ebpf.Array, Key: u32, Value: u64}
	var histKVs [][2][]byte
	for i, c := range []uint64{0, 3, 0, 10, 25, 40, 7, 0, 0, 0, 0, 1} {
		histKVs = append(histKVs, [2][]byte{le32(uint32(i)), le64(c)})
	}
	lhist := &ebpf.MapSpec{Name: "size", Type: ebpf.Hash, Key: u32, Value: u64, Tags: []string{LHistTag + ":100:50"}}
	lhistKVs := [][2][]byte{{le32(0), le64(4)}, {le32(2), le64(8)}, {le32(3), le64(1)}}
	heatKey := &btf.Struct{Name: "hk", Size: 8, Members: []btf.Member{{Name: "cpu", Type: u32}, {Name: "bucket", Type: u32, Offset: 32}}}
	heat := &ebpf.MapSpec{Name: "lat_hist", Type: ebpf.Hash, Key: heatKey, Value: u64}
	var heatKVs [][2][]byte
	for cpu := uint32(0); cpu < 3; cpu++ {
		for b := uint32(1); b < 9; b++ {
			heatKVs = append(heatKVs, [2][]byte{append(le32(cpu), le32(b+cpu)...), le64(uint64(b * (cpu + 1)))})
		}
	}
	// More groups than get a histogram each: a heat map.
	var manyKVs [][2][]byte
	for cpu := uint32(0); cpu < maxGroupHists+2; cpu++ {
		for b := uint32(1); b < 5; b++ {
			manyKVs = append(manyKVs, [2][]byte{append(le32(cpu), le32(b+cpu%3)...), le64(uint64(b * (cpu + 1)))})
		}
	}
	var s strings.Builder
	s.WriteString(render(t, table, tableKVs, Options{}))
	s.WriteString(render(t, hist, histKVs, Options{}))
	s.WriteString(render(t, lhist, lhistKVs, Options{}))
	s.WriteString(render(t, heat, heatKVs, Options{}))
	s.WriteString(render(t, heat, manyKVs, Options{}))
	// BPFCC_HIST's map: the last of its 66 entries counts values below 0.
	signed := &ebpf.MapSpec{Name: "ret_hist", Type: ebpf.Array, Key: u32, Value: u64, MaxEntries: 66, Tags: []string{"bpfcc:hist:signed"}}
	signedKVs := [][2][]byte{{le32(0), le64(1)}, {le32(3), le64(5)}, {le32(65), le64(2)}}
	s.WriteString(render(t, signed, signedKVs, Options{}))
	var ev bytes.Buffer
	p := &printer{out: &ev, errw: &ev}
	v, _ := Decode(eventType, eventBytes(42, -3, "my app"))
	p.event("events", v, nil)
	p.lost("events", 5)
	p.printk("target", 42, "n=1")
	s.WriteString(ev.String())
	golden(t, "output", s.String())

	var j strings.Builder
	j.WriteString(render(t, table, tableKVs, Options{JSON: true}))
	j.WriteString(render(t, hist, histKVs, Options{JSON: true}))
	j.WriteString(render(t, heat, heatKVs[:3], Options{JSON: true}))
	ev.Reset()
	p.json = true
	p.event("events", v, nil)
	p.lost("events", 5)
	p.printk("target", 42, "n=1")
	j.WriteString(ev.String())
	golden(t, "output_json", j.String())
}

func TestGoldenVerifierReport(t *testing.T) {
	r := &VerifierReport{Program: "bad", Reason: "R0 invalid mem access 'map_value_or_null'", Insn: 7,
		Instruction: "r0 = *(u64 *)(r0 +0)", File: "prog.c", Line: 20, Column: 9, SourceLine: "\treturn *v;",
		Log: []string{"0: R1=ctx() R10=fp0", "7: (79) r0 = *(u64 *)(r0 +0)", "R0 invalid mem access 'map_value_or_null'"}}
	golden(t, "verifier_report", Describe(errors.Join(ErrLoad, r))+"\n")
}

func TestNewReportFromLog(t *testing.T) {
	log := []string{
		"0: R1=ctx() R10=fp0",
		"; __u32 key = 0; @ prog.c:18",
		"0: (b7) r1 = 0                        ; R1_w=0",
		"; return *v; @ prog.c:20",
		"7: (79) r0 = *(u64 *)(r0 +0)",
		"R0 invalid mem access 'map_value_or_null'",
		"processed 7 insns (limit 1000000) max_states_per_insn 0 total_states 0 peak_states 0 mark_read 0",
	}
	r := newReport(&ebpf.CollectionSpec{}, "bad", &ebpf.VerifierError{Log: log}, "")
	if r.Insn != 7 || r.Line != 20 || r.File != "prog.c" || r.SourceLine != "return *v;" || r.Reason != "R0 invalid mem access 'map_value_or_null'" {
		t.Errorf("report = %+v", r)
	}
	r = newReport(&ebpf.CollectionSpec{}, "x", &ebpf.VerifierError{Log: []string{"unknown func bpf_foo#999"}}, "")
	if r.Insn != -1 || r.Reason != "unknown func bpf_foo#999" || r.File != "" {
		t.Errorf("report without instructions = %+v", r)
	}
}
