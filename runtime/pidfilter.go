package runtime

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/btf"
	"github.com/cilium/ebpf/link"
	"golang.org/x/sys/unix"

	"github.com/bpfcc/bpfcc/abi"
)

// The process-tree filter. -c/-- and -p trace a process and every process
// it starts, so a command run through a shell (-c "sh -c 'prog | cat'")
// is traced where the work happens. The perf-event PID filter of a uprobe
// sees one process only, so with a process to trace the uprobes are
// attached for every process and bpfcc prepends a check to each uprobe
// program: its first instructions look the current process (thread group)
// up in a PID set and return 0 when it is not there, then the user's
// program runs unchanged on the same context. The set holds the traced
// process and is extended in the kernel by a program on the
// sched/sched_process_fork tracepoint, which runs in the parent before the
// child is first scheduled, so no child can call a probed function before
// it is in the set. A sched/sched_process_exit program removes exiting
// threads and dead processes, so a PID reused during the run is not
// traced. Counters record the probe hits on each side of the filter, for
// -v and for the "nothing collected" report.

// Names of the filter's maps and programs; the reserved prefix keeps the
// maps out of the tables printed at exit.
const (
	pidSetMap   = abi.ReservedPrefix + "pids"
	pidStatsMap = abi.ReservedPrefix + "pidstat"
	forkProg    = abi.ReservedPrefix + "fork"
	exitProg    = abi.ReservedPrefix + "exit"
	filterLabel = abi.ReservedPrefix + "pf_"
)

// Slots of the statistics map (a per-CPU array of u64).
const (
	statTraced  = iota // probe hits in the traced processes
	statOther          // probe hits in other processes, filtered out
	statSetFull        // children not followed: the PID set was full
	statSlots
)

// pidSetSize bounds the processes and threads of the traced tree alive at
// once; the set is allocated as it fills.
const pidSetSize = 1 << 16

// initPIDNamespaceIno is the inode of the initial PID namespace
// (PROC_PID_INIT_INO): the namespace whose PIDs the kernel's tracepoints
// and bpf_get_current_pid_tgid report.
const initPIDNamespaceIno = 0xEFFFFFFC

// treeFilter is the process-tree filter of one run.
type treeFilter struct {
	root   int      // the traced process (-p PID, or the command)
	progs  []string // the uprobe programs that carry the check
	prefix int      // instruction slots prepended to each of them
	set    *ebpf.Map
	stats  *ebpf.Map
	links  []link.Link
}

// inInitPIDNamespace reports whether bpfcc sees the PIDs the kernel's
// tracepoints report. In another PID namespace (a container) the PID of
// the command is not the one the fork tracepoint names.
func inInitPIDNamespace() bool {
	var st unix.Stat_t
	if err := unix.Stat("/proc/self/ns/pid", &st); err != nil {
		return false
	}
	return st.Ino == initPIDNamespaceIno
}

// tracepointFields reads the field offsets of a tracepoint from its format
// file in tracefs ("field:pid_t child_pid;	offset:20;	size:4;").
func tracepointFields(group, name string) (map[string]tpField, error) {
	dir, err := tracefsDir()
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(fmt.Sprintf("%s/events/%s/%s/format", dir, group, name))
	if err != nil {
		return nil, fmt.Errorf("tracepoint %s/%s: %w", group, name, err)
	}
	return parseFormat(string(b)), nil
}

// tpField is one field of a tracepoint record.
type tpField struct{ offset, size int }

var formatField = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`field:[^;]*?([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?;\s*offset:(\d+);\s*size:(\d+);`)
})

// parseFormat extracts the fields of a tracepoint format description.
func parseFormat(text string) map[string]tpField {
	fields := map[string]tpField{}
	for _, m := range formatField().FindAllStringSubmatch(text, -1) {
		off, _ := strconv.Atoi(m[3])
		size, _ := strconv.Atoi(m[4])
		fields[m[1]] = tpField{off, size}
	}
	return fields
}

