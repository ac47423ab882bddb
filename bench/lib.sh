# lib.sh: what the bench scripts share (sourced, from the repository root).

# bench_tmp: a scratch directory in $tmp, removed on exit.
bench_tmp() {
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
}

# bench_bpfcc: the bpfcc to time at $tmp/bpfcc: BPFCC=PATH (a binary built
# elsewhere, another commit) or this tree's.
bench_bpfcc() {
	if [ -n "${BPFCC:-}" ]; then
		cp "$BPFCC" "$tmp/bpfcc"
	else
		go build -o "$tmp/bpfcc" ./cmd/bpfcc
	fi
}
