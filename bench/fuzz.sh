#!/usr/bin/env bash
# Runs every go test -fuzz target in the module for a fixed time each and
# prints, per target, the executions and whether it failed.
#
#   bench/fuzz.sh [-t SECONDS] [-p PARALLEL] [REGEX]
#
#   -t SECONDS   time per target (default 60)
#   -p N         fuzzing workers (default: go's, GOMAXPROCS)
#   REGEX        only targets whose package/name matches
#
# A failing target stops at its first crasher; the others still run.
#
# Crashers are written by go test to PKG/testdata/fuzz/TARGET/; commit them
# as regression inputs once the bug is understood. BPFCC_FUZZ_IGNORE, a
# regular expression, skips failures of bugs already reported (see
# compile_fuzz_test.go); BPFCC_FUZZ_STRICT=1 makes panics that the loader
# recovered count as failures. Logs go to ${FUZZ_LOGS:-/tmp/bpfcc-fuzz}.
set -u
secs=60
par=""
while getopts "t:p:" o; do
	case $o in
	t) secs=$OPTARG ;;
	p) par="-parallel $OPTARG" ;;
	*) sed -n '2,20p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
filter=${1:-.}
cd "$(dirname "$0")/.." || exit 2
logs=${FUZZ_LOGS:-/tmp/bpfcc-fuzz}
mkdir -p "$logs"

# pkg<TAB>target for every func FuzzXxx(f *testing.F) in a _test.go file.
targets=$(grep -rlE --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*\(f \*testing\.F\)' . |
	while read -r f; do
		pkg=$(dirname "$f")
		grep -oE '^func Fuzz[A-Za-z0-9_]*' "$f" | sed "s|^func |$pkg	|"
	done | sort -u | grep -E -- "$filter")
if [ -z "$targets" ]; then
	echo "no fuzz targets match $filter" >&2
	exit 2
fi

printf '%-36s %-18s %10s %8s  %s\n' PACKAGE TARGET EXECS EXEC/S RESULT
total_fail=0
while IFS=$'\t' read -r pkg name; do
	log="$logs/$(echo "$pkg" | tr / _)_$name.log"
	# -fuzzminimizetime 0: minimizing every new input costs more than it
	# saves when one execution takes tens of milliseconds (a compilation).
	go test "$pkg" -run '^$' -fuzz "^$name\$" -fuzztime "${secs}s" \
		-fuzzminimizetime "${FUZZ_MINIMIZE:-0}" $par >"$log" 2>&1
	rc=$?
	execs=$(grep -oE 'execs: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+')
	execs=${execs:-0}
	rate=$((execs / (secs > 0 ? secs : 1)))
	if [ $rc -eq 0 ]; then
		result=ok
	else
		total_fail=$((total_fail + 1))
		crasher=$(grep -oE 'testdata/fuzz/[^ ]+' "$log" | head -1)
		why=$(grep -m1 -E '^\s+[a-z_]+_test\.go:[0-9]+:|panic:|did not finish|build failed' "$log" | sed 's/^\s*//' | cut -c1-120)
		result="FAIL ${crasher:-(see $log)} ${why}"
	fi
	printf '%-36s %-18s %10s %8s  %s\n' "$pkg" "$name" "$execs" "$rate" "$result"
done <<<"$targets"
echo "failures: $total_fail (logs in $logs)"
[ $total_fail -eq 0 ]
