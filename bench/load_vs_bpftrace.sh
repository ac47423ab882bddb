#!/usr/bin/env bash
# load_vs_bpftrace.sh: time to probes attached and peak RSS of
# `bpfcc --load` (compile + load + attach, prebuilt bpfcc binary) against
# bpftrace, for the same job: count the calls of process() in the demo
# target (examples/demo/target.c) per pid.
#
#	sudo bench/load_vs_bpftrace.sh [RUNS]     (default 10; RUNS=N also works)
#
# Each run starts the tool against an already running target (-p PID /
# a pid predicate), polls the first byte of process() in the target through
# /proc/PID/mem until it is int3 (0xcc) -- the moment the uprobe is
# installed -- lets the tool run 200 ms, sends SIGINT and waits for it to
# print and exit. Peak RSS comes from /usr/bin/time -v. Runs alternate
# between the tools so that drift in machine load affects both alike. Also
# shown: bpfcc loading a precompiled .o (the no-compile floor) and, from
# runs of their own (-v also fetches every verifier log), bpfcc -v's
# "attached ... since start" figure, which counts from process start.
#
# Needs root, go, gcc, bpftrace, python3 and GNU time (/usr/bin/time).
set -euo pipefail

RUNS=${1:-${RUNS:-10}}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/bpfcc-bench.XXXXXX)
TARGET_PID=
cleanup() {
	[ -n "$TARGET_PID" ] && kill "$TARGET_PID" 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT

for tool in go gcc bpftrace python3 /usr/bin/time; do
	command -v "$tool" >/dev/null || { echo "load_vs_bpftrace.sh: $tool is required" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "load_vs_bpftrace.sh: run as root (uprobes, BPF)" >&2; exit 2; }

echo "building bpfcc and the demo target in $WORK (not timed)"
(cd "$ROOT" && go build -o "$WORK/bpfcc" ./cmd/bpfcc)
gcc -g -O2 -o "$WORK/bpfcc-demo" "$ROOT/examples/demo/target.c"
cp "$ROOT/examples/count_calls.c" "$WORK/count_calls.c"
"$WORK/bpfcc" "$WORK/count_calls.c" -o "$WORK/count_calls.o"

# The target: process() forever, one call every 100 us.
"$WORK/bpfcc-demo" 0 100 >/dev/null &
TARGET_PID=$!
sleep 0.2

BIN=$WORK/bpfcc-demo
export WORK BIN TARGET_PID RUNS
python3 - <<'PY'
import os, re, signal, statistics, subprocess, sys, time

work, binpath, pid, runs = os.environ["WORK"], os.environ["BIN"], int(os.environ["TARGET_PID"]), int(os.environ["RUNS"])

def probe_address():
    """Address of process() in the running target."""
    syms = subprocess.run(["readelf", "-sW", binpath], capture_output=True, text=True, check=True).stdout
    vaddr = next(int(f[1], 16) for f in (l.split() for l in syms.splitlines())
                 if len(f) >= 8 and f[7] == "process" and f[3] == "FUNC")
    phdrs = subprocess.run(["readelf", "-lW", binpath], capture_output=True, text=True, check=True).stdout
    off = None
    for l in phdrs.splitlines():
        f = l.split()
        if f and f[0] == "LOAD":
            poff, pv, memsz = int(f[1], 16), int(f[2], 16), int(f[5], 16)
            if pv <= vaddr < pv + memsz:
                off = vaddr - pv + poff
    real = os.path.realpath(binpath)
    for l in open(f"/proc/{pid}/maps"):
        f = l.split()
        if len(f) >= 6 and f[5] == real:
            lo, hi = (int(x, 16) for x in f[0].split("-"))
            moff = int(f[2], 16)
            if moff <= off < moff + hi - lo:
                return lo + off - moff
    sys.exit("process() is not mapped in the target")

addr = probe_address()
resent = {}
mem = open(f"/proc/{pid}/mem", "rb", buffering=0)

def byte():
    mem.seek(addr)
    return mem.read(1)

def run(cmd):
    """One run: (ms to attached, ms from SIGINT to exit, peak RSS KB, bpfcc -v ms or None)."""
    while byte() == b"\xcc":  # the previous run's probe must be gone
        time.sleep(0.005)
    t0 = time.monotonic()
    p = subprocess.Popen(["/usr/bin/time", "-v"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    while byte() != b"\xcc":
        if p.poll() is not None:
            sys.exit(f"{cmd[0]} exited before attaching:\n{p.stderr.read()}")
        time.sleep(0.0002)
    attached = (time.monotonic() - t0) * 1000
    time.sleep(0.2)
    with open(f"/proc/{p.pid}/task/{p.pid}/children") as f:
        child = int(f.read().split()[0])
    t1 = time.monotonic()
    os.kill(child, signal.SIGINT)
    while True:
        try:
            p.wait(timeout=1)
            break
        except subprocess.TimeoutExpired:
            # bpftrace 0.17 now and then ignores a SIGINT; count it and
            # time the exit from the SIGINT that worked.
            resent[cmd[0]] = resent.get(cmd[0], 0) + 1
            t1 = time.monotonic()
            os.kill(child, signal.SIGINT)
    detach = (time.monotonic() - t1) * 1000
    err = p.stderr.read()
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}\n{err}")
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", err).group(1))
    m = re.search(r"attached \d+ program\(s\) in ([0-9.]+) ms since start", err)
    return attached, detach, rss, float(m.group(1)) if m else None

# The compared runs are bpfcc's default mode, as bpftrace runs in its own;
# -v (which also fetches and prints every verifier log) runs apart, for its
# own time-to-attached figure.
tools = {
    "bpfcc": [f"{work}/bpfcc", "--load", "process", f"{work}/count_calls.c", "-x", binpath, "-p", str(pid)],
    "bpfcc .o": [f"{work}/bpfcc", "--load", "process", f"{work}/count_calls.o", "-x", binpath, "-p", str(pid)],
    "bpftrace": ["bpftrace", "-e", f"uprobe:{binpath}:process /pid == {pid}/ {{ @calls[pid] = count(); }}"],
}
verbose = {
    "bpfcc -v": tools["bpfcc"] + ["-v"],
    "bpfcc .o -v": tools["bpfcc .o"] + ["-v"],
}
res = {k: [] for k in list(tools) + list(verbose)}
for name, cmd in list(tools.items()) + list(verbose.items()):  # warm-up: page cache, first-run costs
    run(cmd)
for i in range(runs):
    for name, cmd in list(tools.items()) + list(verbose.items()):
        res[name].append(run(cmd))

def col(name, i):
    return [r[i] for r in res[name]]

def fmt(xs):
    return f"{statistics.median(xs):8.1f} {min(xs):8.1f} {max(xs):8.1f}"

print(f"\n{runs} runs each, kernel {os.uname().release}, {os.cpu_count()} CPUs; median / min / max")
print(f"{'':28} {'bpfcc (.c)':>26} {'bpfcc (.o)':>26} {'bpftrace':>26}")
rows = [("start -> attached (ms)", 0), ("SIGINT -> exited (ms)", 1), ("peak RSS (MB)", 2)]
for label, i in rows:
    conv = (lambda x: x / 1024) if i == 2 else (lambda x: x)
    cells = [fmt([conv(x) for x in col(n, i)]) for n in tools]
    print(f"{label:28} " + " ".join(f"{c:>26}" for c in cells))
v = [x for x in col("bpfcc -v", 3) if x is not None]
vo = [x for x in col("bpfcc .o -v", 3) if x is not None]
if v:
    print(f"{'bpfcc -v attached (ms)':28} {fmt(v):>26} {fmt(vo):>26}")
for tool, n in resent.items():
    print(f"({os.path.basename(tool)} ignored the first SIGINT {n} time(s); SIGINT -> exited counts from the one that worked)")
print()
bt = {i: statistics.median(col("bpftrace", i)) for i in range(3)}
for n in ("bpfcc", "bpfcc .o"):
    a, d, r = (statistics.median(col(n, i)) for i in range(3))
    print(f"{n + ' / bpftrace':20} time to attached {a / bt[0]:.2f}x (target <= 0.40x)   "
          f"peak RSS {r / bt[2]:.2f}x (target <= 0.30x)   detach {d / bt[1]:.2f}x")
PY
