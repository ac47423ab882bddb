#!/bin/bash
# identical.sh: do BASE_REV's bpfcc and the working tree's write the same
# objects? Builds both compilers (BASE_REV in a temporary git worktree),
# compiles every C program of the repository (tests/testdata at -O0 and -O2
# with its CFLAGS:/CPU: directives, and every other .c file under the tree)
# and the real-world suite's files from the test cache, then compares the
# objects byte for byte and prints the counts. A refactoring that must not
# change the output passes when "differ", "one side only" and "diagnostics
# differ" (stderr, warnings included) are 0.
#
#   bench/identical.sh BASE_REV [OUTDIR]     (default OUTDIR: /tmp/bpfcc-identical)
#
# BASE_REV's objects are kept in OUTDIR/base-COMMIT and reused by later runs
# (a job that failed to start, such as a run out of memory, is not redone:
# remove its ID.err).
# SUITE=0 leaves the real-world suite out (a quick check).
# RESUME=1 keeps the working tree's earlier results and compiles only the
# jobs that have none (after an interrupted run).
# The real-world files are read from $BPFCC_TEST_CACHE (default
# ~/.cache/bpfcc-tests), which `go test ./tests/realworld` fills; without it
# only the repository's programs are compared. Exit status 1 when any
# object or diagnostic differs.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
base=${1:?usage: bench/identical.sh BASE_REV [OUTDIR]}
out=${2:-/tmp/bpfcc-identical}
commit=$(git rev-parse --verify "$base^{commit}")
mkdir -p "$out"
jobs=${JOBS:-$(nproc)}

# The compilers.
basedir=$out/base-$commit
headdir=$out/head
if [ ! -x "$basedir/bpfcc" ]; then
	mkdir -p "$basedir"
	wt=$(mktemp -d)
	git worktree add --quiet --detach "$wt" "$commit"
	trap 'git -C "$repo" worktree remove --force "$wt"' EXIT
	(cd "$wt" && go build -o "$basedir/bpfcc" ./cmd/bpfcc)
	git worktree remove --force "$wt"
	trap - EXIT
fi
[ -n "${RESUME:-}" ] || rm -rf "$headdir"
mkdir -p "$headdir"
go build -o "$headdir/bpfcc" ./cmd/bpfcc

# The job list: ID<TAB>DIR<TAB>FLAGS (DIR is where the compiler runs, so
# that relative -I work; the file is the last flag).
list=$out/jobs.txt
: >"$list"
directive() { sed -n "s|^// *$1: *||p" "$2" | head -1; }
for f in tests/testdata/*.c; do
	flags=$(directive CFLAGS "$f")
	cpu=$(directive CPU "$f")
	[ -n "$cpu" ] && flags="$flags -mcpu=$cpu"
	for o in -O0 -O2; do
		printf '%s\t%s\t%s\n' "corpus$o/$(basename "$f" .c)" "$repo/tests/testdata" "$o -g $flags $(basename "$f")" >>"$list"
	done
done
git ls-files '*.c' | grep -v '^tests/testdata/[^/]*\.c$' | while read -r f; do
	printf '%s\t%s\t%s\n' "tree/${f//\//_}" "$repo/$(dirname "$f")" "-O2 -g $(basename "$f")" >>"$list"
done
cache=${BPFCC_TEST_CACHE:-$HOME/.cache/bpfcc-tests}
root=$(ls -d "$cache"/linux-source-6.12-*/linux-source-6.12 2>/dev/null | head -1 || true)
inc=$(ls -d "$cache"/linux-source-6.12-*/inc-* 2>/dev/null | head -1 || true)
if [ "${SUITE:-1}" = 0 ]; then
	echo "identical.sh: SUITE=0: comparing the repository's programs only" >&2
elif [ -n "$root" ] && [ -n "$inc" ]; then
	# The flags of tests/realworld/source_test.go's suiteFiles and
	# compile_test.go's bpfccFlags.
	self=$root/tools/testing/selftests/bpf
	samples=$root/samples/bpf
	uapi=$root/tools/include/uapi
	for gen in 1.5 1.1; do
		for f in "$self"/progs/*.c; do
			printf '%s\t%s\t%s\n' "rw$gen/selftests_$(basename "$f" .c)" "$repo" \
				"-O2 -g -mcpu=v3 -DENABLE_ATOMICS_TESTS -I$inc/libbpf-$gen -I$self -I$uapi -D__TARGET_ARCH_x86 $f" >>"$list"
		done
		for f in "$samples"/*.bpf.c "$samples"/*_kern.c; do
			printf '%s\t%s\t%s\n' "rw$gen/samples_$(basename "$f" .c)" "$repo" \
				"-O2 -g -mcpu=v3 -I$inc/libbpf-$gen -I$samples -I$self -I$uapi -I$root/tools/include -D__TARGET_ARCH_x86 $f" >>"$list"
		done
	done
else
	echo "identical.sh: no real-world sources in $cache (run go test ./tests/realworld once); comparing the repository's programs only" >&2
fi

# compile BIN DIR [RESUME]: every job's object into DIR/ID.o (absent on
# failure); with RESUME, only the jobs without a result in DIR.
compile() {
	local bin=$1 dir=$2 resume=${3:-}
	# shellcheck disable=SC2016
	tr '\t' '\037' <"$list" | RESUME=$resume xargs -d '\n' -P "$jobs" -n 1 sh -c '
		IFS=$(printf "\037") read -r id wd flags <<EOF
$1
EOF
		o=$0/$id.o
		[ -n "$RESUME" ] && [ -e "$0/$id.err" ] && exit 0
		mkdir -p "$(dirname "$o")"
		rm -f "$o"
		cd "$wd" && timeout 300 '"$bin"' $flags -c -o "$o" 2>"$0/$id.err" || rm -f "$o"
		true' "$dir"
}
# A commit's objects do not change: the base compiles only what earlier
# runs did not.
compile "$basedir/bpfcc" "$basedir" 1
compile "$headdir/bpfcc" "$headdir" "${RESUME:-}"

same=0 differ=0 bothfail=0 onefail=0 diags=0
while IFS=$'\t' read -r id _ _; do
	b=$basedir/$id.o h=$headdir/$id.o
	if ! cmp -s "$basedir/$id.err" "$headdir/$id.err"; then diags=$((diags + 1)); echo "diagnostics differ: $id"; fi
	if [ -e "$b" ] && [ -e "$h" ]; then
		if cmp -s "$b" "$h"; then same=$((same + 1)); else differ=$((differ + 1)); echo "differ: $id"; fi
	elif [ -e "$b" ] || [ -e "$h" ]; then
		onefail=$((onefail + 1))
		echo "one side fails: $id"
	else
		bothfail=$((bothfail + 1))
	fi
done <"$list"
echo "base $commit vs working tree: $(wc -l <"$list") compilations: $same identical, $differ differ, $onefail compile on one side only, $bothfail fail on both; diagnostics differ in $diags"
[ "$differ" = 0 ] && [ "$onefail" = 0 ] && [ "$diags" = 0 ]