// planTreeFilter adds the filter to spec when the run traces a process and
// has uprobe programs: the PID set and counter maps, the fork and exit
// programs, and the check at the start of every uprobe program. It returns
// nil when the run needs no filter, or cannot have one; why is then
// reported through note (-v).
func planTreeFilter(spec *ebpf.CollectionSpec, plans []plan, tracing bool, note func(string)) (*treeFilter, error) {
	if !tracing {
		return nil, nil
	}
	f := &treeFilter{}
	for _, pl := range plans {
		if pl.point.kind == kindUprobe {
			f.progs = append(f.progs, pl.name)
		}
	}
	if len(f.progs) == 0 {
		return nil, nil
	}
	if !inInitPIDNamespace() {
		note("bpfcc runs in a PID namespace of its own: the uprobes trace the process itself, not its children")
		return nil, nil
	}
	fork, err := tracepointFields("sched", "sched_process_fork")
	if err != nil {
		return nil, fmt.Errorf("following the traced process's children: %w", err)
	}
	child, ok := fork["child_pid"]
	if !ok || child.size != 4 {
		return nil, fmt.Errorf("following the traced process's children: sched/sched_process_fork has no 4-byte child_pid field")
	}
	exit, err := tracepointFields("sched", "sched_process_exit")
	if err != nil {
		return nil, fmt.Errorf("following the traced process's children: %w", err)
	}
	groupDead := -1
	if gd, ok := exit["group_dead"]; ok && gd.size == 1 {
		groupDead = gd.offset
	}
	for _, name := range []string{pidSetMap, pidStatsMap, forkProg, exitProg} {
		if spec.Maps[name] != nil || spec.Programs[name] != nil {
			return nil, fmt.Errorf("the object defines %s, a name bpfcc's process filter uses", name)
		}
	}
	if spec.Maps == nil {
		spec.Maps = map[string]*ebpf.MapSpec{}
	}
	spec.Maps[pidSetMap] = &ebpf.MapSpec{Name: pidSetMap, Type: ebpf.Hash, KeySize: 4, ValueSize: 4, MaxEntries: pidSetSize, Flags: unix.BPF_F_NO_PREALLOC}
	spec.Maps[pidStatsMap] = &ebpf.MapSpec{Name: pidStatsMap, Type: ebpf.PerCPUArray, KeySize: 4, ValueSize: 8, MaxEntries: statSlots}
	spec.Programs[forkProg] = &ebpf.ProgramSpec{Name: forkProg, Type: ebpf.TracePoint, SectionName: abi.FormatSection("tracepoint", "sched/sched_process_fork", false), License: "GPL", Instructions: forkInsns(int16(child.offset))}
	spec.Programs[exitProg] = &ebpf.ProgramSpec{Name: exitProg, Type: ebpf.TracePoint, SectionName: abi.FormatSection("tracepoint", "sched/sched_process_exit", false), License: "GPL", Instructions: exitInsns(groupDead)}
	check := filterCheck()
	for _, ins := range check {
		f.prefix += int(ins.Size() / asm.InstructionSize)
	}
	for _, name := range f.progs {
		ps := spec.Programs[name]
		ps.Instructions = prependCheck(ps.Instructions, check)
	}
	return f, nil
}

// filterCheck is the check prepended to a uprobe program: count the hit
// on its side of the filter, return 0 unless the current process is in the
// PID set, and give the program its context back in R1. At a program's
// entry only R1 and R10 hold values, so R6, R7 and the stack slot are free.
func filterCheck() asm.Instructions {
	l := func(s string) string { return filterLabel + s }
	return asm.Instructions{
		asm.Mov.Reg(asm.R6, asm.R1),
		asm.FnGetCurrentPidTgid.Call(),
		asm.RSh.Imm(asm.R0, 32),
		asm.StoreMem(asm.RFP, -4, asm.R0, asm.Word),
		asm.LoadMapPtr(asm.R1, 0).WithReference(pidSetMap),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, -4),
		asm.FnMapLookupElem.Call(),
		asm.Mov.Reg(asm.R7, asm.R0),
		asm.StoreImm(asm.RFP, -4, statTraced, asm.Word),
		asm.JNE.Imm(asm.R7, 0, l("count")),
		asm.StoreImm(asm.RFP, -4, statOther, asm.Word),
		asm.LoadMapPtr(asm.R1, 0).WithReference(pidStatsMap).WithSymbol(l("count")),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, -4),
		asm.FnMapLookupElem.Call(),
		asm.JEq.Imm(asm.R0, 0, l("decide")),
		asm.Mov.Imm(asm.R1, 1),
		asm.StoreXAdd(asm.R0, asm.R1, asm.DWord),
		asm.JNE.Imm(asm.R7, 0, l("run")).WithSymbol(l("decide")),
		asm.Mov.Imm(asm.R0, 0),
		asm.Return(),
		asm.Mov.Reg(asm.R1, asm.R6).WithSymbol(l("run")),
	}
}

