package helperdefs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fake builds a small linux/bpf.h with the given documentation entries and
// mapper macro.
func fake(docs, mapper string) []byte {
	return []byte("/* header\n * Start of BPF helper function descriptions:\n *\n" + docs + " */\n" + mapper)
}

const oldMapper = `#define __BPF_FUNC_MAPPER(FN)		\
	FN(unspec),			\
	FN(map_lookup_elem),		\
	FN(ktime_get_ns),		\
	FN(get_socket_cookie),		\
	FN(trace_printk),		\
	/* */
`

const newMapper = `#define ___BPF_FUNC_MAPPER(FN, ctx...)			\
	FN(unspec, 0, ##ctx)				\
	FN(map_lookup_elem, 1, ##ctx)			\
	FN(ktime_get_ns, 5, ##ctx)			\
	FN(get_socket_cookie, 46, ##ctx)		\
	FN(trace_printk, 6, ##ctx)			\
	/* */
#define __BPF_FUNC_MAPPER_APPLY(name, value, FN) FN(name),
#define __BPF_FUNC_MAPPER(FN) ___BPF_FUNC_MAPPER(__BPF_FUNC_MAPPER_APPLY, FN)
`

// The two comment decorations found in real headers: " * \t" and " *\t".
const docs = ` * void *bpf_map_lookup_elem(struct bpf_map *map, const void *key)
 * 	Description
 * 		Look up.
 * 	Return
 * 		Value.
 *
 * u64 bpf_ktime_get_ns(void)
 *	Description
 *		Time. Mentions bpf_foo(int x) in passing.
 *	Return
 *		Now.
 *
 * long bpf_trace_printk(const char *fmt, u32 fmt_size, ...)
 *	Description
 *		Print.
 *
 * u64 bpf_get_socket_cookie(struct sk_buff *skb)
 *	Description
 *		Cookie.
 *
 * u64 bpf_get_socket_cookie(struct bpf_sock_addr *ctx)
 *	Description
 *		Cookie.
`

func TestParseBothMapperFormats(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mapper string
		ids    map[string]int
	}{
		{"positional", oldMapper, map[string]int{"bpf_map_lookup_elem": 1, "bpf_ktime_get_ns": 2, "bpf_get_socket_cookie": 3, "bpf_trace_printk": 4}},
		{"explicit", newMapper, map[string]int{"bpf_map_lookup_elem": 1, "bpf_ktime_get_ns": 5, "bpf_get_socket_cookie": 46, "bpf_trace_printk": 6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := Parse(fake(docs, tc.mapper))
			if err != nil {
				t.Fatal(err)
			}
			if len(h.Helpers) != len(tc.ids) {
				t.Fatalf("got %d helpers, want %d", len(h.Helpers), len(tc.ids))
			}
			for i, hp := range h.Helpers {
				if want := tc.ids[hp.Name]; hp.ID != want {
					t.Errorf("%s: id %d, want %d", hp.Name, hp.ID, want)
				}
				if i > 0 && h.Helpers[i-1].ID >= hp.ID {
					t.Errorf("helpers not in id order at %s", hp.Name)
				}
			}
		})
	}
}

func TestDecls(t *testing.T) {
	h, err := Parse(fake(docs, newMapper))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, hp := range h.Helpers {
		got[hp.Name] = hp.Decl()
	}
	want := map[string]string{
		"bpf_map_lookup_elem":   "static void *(* const bpf_map_lookup_elem)(void *map, const void *key) = (void *) 1;",
		"bpf_ktime_get_ns":      "static __u64 (* const bpf_ktime_get_ns)(void) = (void *) 5;",
		"bpf_trace_printk":      "static long (* const bpf_trace_printk)(const char *fmt, __u32 fmt_size, ...) = (void *) 6;",
		"bpf_get_socket_cookie": "static __u64 (* const bpf_get_socket_cookie)(void *ctx) = (void *) 46;",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s:\n got %s\nwant %s", name, got[name], w)
		}
	}
	// Forward declarations: struct bpf_map is mapped away, sk_buff renamed.
	if s := strings.Join(h.Structs, " "); s != "__sk_buff bpf_sock_addr" {
		t.Errorf("structs = %q", s)
	}
	out := string(Generate(h))
	for _, w := range []string{"struct __sk_buff;\n", "struct bpf_sock_addr;\n", want["bpf_ktime_get_ns"] + "\n", "DO NOT EDIT"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q", w)
		}
	}
	if sum, ok := InputSum([]byte(out)); !ok || sum != fmt.Sprintf("%x", h.Sum) {
		t.Errorf("InputSum = %q, %v", sum, ok)
	}
}

func TestMapType(t *testing.T) {
	for in, want := range map[string]string{
		"u32":                   "__u32",
		"struct bpf_map *":      "void *",
		"const struct sk_buff*": "const struct __sk_buff *",
		"struct xdp_buff *":     "struct xdp_md *",
		"char **":               "char **",
		"size_t":                "unsigned long",
		"__be32 *":              "__be32 *",
	} {
		got, err := mapType(in)
		if err != nil || got != want {
			t.Errorf("mapType(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := mapType("pid_t"); !errors.Is(err, ErrFormat) {
		t.Errorf("mapType(pid_t): err = %v, want ErrFormat", err)
	}
}

func TestParseErrors(t *testing.T) {
	undocumented := " * long bpf_nope(u32 x)\n *\tDescription\n *\t\tNot in the mapper.\n"
	unknownType := " * long bpf_ktime_get_ns(pid_t x)\n *\tDescription\n *\t\tBad type.\n"
	noName := " * long bpf_ktime_get_ns(u32)\n *\tDescription\n *\t\tNo name.\n"
	overloadArity := docs + " * u64 bpf_get_socket_cookie(void *ctx, u32 x)\n *\tDescription\n *\t\tX.\n"
	for name, src := range map[string][]byte{
		"no doc block":      []byte(newMapper),
		"no mapper":         fake(docs, ""),
		"undocumented":      fake(undocumented, newMapper),
		"unknown type":      fake(unknownType, newMapper),
		"unnamed parameter": fake(noName, newMapper),
		"overload arity":    fake(overloadArity, newMapper),
		"duplicate id":      fake(docs, strings.Replace(newMapper, "ktime_get_ns, 5", "ktime_get_ns, 1", 1)),
	} {
		if _, err := Parse(src); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: err = %v, want ErrFormat", name, err)
		}
	}
}

// TestCommittedUpToDate regenerates the committed header from the system's
// linux/bpf.h when it is the header the committed file was made from, so a
// change to the generator without go generate fails here.
func TestCommittedUpToDate(t *testing.T) {
	committed, err := os.ReadFile(filepath.FromSlash("../../compat/bpf/bpf_helper_defs.h"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("/usr/include/linux/bpf.h")
	if err != nil {
		t.Skipf("no system linux/bpf.h: %v", err)
	}
	h, err := Parse(src)
	if err != nil {
		t.Fatalf("system linux/bpf.h: %v", err)
	}
	sum, ok := InputSum(committed)
	if !ok {
		t.Fatal("committed header records no input checksum")
	}
	if sum != fmt.Sprintf("%x", h.Sum) {
		t.Skipf("system linux/bpf.h (sha256 %x) is not the one bpf_helper_defs.h was generated from (%s); "+
			"run go generate in include to move to it", h.Sum, sum)
	}
	if got := Generate(h); !bytes.Equal(got, committed) {
		t.Errorf("compat/bpf/bpf_helper_defs.h is stale: run go generate in include")
	}
}
