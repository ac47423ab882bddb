package tests

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc"
	"github.com/bpfcc/bpfcc/frontend"
)

// Programs written against the running kernel's vmlinux.h compile to the
// same object whether bpfcc prunes the header (the default) or reads all
// of it, and pruning leaves most of it out.
func TestVmlinuxPruningKeepsCode(t *testing.T) {
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
	if err := os.WriteFile(filepath.Join(dir, "vmlinux.h"), h, 0o644); err != nil {
		t.Fatal(err)
	}
	progs := map[string]string{
		"exec.c": `#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
struct { __uint(type, BPF_MAP_TYPE_HASH); __uint(max_entries, 64); __type(key, u32); __type(value, u64); } m SEC(".maps");
SEC("tp/sched/sched_process_exec")
int on_exec(struct trace_event_raw_sched_process_exec *ctx)
{
	struct task_struct *t = (struct task_struct *)bpf_get_current_task();
	u32 ppid = BPF_CORE_READ(t, real_parent, tgid);
	u64 v = (u64)BPF_CORE_READ(t, mm, arg_start), *p;
	unsigned off = ctx->__data_loc_filename & 0xFFFF;
	if (bpf_core_field_exists(t->se.vruntime))
		v += off;
	v += bpf_core_enum_value(enum bpf_map_type, BPF_MAP_TYPE_HASH);
	struct pid *pid = BPF_CORE_READ(t, thread_pid);
	struct upid up;
	bpf_core_read(&up, sizeof(up), &pid->numbers[0]);
	v += up.nr;
	p = bpf_map_lookup_elem(&m, &ppid);
	if (p)
		*p += v;
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
`,
		"kprobe.c": `#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
SEC("kprobe/do_unlinkat")
int BPF_KPROBE(unlink, int dfd, struct filename *name)
{
	const char *fn = BPF_CORE_READ(name, name);
	bpf_printk("unlink %s %d", fn, dfd);
	return 0;
}
SEC("tp_btf/sched_switch")
int BPF_PROG(sw, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	return prev->pid == next->pid && next->__state == 0 && next->in_iowait;
}
char LICENSE[] SEC("license") = "GPL";
`,
	}
	for name, src := range progs {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		compile := func(prune bool) *bpfcc.Result {
			frontend.PruneVmlinux = prune
			defer func() { frontend.PruneVmlinux = true }()
			res, err := bpfcc.Compile(path, bpfcc.Options{})
			if err != nil {
				t.Fatalf("%s, prune=%v: %v", name, prune, err)
			}
			return res
		}
		pruned, whole := compile(true), compile(false)
		if pruned.Listing != whole.Listing {
			t.Errorf("%s: listings differ:\npruned:\n%s\nwhole:\n%s", name, pruned.Listing, whole.Listing)
		}
		if len(pruned.Object)*4 > len(whole.Object) {
			t.Errorf("%s: pruned object %d bytes, whole %d: pruning kept too much", name, len(pruned.Object), len(whole.Object))
		}
		if !strings.Contains(pruned.Listing, "CO-RE") {
			t.Errorf("%s: no CO-RE relocations in\n%s", name, pruned.Listing)
		}
		// A member of a local copy of a kernel record relocates too.
		if name == "exec.c" && !strings.Contains(pruned.Listing, "CO-RE <byte_off> struct upid::nr (0:0)") {
			t.Errorf("up.nr is not relocated:\n%s", pruned.Listing)
		}
		// A CO-RE bit-field is read as clang does: the unit libbpf
		// relocates (its type's size, here 4 bytes), not cc's byte.
		if name == "kprobe.c" && !regexp.MustCompile(`= \*\(u32 \*\)\(r\d \+ \d+\)\n +; CO-RE <byte_off> struct task_struct::in_iowait`).MatchString(pruned.Listing) {
			t.Errorf("in_iowait is not read as a relocated 4-byte unit:\n%s", pruned.Listing)
		}
	}
}