// prependCheck returns insns with check in front. The program's symbol,
// BTF function and first line info move to the check's first instruction
// (the kernel wants a function's func_info and first line_info at its first
// instruction); everything else stays where it was. Jumps in insns are
// relative, or resolved by label when the program is marshalled, so they
// need no change.
func prependCheck(insns asm.Instructions, check asm.Instructions) asm.Instructions {
	out := make(asm.Instructions, 0, len(check)+len(insns))
	out = append(out, check...)
	if len(insns) == 0 {
		return out
	}
	first := insns[0]
	head := out[0].WithSymbol(first.Symbol())
	if fn := btf.FuncMetadata(&first); fn != nil {
		head = btf.WithFuncMetadata(head, fn)
		first = btf.WithFuncMetadata(first, nil)
	}
	if src := first.Source(); src != nil {
		head = head.WithSource(src)
	}
	out[0] = head
	first = first.WithSymbol("")
	out = append(out, first)
	return append(out, insns[1:]...)
}

// forkInsns is the sched_process_fork program: when the parent (the
// current process) is in the set, the child joins it. It runs before the
// child is first scheduled.
func forkInsns(childOff int16) asm.Instructions {
	l := func(s string) string { return filterLabel + s }
	return asm.Instructions{
		asm.Mov.Reg(asm.R6, asm.R1).WithSymbol(forkProg),
		asm.FnGetCurrentPidTgid.Call(),
		asm.RSh.Imm(asm.R0, 32),
		asm.StoreMem(asm.RFP, -4, asm.R0, asm.Word),
		asm.LoadMapPtr(asm.R1, 0).WithReference(pidSetMap),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, -4),
		asm.FnMapLookupElem.Call(),
		asm.JEq.Imm(asm.R0, 0, l("out")),
		asm.LoadMem(asm.R1, asm.R6, childOff, asm.Word),
		asm.StoreMem(asm.RFP, -4, asm.R1, asm.Word),
		asm.StoreImm(asm.RFP, -8, 1, asm.Word),
		asm.LoadMapPtr(asm.R1, 0).WithReference(pidSetMap),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, -4),
		asm.Mov.Reg(asm.R3, asm.RFP),
		asm.Add.Imm(asm.R3, -8),
		asm.Mov.Imm(asm.R4, 0),
		asm.FnMapUpdateElem.Call(),
		asm.JEq.Imm(asm.R0, 0, l("out")),
		asm.StoreImm(asm.RFP, -4, statSetFull, asm.Word),
		asm.LoadMapPtr(asm.R1, 0).WithReference(pidStatsMap),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, -4),
		asm.FnMapLookupElem.Call(),
		asm.JEq.Imm(asm.R0, 0, l("out")),
		asm.Mov.Imm(asm.R1, 1),
		asm.StoreXAdd(asm.R0, asm.R1, asm.DWord),
		asm.Mov.Imm(asm.R0, 0).WithSymbol(l("out")),
		asm.Return(),
	}
}

// exitInsns is the sched_process_exit program: an exiting thread leaves
// the set; so does a process whose last thread exits (group_dead, at
// groupDead in the record; -1 on kernels without the field, where a
// process stays in the set after it exits).
func exitInsns(groupDead int) asm.Instructions {
	l := func(s string) string { return filterLabel + s }
	insns := asm.Instructions{
		asm.Mov.Reg(asm.R6, asm.R1).WithSymbol(exitProg),
		asm.FnGetCurrentPidTgid.Call(),
		asm.Mov.Reg32(asm.R7, asm.R0), // thread id
		asm.RSh.Imm(asm.R0, 32),       // process id
		asm.JEq.Reg(asm.R7, asm.R0, l("leader")),
		asm.StoreMem(asm.RFP, -4, asm.R7, asm.Word),
		asm.Ja.Label(l("delete")),
	}
	if groupDead >= 0 {
		insns = append(insns,
			asm.LoadMem(asm.R1, asm.R6, int16(groupDead), asm.Byte).WithSymbol(l("leader")),
			asm.JEq.Imm(asm.R1, 0, l("out")),
			asm.StoreMem(asm.RFP, -4, asm.R0, asm.Word),
		)
	} else {
		insns = append(insns, asm.Ja.Label(l("out")).WithSymbol(l("leader")))
	}
	return append(insns,
		asm.LoadMapPtr(asm.R1, 0).WithReference(pidSetMap).WithSymbol(l("delete")),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, -4),
		asm.FnMapDeleteElem.Call(),
		asm.Mov.Imm(asm.R0, 0).WithSymbol(l("out")),
		asm.Return(),
	)
}

