#!/bin/sh
# hcache.sh: bpfcc's compile CPU time against clang-19 -O2 -g, with the
# header cache cold (an empty cache directory each run) and warm (after one
# compile), for three programs: an XDP parser with uapi and libbpf headers
# (tests/testdata/xdp_parse_counts.c), a vmlinux.h CO-RE program (vmlinux.h
# dumped from the running kernel by bpftool) and an empty program.
#
#   bench/hcache.sh [RUNS]
#
# Each figure is the median over RUNS (default 11) of the process's CPU
# time (perf stat's task-clock: user and system time of all its threads),
# compilers run alternately so that load affects both alike. BPFCC=PATH
# times a bpfcc binary built elsewhere (another commit) instead.
set -eu
cd "$(dirname "$0")/.."
runs=${1:-11}
clang=${CLANG:-clang-19}
command -v "$clang" >/dev/null || { echo "hcache.sh: $clang not installed" >&2; exit 1; }
command -v perf >/dev/null || { echo "hcache.sh: perf not installed (apt-get install linux-perf)" >&2; exit 1; }
. bench/lib.sh
bench_tmp
bench_bpfcc

cp tests/testdata/xdp_parse_counts.c "$tmp/xdp.c"
printf 'char LICENSE[] __attribute__((section("license"), used)) = "GPL";\n' >"$tmp/empty.c"
progs="xdp empty"
if command -v bpftool >/dev/null && [ -r /sys/kernel/btf/vmlinux ]; then
	bpftool btf dump file /sys/kernel/btf/vmlinux format c >"$tmp/vmlinux.h"
	cat >"$tmp/core.c" <<'C'
#include "vmlinux.h"
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
C
	progs="xdp core empty"
else
	echo "hcache.sh: no bpftool or kernel BTF: skipping the vmlinux.h program" >&2
fi

# cpu NAME CMD...: append CMD's CPU milliseconds to $tmp/NAME.
cpu() {
	name=$1
	shift
	perf stat -x, -e task-clock -o "$tmp/perf" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
	awk -F, '/task-clock/ { print $1 }' "$tmp/perf" >>"$tmp/$name"
}
median() { sort -n "$tmp/$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "median CPU ms over $runs runs; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %9s %9s %9s %11s %11s\n' program clang cold warm "cold/clang" "warm/clang"
for p in $progs; do
	src="$tmp/$p.c"
	: >"$tmp/$p.clang"
	: >"$tmp/$p.cold"
	: >"$tmp/$p.warm"
	XDG_CACHE_HOME="$tmp/warm" "$tmp/bpfcc" "$src" -o "$tmp/out.o" # fill the warm cache
	i=0
	while [ "$i" -lt "$runs" ]; do
		cpu "$p.clang" "$clang" -target bpf -O2 -g -I/usr/include/x86_64-linux-gnu -c "$src" -o "$tmp/clang.o"
		rm -rf "$tmp/cold"
		cpu "$p.cold" env XDG_CACHE_HOME="$tmp/cold" "$tmp/bpfcc" "$src" -o "$tmp/out.o"
		cpu "$p.warm" env XDG_CACHE_HOME="$tmp/warm" "$tmp/bpfcc" "$src" -o "$tmp/out.o"
		i=$((i + 1))
	done
	c=$(median "$p.clang")
	k=$(median "$p.cold")
	w=$(median "$p.warm")
	awk -v p="$p" -v c="$c" -v k="$k" -v w="$w" 'BEGIN { printf "%-6s %9.1f %9.1f %9.1f %11.2f %11.2f\n", p, c, k, w, k / c, w / c }'
done
