package runtime

import (
	"bytes"
	"context"
	"debug/elf"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/btf"
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

// TestTablePrint80k prints 80,000 rows as a table and as JSON. Its speed
// (column widths were once recomputed for every row: 18 s) is measured by
// BenchmarkTablePrint, not asserted here.
func TestTablePrint80k(t *testing.T) {
	ms, es := bigTable(t, 80000)
	var out bytes.Buffer
	printMap(ms.Name, ms, es, &Options{}, &printer{out: &out, errw: &out})
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 80002 || strings.Fields(lines[1])[0] != "key" {
		t.Errorf("table: %d lines, header %q", len(lines), lines[1])
	}
	out.Reset()
	printMap(ms.Name, ms, es, &Options{JSON: true}, &printer{out: &out, errw: &out, json: true})
	if n := strings.Count(out.String(), `"key":`); n != 80000 {
		t.Errorf("json: %d keys, want 80000", n)
	}
}

// BenchmarkTablePrint prints 80,000 rows; linear work keeps it in the tens
// of milliseconds.
func BenchmarkTablePrint(b *testing.B) {
	for _, json := range []bool{false, true} {
		b.Run(map[bool]string{false: "table", true: "json"}[json], func(b *testing.B) {
			ms, es := bigTable(b, 80000)
			for b.Loop() {
				printMap(ms.Name, ms, es, &Options{JSON: json}, &printer{out: io.Discard, errw: io.Discard, json: json})
			}
		})
	}
}

// TestHistTopBuckets: log2 buckets 63 and 64 are [4E, 8E) and [8E, 16E),
// with exact JSON bounds (they overflowed int64).
func TestHistTopBuckets(t *testing.T) {
	ms := &ebpf.MapSpec{Name: "big_hist", Type: ebpf.Array, Key: u32, Value: u64}
	kvs := [][2][]byte{{le32(62), le64(1)}, {le32(63), le64(2)}, {le32(64), le64(3)}}
	text := render(t, ms, kvs, Options{})
	for _, want := range []string{"[2E, 4E)", "[4E, 8E)", "[8E, 16E)"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	js := render(t, ms, kvs, Options{JSON: true})
	for _, want := range []string{
		`{"bucket":63,"count":2,"max":9223372036854775807,"min":4611686018427387904}`,
		`{"bucket":64,"count":3,"max":18446744073709551615,"min":9223372036854775808}`,
	} {
		if !strings.Contains(js, want) {
			t.Errorf("no %s in\n%s", want, js)
		}
	}
	if h, _ := histOf(ms); h.label(1) != "[1]" || h.label(11) != "[1K, 2K)" || h.label(0) != "[0]" {
		t.Errorf("labels: %q %q %q", h.label(0), h.label(1), h.label(11))
	}
}

// TestSplitCommand: -c's text splits like a shell's simple command, and
// what needs a shell is an error rather than a literal argument.
func TestSplitCommand(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  string
	}{
		{in: "", want: nil},
		{in: "  ./t   3 ", want: []string{"./t", "3"}},
		{in: `./t 'a b' "c d" e\ f`, want: []string{"./t", "a b", "c d", "e f"}},
		{in: `python3 -c 'import os; print("x $y")'`, want: []string{"python3", "-c", `import os; print("x $y")`}},
		{in: `echo "a \"q\" \\ \$ b" ''`, want: []string{"echo", `a "q" \ $ b`, ""}},
		{in: `a'b'"c"d`, want: []string{"abcd"}},
		{in: `echo 'x`, err: "unterminated ' quote"},
		{in: `echo "x`, err: `unterminated " quote`},
		{in: `a > f`, err: `'>' needs a shell`},
		{in: `echo $HOME`, err: `'$' needs a shell`},
		{in: `echo "$HOME"`, err: `'$' needs a shell`},
		{in: "a; b", err: `';' needs a shell`},
	} {
		got, err := SplitCommand(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%q = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// TestCharArraysLossless: char arrays decode as strings only when they hold
// text; other bytes print as hex in text and JSON (0xff became "\xff" and
// U+FFFD, and bytes after a NUL were dropped).
func TestCharArraysLossless(t *testing.T) {
	uchar := &btf.Int{Name: "unsigned char", Size: 1}
	arr := func(e btf.Type) *btf.Array { return &btf.Array{Index: u32, Type: e, Nelems: 6} }
	st := &btf.Struct{Name: "ev", Size: 12, Members: []btf.Member{
		{Name: "bytes", Type: arr(uchar)}, {Name: "name", Type: arr(chr), Offset: 48}}}
	for _, tc := range []struct {
		bytes, name    []byte
		text, jsonText string
	}{
		{[]byte{0xff, 0, 0, 0, 0, 0x10}, []byte("abc\x00\x00\x00"), `bytes=0xff0000000010 name=abc`, `{"bytes":"0xff0000000010","name":"abc"}`},
		{[]byte("hi you"), []byte("a\x00\x00x\x00\x00"), `bytes="hi you" name=0x610000780000`, `{"bytes":"hi you","name":"0x610000780000"}`},
		{make([]byte, 6), []byte("é\tz\x00\x00\x00"), `bytes="" name="é\tz"`, `{"bytes":"","name":"é\tz"}`},
		{[]byte{0, 1, 2, 3, 4, 5}, []byte{'a', 0xc3, 0, 0, 0, 0}, `bytes=0x000102030405 name=0x61c300000000`, `{"bytes":"0x000102030405","name":"0x61c300000000"}`},
	} {
		v, err := Decode(st, append(append([]byte{}, tc.bytes...), tc.name...))
		if err != nil {
			t.Fatal(err)
		}
		if got := FormatRecord(v); got != tc.text {
			t.Errorf("text %q, want %q", got, tc.text)
		}
		if got, _ := json.Marshal(v); string(got) != tc.jsonText {
			t.Errorf("json %s, want %s", got, tc.jsonText)
		}
	}
}

// TestHostileObjects: a damaged .bss size is refused before anything is
// allocated (it took 4 GB and 15 s), truncated and empty files say they
// are not ELF objects (was a bare "EOF"), and a BTF the kernel refuses is
// not reported as a verifier rejection.
func TestHostileObjects(t *testing.T) {
	good, err := os.ReadFile("testdata/reject.bpf.o")
	if err != nil {
		t.Fatal(err)
	}
	big, err := os.ReadFile("testdata/bss_4g.bpf.o")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "not a valid ELF object: the file is empty"},
		{"truncated", good[:100], "not a valid ELF object: truncated"},
		{"text", []byte(strings.Repeat("int main;\n", 20)), "not a valid ELF object: bad magic number"},
		{"x86", func() []byte { b := bytes.Clone(good); b[18] = 62; return b }(), "not a valid ELF object: the object is for EM_X86_64, not BPF"},
		{"bss 4 GiB", big, "data section .bss is 4294967295 bytes, over the limit"},
		{"section past the end", patchSection(t, good, ".text", 24, 1<<40), "extends past the end of the"},
		{"huge section", patchSection(t, good, ".text", 32, 1<<40), "extends past the end of the"},
	} {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		before := m.TotalAlloc
		_, err := LoadSpec(bytes.NewReader(tc.b))
		runtime.ReadMemStats(&m)
		if err == nil || !errors.Is(err, ErrLoad) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		if m.TotalAlloc-before > 16<<20 {
			t.Errorf("%s: LoadSpec allocated %d MB", tc.name, (m.TotalAlloc-before)>>20)
		}
	}
	f, _ := os.Open("testdata/bss_4g.bpf.o")
	defer f.Close()
	if _, err := LoadSpec(f); err == nil || !strings.Contains(err.Error(), "over the limit") {
		t.Errorf("from a file: %v", err)
	}

	needKernel(t)
	b, err := os.ReadFile("testdata/btf_reject.bpf.o")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := LoadSpec(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = runSpec(t, spec, Options{Probe: buildTarget(t) + ":work", Duration: time.Millisecond})
	var r *VerifierReport
	if !errors.Is(err, ErrBTF) || errors.Is(err, ErrVerifier) || errors.As(err, &r) || !strings.Contains(err.Error(), "Invalid name") {
		t.Errorf("BTF rejection: %v", err)
	}
	if d := Describe(err); strings.Contains(d, "verifier") || strings.Contains(d, "magic: 0xeb9f") {
		t.Errorf("BTF rejection described as %q", d)
	}
}

// patchSection returns a copy of obj with the 8-byte field at off (24:
// sh_offset, 32: sh_size) of section name's header set to v.
func patchSection(t *testing.T, obj []byte, name string, off int, v uint64) []byte {
	f, err := elf.NewFile(bytes.NewReader(obj))
	if err != nil {
		t.Fatal(err)
	}
	shoff := binary.LittleEndian.Uint64(obj[0x28:])
	for i, s := range f.Sections {
		if s.Name == name {
			b := bytes.Clone(obj)
			binary.LittleEndian.PutUint64(b[int(shoff)+64*i+off:], v)
			return b
		}
	}
	t.Fatalf("no section %s", name)
	return nil
}

// TestDatasecByName: -v prints .bss/.data by variable name from the DATASEC
// (was one raw hex cell keyed "0x"), and a large array is one summary, not
// a 32 MB line.
func TestDatasecByName(t *testing.T) {
	big := &btf.Array{Index: u32, Type: chr, Nelems: 1 << 24}
	ds := &btf.Datasec{Name: ".bss", Size: 16 + 1<<24, Vars: []btf.VarSecinfo{
		{Type: &btf.Var{Name: "total", Type: u64}, Offset: 0, Size: 8},
		{Type: &btf.Var{Name: "name", Type: &btf.Array{Index: u32, Type: chr, Nelems: 8}}, Offset: 8, Size: 8},
		{Type: &btf.Var{Name: "big", Type: big}, Offset: 16, Size: 1 << 24},
	}}
	ms := &ebpf.MapSpec{Name: ".bss", Type: ebpf.Array, Key: u32, Value: ds}
	val := make([]byte, 16+1<<24)
	copy(val, le64(3))
	copy(val[8:], "app")
	val[16+5] = 1
	text := render(t, ms, [][2][]byte{{le32(0), val}}, Options{Verbose: true})
	want := ".bss:\n  total = 3\n  name = app\n  big = <char[16777216]: 16777216 bytes, 1 not zero, first 16: 0x00000000000100000000000000000000>\n\n"
	if text != want {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
	js := render(t, ms, [][2][]byte{{le32(0), val}}, Options{Verbose: true, JSON: true})
	if !strings.Contains(js, `{"name":".bss","type":"data","vars":{"total":3,"name":"app","big":{"type":"char[16777216]","size":16777216,"nonzero":1,"head":"0x00000000000100000000000000000000"}}}`) || len(js) > 1000 {
		t.Errorf("json %s", js)
	}
}

// TestPrintkConcurrentRuns: two runs that print at once each get their own
// lines (each reads its own tracefs instance, limited to its traced
// process): the second got EBUSY on trace_pipe, and the first showed the
// second's lines. No instance is left behind.
func TestPrintkConcurrentRuns(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	spec := printkSpec("uprobe/" + bin + ":work")
	type res struct {
		out, stderr string
		err         error
	}
	results := make(chan res, 2)
	for _, n := range []string{"30", "5"} {
		go func() {
			var out, errb bytes.Buffer
			err := Run(context.Background(), spec, Options{Command: []string{bin, n}, Stdout: &out, Stderr: &errb})
			results <- res{out.String(), errb.String(), err}
		}()
	}
	var outs []string
	for range 2 {
		r := <-results
		if r.err != nil || r.stderr != "" {
			t.Fatalf("Run: %v\n%s", r.err, r.stderr)
		}
		outs = append(outs, r.out)
	}
	slices.Sort(outs)
	want := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "n=%d\n", i)
		}
		return b.String()
	}
	if want(30) != outs[0] && want(30) != outs[1] || want(5) != outs[0] && want(5) != outs[1] {
		t.Errorf("outputs %q, want n=0..29 and n=0..4", outs)
	}
	if left, _ := filepath.Glob("/sys/kernel/tracing/instances/" + instancePrefix + "*"); len(left) > 0 {
		t.Errorf("instances left: %v", left)
	}
}
