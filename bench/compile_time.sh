#!/bin/sh
# compile_time.sh: bpfcc's whole-process compile time against clang-19 -O2 for
# a program that includes libbpf's headers (the issue's target: ratio <= 0.3).
#
#   bench/compile_time.sh [RUNS] [FILE.c]
#
# bench/testdata/loops64.c and nested3x16.c time the loop unroller.
#
# Builds cmd/bpfcc, then runs each compiler RUNS times (default 20)
# alternately, after one warm-up run each, and prints the mean and minimum
# wall time, mean CPU time (user+sys), peak RSS and the bpfcc/clang ratios.
# Set GOGC (e.g. GOGC=off) in the environment to see its effect on bpfcc.
set -eu
cd "$(dirname "$0")/.."
runs=${1:-20}
src=${2:-tests/testdata/xdp_parse_counts.c}
clang=${CLANG:-clang-19}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/bpfcc.bin" ./cmd/bpfcc
command -v "$clang" >/dev/null || { echo "compile_time.sh: $clang not installed" >&2; exit 1; }

# run NAME CMD...: one timed run of CMD, appended to $tmp/NAME as
# "wall_ns cpu_s rss_kb".
run() {
	name=$1
	shift
	t0=$(date +%s%N)
	/usr/bin/time -f '%U %S %M' -o "$tmp/$name.time" "$@"
	t1=$(date +%s%N)
	awk -v w=$((t1 - t0)) '{ print w, $1 + $2, $3 }' "$tmp/$name.time" >>"$tmp/$name"
}
bpfcc() { run bpfcc "$tmp/bpfcc.bin" "$src" -o "$tmp/bpfcc.o"; }
clang() { run clang "$clang" -target bpf -O2 -g -I/usr/include/x86_64-linux-gnu -c "$src" -o "$tmp/clang.o"; }

bpfcc
clang
: >"$tmp/bpfcc"
: >"$tmp/clang"
i=0
while [ "$i" -lt "$runs" ]; do
	bpfcc
	clang
	i=$((i + 1))
done

stats() {
	awk '{ w += $1; c += $2; if (min == "" || $1 < min) min = $1; if ($3 > rss) rss = $3 }
	     END { printf "%.1f %.1f %.1f %d\n", w / NR / 1e6, min / 1e6, c / NR * 1e3, rss }' "$tmp/$1"
}
set -- $(stats bpfcc) $(stats clang)
echo "program: $src, $runs runs each, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %10s %10s %10s %10s\n' "" "mean ms" "min ms" "cpu ms" "rss KB"
printf '%-6s %10s %10s %10s %10s\n' bpfcc "$1" "$2" "$3" "$4"
printf '%-6s %10s %10s %10s %10s\n' clang "$5" "$6" "$7" "$8"
awk -v a="$1" -v b="$5" -v c="$2" -v d="$6" -v e="$3" -v f="$7" 'BEGIN {
	printf "ratio bpfcc/clang: mean wall %.2f, min wall %.2f, cpu %.2f (target <= 0.30)\n", a / b, c / d, e / f }'
