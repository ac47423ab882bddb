package abi

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cilium/ebpf"
)

// libbpfTree finds the kernel tree the real-world suite extracts into the
// test cache (tests/realworld), whose tools/lib/bpf is libbpf 1.5.
func libbpfTree(t *testing.T) string {
	root := os.Getenv("BPFCC_TEST_CACHE")
	if root == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			t.Skipf("no cache directory: %v", err)
		}
		root = filepath.Join(d, "bpfcc-tests")
	}
	m, _ := filepath.Glob(filepath.Join(root, "linux-source-6.12-*", "linux-source-6.12", "tools", "lib", "bpf", "libbpf.c"))
	if len(m) == 0 {
		t.Skipf("libbpf 1.5's sources are not in %s (go test ./tests/realworld extracts them)", root)
	}
	return strings.TrimSuffix(m[0], "/tools/lib/bpf/libbpf.c")
}

// enumValues reads a sequential enum of the uapi bpf.h: NAME -> value.
func enumValues(t *testing.T, src, enum string) map[string]uint32 {
	i := strings.Index(src, "enum "+enum+" {")
	if i < 0 {
		t.Fatalf("bpf.h: no enum %s", enum)
	}
	body := src[i:]
	body = body[strings.IndexByte(body, '{')+1 : strings.Index(body, "};")]
	out := map[string]uint32{}
	n := uint32(0)
	for _, line := range strings.Split(body, "\n") {
		line, _, _ = strings.Cut(line, "/*")
		name, _, _ := strings.Cut(strings.TrimSpace(line), ",")
		name, _, _ = strings.Cut(name, "=")
		name = strings.TrimSpace(name)
		if name == "" || strings.HasPrefix(name, "__") {
			continue
		}
		out[name] = n
		n++
	}
	return out
}

var secDefRE = regexp.MustCompile(`(?m)^\s*SEC_DEF\("([^"]+)",\s*(\w+),\s*(\w+),\s*([\w |]+?)\s*(?:,\s*(\w+)\s*)?\)`)

// TestSectionsMatchLibbpf compares Sections with section_defs of libbpf.c
// 1.5: names, order, '+', program types, attach types and flags.
func TestSectionsMatchLibbpf(t *testing.T) {
	tree := libbpfTree(t)
	lib, err := os.ReadFile(filepath.Join(tree, "tools/lib/bpf/libbpf.c"))
	if err != nil {
		t.Fatal(err)
	}
	uapi, err := os.ReadFile(filepath.Join(tree, "tools/include/uapi/linux/bpf.h"))
	if err != nil {
		t.Fatal(err)
	}
	progs := enumValues(t, string(uapi), "bpf_prog_type")
	attaches := enumValues(t, string(uapi), "bpf_attach_type")
	flags := map[string]SectionFlags{"SEC_NONE": 0, "SEC_ATTACHABLE": Attachable, "SEC_ATTACHABLE_OPT": AttachableOpt,
		"SEC_ATTACH_BTF": AttachBTF, "SEC_SLEEPABLE": Sleepable, "SEC_XDP_FRAGS": XDPFrags, "SEC_USDT": USDT}
	defs := secDefRE.FindAllStringSubmatch(string(lib), -1)
	if len(defs) != len(Sections) {
		t.Errorf("libbpf has %d section definitions, Sections %d", len(defs), len(Sections))
	}
	for i, m := range defs {
		if i >= len(Sections) {
			break
		}
		d := Sections[i]
		prefix, plus := strings.CutSuffix(m[1], "+")
		var want SectionFlags
		for _, f := range strings.Split(m[4], "|") {
			v, ok := flags[strings.TrimSpace(f)]
			if !ok {
				t.Fatalf("%s: unknown flag %q", m[1], f)
			}
			want |= v
		}
		attach := ebpf.AttachNone
		if m[3] != "0" {
			v, ok := attaches[m[3]]
			if !ok {
				t.Fatalf("%s: unknown attach type %s", m[1], m[3])
			}
			attach = ebpf.AttachType(v)
		}
		prog, ok := progs["BPF_PROG_TYPE_"+m[2]]
		if !ok {
			t.Fatalf("%s: unknown program type %s", m[1], m[2])
		}
		if d.Prefix != prefix || d.Target != plus || d.Program != ebpf.ProgramType(prog) || d.Attach != attach || d.Flags != want {
			t.Errorf("Sections[%d] = %+v, libbpf: %s", i, d, m[0])
		}
		// Kind follows libbpf's attach function where bpfcc's loader has
		// the same one.
		kinds := map[string]Kind{"attach_kprobe": KindKprobe, "attach_uprobe": KindUprobe, "attach_tp": KindTracepoint,
			"attach_raw_tp": KindRawTracepoint, "attach_lsm": KindLSM}
		if k, ok := kinds[m[5]]; ok && d.Kind != k {
			t.Errorf("%s: kind %v, libbpf attaches it with %s", m[1], d.Kind, m[5])
		}
	}
}
