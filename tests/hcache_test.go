package tests

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/bpfcc/bpfcc"
	"github.com/bpfcc/bpfcc/frontend"
)

// TestHeaderCacheIdentical: every corpus program compiles to the same
// object without the header cache, with a cold one and with a warm one.
func TestHeaderCacheIdentical(t *testing.T) {
	dir := t.TempDir()
	s0 := frontend.PreambleCounts()
	defer func() {
		s := frontend.PreambleCounts()
		t.Logf("preamble cache: %d compiles read it, %d made its entry, %d refused, %d compiled the whole file again",
			s.Hits-s0.Hits, s.Captures-s0.Captures, s.Refused-s0.Refused, s.Missed-s0.Missed)
		if s.Missed > s0.Missed {
			t.Errorf("%d compiles with the cache failed from the reduced file and compiled the whole file again", s.Missed-s0.Missed)
		}
		if s.Hits == s0.Hits {
			t.Error("no compile read the preamble cache")
		}
	}()
	for _, p := range loadCorpus(t) {
		t.Run(p.Name, func(t *testing.T) {
			want, err := compileBPFCC(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, state := range []string{"cold", "warm"} {
				opts := bpfccOptions(p)
				opts.CacheDir = dir
				got, err := compileWith(p, opts)
				if err != nil {
					t.Fatalf("%s cache: %v", state, err)
				}
				if !bytes.Equal(got.Object, want.Object) {
					t.Errorf("%s cache: the object differs from the one without cache", state)
				}
				if len(got.Warnings) != len(want.Warnings) {
					t.Errorf("%s cache: warnings %v, want %v", state, got.Warnings, want.Warnings)
				}
			}
		})
	}
}

// coreProgram is a CO-RE program against the running kernel's vmlinux.h.
const coreProgram = `#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
struct { __uint(type, BPF_MAP_TYPE_HASH); __uint(max_entries, 64); __type(key, u32); __type(value, u64); } m SEC(".maps");
SEC("tp_btf/sched_switch")
int BPF_PROG(sw, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	u32 ppid = BPF_CORE_READ(next, real_parent, tgid);
	u64 one = 1, *v = bpf_map_lookup_elem(&m, &ppid);
	if (v)
		__sync_fetch_and_add(v, prev->pid);
	else
		bpf_map_update_elem(&m, &ppid, &one, BPF_ANY);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
`

// TestHeaderCacheVmlinux: a vmlinux.h program's object is the same
// without the cache, cold, warm, and with every entry corrupt or holding
// another header's data (stale); the damaged entries only warn.
func TestHeaderCacheVmlinux(t *testing.T) {
	bpftool := bpftoolPath()
	if bpftool == "" {
		skipOrFail(t, "bpftool not installed (apt-get install bpftool): it makes vmlinux.h")
	}
	if _, err := os.Stat("/sys/kernel/btf/vmlinux"); err != nil {
		skipOrFail(t, "no /sys/kernel/btf/vmlinux")
	}
	dir := t.TempDir()
	h, err := exec.Command(bpftool, "btf", "dump", "file", "/sys/kernel/btf/vmlinux", "format", "c").Output()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "core.c")
	for name, b := range map[string][]byte{"vmlinux.h": h, "core.c": []byte(coreProgram)} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Settled from the start (its index is then keyed by its identity):
	// a file written now would settle during the test, and its key change
	// with the machine's speed.
	hour := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "vmlinux.h"), hour, hour); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(dir, "cache")
	compile := func(state, cacheDir string, warnings bool) []byte {
		res, err := bpfcc.Compile(path, bpfcc.Options{CacheDir: cacheDir})
		if err != nil {
			t.Fatalf("%s: %v", state, err)
		}
		if warnings != (len(res.Warnings) > 0) {
			t.Errorf("%s: warnings %v", state, res.Warnings)
		}
		return res.Object
	}
	want := compile("no cache", "", false)
	check := func(state string, warnings bool) {
		if got := compile(state, cache, warnings); !bytes.Equal(got, want) {
			t.Errorf("%s: the object differs from the one without cache", state)
		}
	}
	check("cold", false)
	check("warm", false)
	entries, _ := filepath.Glob(filepath.Join(cache, "*", "*"))
	if len(entries) == 0 {
		t.Fatal("no cache entry written")
	}
	for _, e := range entries {
		b, _ := os.ReadFile(e)
		b[len(b)/2] ^= 1
		os.WriteFile(e, b, 0o644)
	}
	check("corrupt", true)
	check("rewritten", false)

	// Stale: the entry under this vmlinux.h's key holds the index of a
	// smaller header, with a valid checksum.
	other := filepath.Join(dir, "other")
	os.Mkdir(other, 0o755)
	os.WriteFile(filepath.Join(other, "vmlinux.h"), h[:len(h)/2], 0o644)
	os.WriteFile(filepath.Join(other, "core.c"), []byte("#include \"vmlinux.h\"\n"), 0o644)
	otherCache := filepath.Join(dir, "othercache")
	bpfcc.Compile(filepath.Join(other, "core.c"), bpfcc.Options{CacheDir: otherCache})
	stale, _ := filepath.Glob(filepath.Join(otherCache, "*", "*"))
	// Each cache also holds the preamble cache's refusal of vmlinux.h.
	from, to := largest(stale), largest(entries)
	if from == "" || to == "" {
		t.Fatalf("entries: %v and %v, want an index in each", stale, entries)
	}
	b, _ := os.ReadFile(from)
	os.WriteFile(to, b, 0o644)
	check("stale", true)
}

// largest returns the largest of files, or "".
func largest(files []string) string {
	best, size := "", int64(-1)
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.Size() > size {
			best, size = f, st.Size()
		}
	}
	return best
}

// TestHeaderCacheReexpansion: a header's function whose body expanded a
// macro that leaves its own name unexpanded (bpfcc's __builtin_bswap16
// macro calls the builtin) compiles the same from the cache: the cached
// declaration is not expanded a second time.
func TestHeaderCacheReexpansion(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "h.h"), []byte(`#define ntohs_(x) (__builtin_constant_p(x) ? (unsigned short)((x) << 8 | (x) >> 8) : __builtin_bswap16(x))
static inline unsigned short be16(const void *p)
{
	return ntohs_(({ unsigned short v; __builtin_memcpy(&v, p, 2); v; }));
}
`), 0o644)
	path := filepath.Join(dir, "p.c")
	os.WriteFile(path, []byte("#include \"h.h\"\nunsigned char buf[4];\n__attribute__((section(\"xdp\"), used)) int p(void *ctx)\n{\n\treturn be16(buf) + be16(buf + 2);\n}\nchar LICENSE[] __attribute__((section(\"license\"), used)) = \"GPL\";\n"), 0o644)
	want, err := bpfcc.Compile(path, bpfcc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(dir, "cache")
	for _, state := range []string{"cold", "warm"} {
		got, err := bpfcc.Compile(path, bpfcc.Options{CacheDir: cache})
		if err != nil {
			t.Fatalf("%s: %v", state, err)
		}
		if !bytes.Equal(got.Object, want.Object) {
			t.Errorf("%s cache: the object differs from the one without cache:\n%s\nwant:\n%s", state, got.Listing, want.Listing)
		}
	}
}