// start attaches the fork and exit programs and puts root in the set: the
// set must follow forks before the traced process may fork. With
// descendants (-p of a running process) the processes it already started
// join too.
func (f *treeFilter) start(coll *ebpf.Collection, root int, descendants bool) error {
	// The set holds processes (thread group ids): -p of a thread traces
	// its process.
	if tgid, ok := threadGroupOf(root); ok {
		root = tgid
	}
	f.root = root
	f.set, f.stats = coll.Maps[pidSetMap], coll.Maps[pidStatsMap]
	for _, tp := range []struct{ prog, name string }{{forkProg, "sched_process_fork"}, {exitProg, "sched_process_exit"}} {
		l, err := link.Tracepoint("sched", tp.name, coll.Programs[tp.prog], nil)
		if err != nil {
			return fmt.Errorf("%w: the process filter's program on sched/%s: %w", ErrAttach, tp.name, classify(err))
		}
		f.links = append(f.links, l)
	}
	if err := f.add(root); err != nil {
		return err
	}
	if !descendants {
		return nil
	}
	// A child forked while the scan runs is followed by the fork program
	// when its parent was already in the set; otherwise it exists when the
	// next scan looks. Scan until nothing new turns up.
	known := map[int]bool{root: true}
	for {
		added := 0
		for _, pid := range descendantsOf(root) {
			// bpfcc itself may descend from the traced process (-p of
			// the shell that runs it): its own calls are not traced.
			if pid == os.Getpid() {
				continue
			}
			if !known[pid] {
				known[pid] = true
				if err := f.add(pid); err != nil {
					return err
				}
				added++
			}
		}
		if added == 0 {
			return nil
		}
	}
}

func (f *treeFilter) add(pid int) error {
	if err := f.set.Put(uint32(pid), uint32(1)); err != nil {
		return fmt.Errorf("%w: the process filter's PID set: %w", ErrAttach, err)
	}
	return nil
}

// stop detaches the fork and exit programs.
func (f *treeFilter) stop() {
	closeLinks(f.links)
	f.links = nil
}

// counts sums the filter's counters over the CPUs.
func (f *treeFilter) counts() (traced, other, setFull uint64, err error) {
	if f.stats == nil {
		return 0, 0, 0, errors.New("the process filter was not started")
	}
	sum := func(slot uint32) uint64 {
		var vals []uint64
		if e := f.stats.Lookup(slot, &vals); e != nil {
			err = e
			return 0
		}
		var n uint64
		for _, v := range vals {
			n += v
		}
		return n
	}
	return sum(statTraced), sum(statOther), sum(statSetFull), err
}

// describe names the filter for -v.
func (f *treeFilter) describe() string {
	return fmt.Sprintf("process filter: PID %d and every process it starts (uprobes attached for all processes; %s check a PID set that a sched/sched_process_fork program extends in the kernel)", f.root, strings.Join(f.progs, ", "))
}

// descendantsOf lists the running descendants of pid, from /proc: down
// the tree through each process's children files, or, where the kernel
// has none (CONFIG_PROC_CHILDREN), by the parent of every process. (The
// scan read a stat file per process on the machine: 4 ms of a 22 ms
// --load here.)
func descendantsOf(pid int) []int {
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		cs, ok := childrenOf(p)
		if !ok {
			return descendantsByScan(pid)
		}
		out = append(out, cs...)
		queue = append(queue, cs...)
	}
	return out
}

// childrenOf lists pid's children from the children file of each of its
// threads (a child's parent is the thread that forked it); ok is false
// when the kernel has no such files. A process gone meanwhile has none.
func childrenOf(pid int) (children []int, ok bool) {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return nil, true
	}
	for _, t := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, t.Name()))
		if errors.Is(err, fs.ErrNotExist) {
			if _, e := os.Stat(fmt.Sprintf("/proc/%d/task/%s", pid, t.Name())); e == nil {
				return nil, false // the thread is there, its children file is not
			}
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				children = append(children, c)
			}
		}
	}
	return children, true
}

// descendantsByScan is descendantsOf from every process's parent.
func descendantsByScan(pid int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, ok := parentOf(p); ok {
			children[pp] = append(children[pp], p)
		}
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// threadGroupOf reads the process (thread group) of a thread from
// /proc/TID/status.
func threadGroupOf(tid int) (int, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", tid))
	if err != nil {
		return 0, false
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "Tgid:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			return n, err == nil
		}
	}
	return 0, false
}

// parentOf reads a process's parent from /proc/PID/stat ("PID (comm) S
// PPID ..."; comm may hold spaces and parentheses).
func parentOf(pid int) (int, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	fields := strings.Fields(s[i+1:])
	if len(fields) < 2 {
		return 0, false
	}
	pp, err := strconv.Atoi(fields[1])
	return pp, err == nil
}

// unshift makes the instruction index of a verifier report on a filtered
// program count from the program's own first instruction, as bpfcc -S
// lists it.
func (f *treeFilter) unshift(err error) {
	var r *VerifierReport
	if f == nil || !errors.As(err, &r) || r.Insn < f.prefix {
		return
	}
	for _, p := range f.progs {
		if p == r.Program {
			r.Insn -= f.prefix
			return
		}
	}
}
