#!/bin/sh
# realworld.sh: the real-world suite (the kernel's BPF selftests and samples
# from Debian's linux-source-6.12, compiled by clang-19 and bpfcc with libbpf
# 1.5's and 1.1's headers, then loaded into the kernel) with its tables, and
# the per-file and per-program results as JSON.
#
#   bench/realworld.sh [OUTDIR]        (as root; default OUTDIR: /tmp/bpfcc-realworld)
#
# Writes OUTDIR/compile.json, OUTDIR/load.json and OUTDIR/tables.txt. The
# same test runs in `go test ./...`; this script only keeps its output.
set -eu
cd "$(dirname "$0")/.."
out=${1:-/tmp/bpfcc-realworld}
mkdir -p "$out"
go test ./tests/realworld -count=1 -v -timeout 80m -run 'RealWorld' \
	-args -json "$out/compile.json" -load-json "$out/load.json" >"$out/tables.txt" 2>&1 || true
sed -n '/set  *files/,/^--- /p; /programs clang/,/^--- /p' "$out/tables.txt"
echo "full output: $out/tables.txt"
