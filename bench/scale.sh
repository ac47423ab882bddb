#!/bin/sh
# scale.sh: bpfcc against clang-19 -O2 on inputs that stress the compiler's
# passes rather than the headers: three nested 16-trip loops, 64 sequential
# small loops (bench/testdata), one function of 5,000 and one of 20,000
# lines of straight-line and branching code, and 1,000 functions
# (generated here, no headers). The target: no input over 1.0x clang's CPU
# time, and under 300 MB peak RSS.
#
#   bench/scale.sh [RUNS]          (default 5)
#
# Each figure is the median over RUNS of CPU time (user + sys) and of peak
# RSS from GNU time, the compilers run alternately so that load affects
# both alike. BPFCC=PATH times a bpfcc binary built elsewhere.
set -eu
cd "$(dirname "$0")/.."
runs=${1:-5}
clang=${CLANG:-clang-19}
command -v "$clang" >/dev/null || { echo "scale.sh: $clang not installed" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "scale.sh: GNU time (/usr/bin/time) not installed" >&2; exit 1; }
. bench/lib.sh
bench_tmp
bench_bpfcc

cp bench/testdata/nested3x16.c "$tmp/nested.c"
cp bench/testdata/loops64.c "$tmp/loops64.c"

# lines N NAME: one XDP function of about N lines: blocks of arithmetic on
# a few variables, data-dependent branches and a helper call (which keeps
# either compiler from folding the blocks together or scheduling them into
# a stack overflow).
lines() {
	awk -v n="$1" 'BEGIN {
		print "#define SEC(n) __attribute__((section(n), used))"
		print "struct xdp_md { unsigned data, data_end, data_meta, ingress_ifindex, rx_queue_index, egress_ifindex; };"
		print "static unsigned long (*prandom)(void) = (void *)7;"
		print "SEC(\"xdp\")"
		print "int big(struct xdp_md *ctx)"
		print "{"
		print "\tunsigned a = ctx->rx_queue_index, b = ctx->ingress_ifindex, c = a ^ b, d = a + 1;"
		for (i = 0; i < n / 6; i++) {
			printf "\ta = a * %d + b;\n", 2 * i + 3
			printf "\tb ^= a >> %d;\n", i % 13 + 1
			printf "\tif (c > %d)\n", i * 7 % 1000
			printf "\t\td += prandom() - a;\n"
			printf "\tc = (c << 1) | (d & %d);\n", i % 7 + 1
			print ""
		}
		print "\treturn (a ^ b ^ c ^ d) & 3;"
		print "}"
		print "char LICENSE[] SEC(\"license\") = \"GPL\";"
	}' >"$tmp/$2.c"
}
lines 5000 lines5k
lines 20000 lines20k

# 1,000 small functions, each called from the program (kept out of line).
awk 'BEGIN {
	print "#define SEC(n) __attribute__((section(n), used))"
	print "struct xdp_md { unsigned data, data_end, data_meta, ingress_ifindex, rx_queue_index, egress_ifindex; };"
	for (i = 0; i < 1000; i++) {
		printf "static __attribute__((noinline)) unsigned f%d(unsigned x)\n{\n", i
		printf "\tif (x > %d)\n\t\treturn x * %d + %d;\n\treturn x ^ %d;\n}\n", i, i + 2, i, i * 3
	}
	print "SEC(\"xdp\")"
	print "int many(struct xdp_md *ctx)"
	print "{"
	print "\tunsigned x = ctx->rx_queue_index;"
	for (i = 0; i < 1000; i++)
		printf "\tx = f%d(x);\n", i
	print "\treturn x & 3;"
	print "}"
	print "char LICENSE[] SEC(\"license\") = \"GPL\";"
}' >"$tmp/funcs1k.c"

# run NAME CMD...: append "cpu_ms rss_kb" of one run of CMD to $tmp/NAME.
run() {
	name=$1
	shift
	/usr/bin/time -f '%U %S %M' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
	awk '{ printf "%.1f %d\n", ($1 + $2) * 1000, $3 }' "$tmp/time" >>"$tmp/$name"
}
median() { sort -n -k"$2" "$tmp/$1" | awk -v k="$2" '{ v[NR] = $k } END { print v[int((NR + 1) / 2)] }'; }

echo "median over $runs runs; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-9s %10s %10s %7s %11s %11s\n' input "clang ms" "bpfcc ms" ratio "clang MB" "bpfcc MB"
for p in nested loops64 lines5k lines20k funcs1k; do
	: >"$tmp/$p.clang"
	: >"$tmp/$p.bpfcc"
	i=0
	while [ "$i" -lt "$runs" ]; do
		run "$p.clang" "$clang" -target bpf -O2 -c "$tmp/$p.c" -o "$tmp/clang.o"
		run "$p.bpfcc" "$tmp/bpfcc" -O2 "$tmp/$p.c" -o "$tmp/bpfcc.o"
		i=$((i + 1))
	done
	awk -v p="$p" -v c="$(median "$p.clang" 1)" -v b="$(median "$p.bpfcc" 1)" \
		-v cr="$(median "$p.clang" 2)" -v br="$(median "$p.bpfcc" 2)" \
		'BEGIN { printf "%-9s %10.1f %10.1f %7.2f %11.1f %11.1f\n", p, c, b, b / c, cr / 1024, br / 1024 }'
done
