package frontend

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/bpfcc/bpfcc/frontend/hcache"
)

// coreProgram is a CO-RE program against the running kernel's vmlinux.h:
// a tp_btf handler reading through BPF_CORE_READ, and a BPF_PROG2 handler
// with many arguments, whose macro expansion is deep (cc's hide sets).
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
long r;
SEC("fentry/f")
int BPF_PROG2(many, __u64, a, void *, b, short, c, int, d, void *, e, char, f, int, g, long, h, int, i)
{
	r = a + c + d + f + g + h + i;
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
`

// BenchmarkParseVmlinux measures Parse of coreProgram: cold (no header
// cache: vmlinux.h is split and indexed) and warm (the index comes from the
// cache), as the bpfcc command compiles it. It needs bpftool and the
// kernel's BTF to make vmlinux.h.
func BenchmarkParseVmlinux(b *testing.B) {
	bpftool, err := exec.LookPath("bpftool")
	if err != nil {
		b.Skip("bpftool not installed: it makes vmlinux.h")
	}
	h, err := exec.Command(bpftool, "btf", "dump", "file", "/sys/kernel/btf/vmlinux", "format", "c").Output()
	if err != nil {
		b.Skipf("no kernel BTF: %v", err)
	}
	dir := b.TempDir()
	path := filepath.Join(dir, "core.c")
	for name, text := range map[string][]byte{"vmlinux.h": h, "core.c": []byte(coreProgram)} {
		if err := os.WriteFile(filepath.Join(dir, name), text, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	saved := sourceCache
	sourceCache = nil
	defer func() { sourceCache = saved }()
	run := func(b *testing.B, c *hcache.Cache) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Parse(path, Options{Cache: c}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("cold", func(b *testing.B) { run(b, nil) })
	c := hcache.Open(filepath.Join(dir, "cache"))
	if _, err := Parse(path, Options{Cache: c}); err != nil {
		b.Fatal(err)
	}
	b.Run("warm", func(b *testing.B) { run(b, c) })
}
