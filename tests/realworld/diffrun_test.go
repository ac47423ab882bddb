package realworld

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/cilium/ebpf"
	"golang.org/x/sys/unix"

	"github.com/bpfcc/bpfcc/tests/internal/progrun"
)

// runInput is one named input of a differential run.
type runInput struct {
	Name string
	progrun.Input
}

// packetSpecs are the packets every packet program is run on, in order,
// against the same maps: the run after the first sees what earlier runs
// left in them.
var packetSpecs = []struct{ name, spec string }{
	{"ipv4-tcp", "ipv4-tcp payload=16"},
	{"ipv4-udp", "ipv4-udp dport=53 payload=16"},
	{"ipv6-tcp", "ipv6-tcp flags=ack payload=16"},
	{"ipv6-udp", "ipv6-udp payload=16"},
	{"arp", "eth len=42"},
	{"truncated", "ipv4-tcp len=20"},
}

// Context sizes of the kernel's test runs (struct __sk_buff, struct
// bpf_flow_keys; raw tracepoints take up to 12 u64 arguments).
const (
	skbCtxSize      = 192
	flowKeysSize    = 56
	rawTPArgs       = 12
	syscallCtxSize  = 512
	skbMarkOffset   = 8
	skbPriorityOff  = 32
	skbCbOffset     = 48
	rawTPRunOnCPU   = 1 // BPF_F_TEST_RUN_ON_CPU
	runCPU          = 0
	skipNotRunnable = "type has no test run here"
	skipClangLoad   = "clang's program does not load alone"
	skipBpfccLoad   = "bpfcc's program does not load alone"
	skipRunRefused  = "the kernel refuses to run clang's program"
	skipNotInBpfcc  = "no such program in bpfcc's object"
	skipObjectParse = "cilium/ebpf cannot read an object"
)

// skbContext is a __sk_buff with the fields a test run takes set to
// recognisable values.
func skbContext() []byte {
	b := make([]byte, skbCtxSize)
	binary.LittleEndian.PutUint32(b[skbMarkOffset:], 0x2a)
	binary.LittleEndian.PutUint32(b[skbPriorityOff:], 7)
	for i := range 5 {
		binary.LittleEndian.PutUint32(b[skbCbOffset+4*i:], uint32(i+1))
	}
	return b
}

// inputsFor returns the inputs a program of type t is run on, or nil when
// BPF_PROG_TEST_RUN cannot run the type.
func inputsFor(t ebpf.ProgramType) []runInput {
	packets := func(ctx []byte, ctxOut int) []runInput {
		var ins []runInput
		for _, p := range packetSpecs {
			pkt, err := progrun.BuildPacket(p.spec)
			if err != nil {
				panic(err) // a constant above is wrong
			}
			ins = append(ins, runInput{p.name, progrun.Input{Data: pkt, Context: ctx, CtxOut: ctxOut}})
		}
		return ins
	}
	switch t {
	case ebpf.XDP:
		return packets(nil, 0)
	case ebpf.SchedCLS, ebpf.SchedACT, ebpf.SocketFilter, ebpf.CGroupSKB, ebpf.LWTIn, ebpf.LWTOut, ebpf.LWTXmit, ebpf.LWTSeg6Local:
		return packets(skbContext(), skbCtxSize)
	case ebpf.FlowDissector:
		return packets(nil, flowKeysSize)
	case ebpf.Syscall:
		ctx := make([]byte, syscallCtxSize)
		return []runInput{{"ctx", progrun.Input{Context: ctx, CtxOut: syscallCtxSize}}}
	case ebpf.RawTracepoint:
		args := make([]byte, 8*rawTPArgs)
		for i := range rawTPArgs {
			binary.LittleEndian.PutUint64(args[8*i:], uint64(i))
		}
		return []runInput{{"args", progrun.Input{Context: args, Flags: rawTPRunOnCPU, CPU: runCPU}}}
	}
	return nil
}

// runDiff is one input's difference between clang's and bpfcc's program.
type runDiff struct {
	Input  string `json:"input"`
	What   string `json:"what"`
	Detail string `json:"detail"`
}

// runResult is the differential verdict on one program.
type runResult struct {
	File    string    `json:"file"`
	Program string    `json:"program"`
	Type    string    `json:"type"`
	Skipped string    `json:"skipped,omitempty"`
	Why     string    `json:"why,omitempty"` // the load error of a skipped program
	Inputs  int       `json:"inputs,omitempty"`
	Diffs   []runDiff `json:"differences,omitempty"`
	Known   []string  `json:"known,omitempty"`
}

// ID names the program in known_run_differences.txt, followed by a
// difference's What.
func (r *runResult) ID() string { return r.File + " " + r.Program }

// diffAll runs every file's programs, a few files at a time.
func diffAll(files []*fileResult) []*runResult {
	out := make([][]*runResult, len(files))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				out[i] = diffFile(files[i])
			}
		}()
	}
	for i := range files {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	var all []*runResult
	for _, rs := range out {
		all = append(all, rs...)
	}
	return all
}

// diffFile runs each runnable program of clang's and bpfcc's objects of
// one file on the same inputs.
func diffFile(r *fileResult) []*runResult {
	name := r.Set + "/" + baseName(r.File)
	cspec, cerr := ebpf.LoadCollectionSpec(r.Clang.Object)
	bspec, berr := ebpf.LoadCollectionSpec(r.Bpfcc.Object)
	if cerr != nil {
		return nil // out of the denominator, as for the load test
	}
	var results []*runResult
	for _, prog := range progrun.SortedKeys(cspec.Programs) {
		ps := cspec.Programs[prog]
		res := &runResult{File: name, Program: prog, Type: ps.Type.String()}
		results = append(results, res)
		ins := inputsFor(ps.Type)
		switch {
		case ins == nil:
			res.Skipped = skipNotRunnable
		case berr != nil:
			res.Skipped = skipObjectParse
		case bspec.Programs[prog] == nil:
			res.Skipped = skipNotInBpfcc
		default:
			diffProgram(res, cspec, bspec, prog, ins)
		}
	}
	return results
}

// diffProgram loads prog alone from each spec, with fresh maps, and runs
// both on every input, comparing after each run; it also compares the
// maps and globals before the first run.
func diffProgram(res *runResult, cspec, bspec *ebpf.CollectionSpec, prog string, ins []runInput) {
	ccoll, cs, err := loadAlone(cspec, prog)
	if err != nil {
		res.Skipped, res.Why = skipClangLoad, firstLine(err)
		return
	}
	defer ccoll.Close()
	bcoll, bs, err := loadAlone(bspec, prog)
	if err != nil {
		res.Skipped, res.Why = skipBpfccLoad, firstLine(err)
		return
	}
	defer bcoll.Close()
	var cobs, bobs []progrun.Observation
	ran := false
	err = onCPU(runCPU, func() error {
		for i := -1; i < len(ins); i++ {
			var co, bo progrun.Observation
			if i >= 0 {
				co = runOne(ccoll.Programs[prog], ins[i].Input)
				bo = runOne(bcoll.Programs[prog], ins[i].Input)
				ran = ran || co.Err == ""
			}
			if err := progrun.Observe(&co, ccoll, cs); err != nil {
				return err
			}
			if err := progrun.Observe(&bo, bcoll, bs); err != nil {
				return err
			}
			cobs, bobs = append(cobs, co), append(bobs, bo)
		}
		return nil
	})
	if err != nil {
		res.Diffs = append(res.Diffs, runDiff{Input: "-", What: "error", Detail: err.Error()})
		return
	}
	if !ran {
		res.Skipped = skipRunRefused + ": " + cobs[1].Err
		return
	}
	res.Inputs = len(ins)
	for i := range cobs {
		input := "before"
		if i > 0 {
			input = ins[i-1].Name
		}
		for _, d := range progrun.Compare(cobs[i], bobs[i], nil) {
			res.Diffs = append(res.Diffs, runDiff{Input: input, What: d.What, Detail: d.Detail})
		}
	}
}

func runOne(p *ebpf.Program, in progrun.Input) progrun.Observation {
	o, err := progrun.Run(p, in)
	if err != nil {
		o.Err = errnoText(err)
	}
	return o
}

// errnoText reduces a run error to its errno, which both compilers'
// programs must share.
func errnoText(err error) string {
	var errno unix.Errno
	if errors.As(err, &errno) {
		return unix.ErrnoName(errno)
	}
	return err.Error()
}

// onCPU runs f on a thread pinned to cpu, so that per-CPU state and
// bpf_get_smp_processor_id are the same for both objects' runs.
func onCPU(cpu int, f func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var old, set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return err
	}
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return err
	}
	defer unix.SchedSetaffinity(0, &old)
	return f()
}

// loadAlone loads prog with fresh maps: the spec's maps and the programs
// its program arrays hold (tail calls), else prog alone with empty program
// arrays. It returns the spec it loaded, which names the globals.
func loadAlone(spec *ebpf.CollectionSpec, prog string) (*ebpf.Collection, *ebpf.CollectionSpec, error) {
	one := spec.Copy()
	sizeMaps(one)
	for name, m := range one.Maps {
		if m.Type == ebpf.StructOpsMap {
			delete(one.Maps, name) // needs its struct_ops programs
		}
	}
	keep := map[string]bool{prog: true}
	for _, m := range one.Maps {
		if m.Type != ebpf.ProgramArray {
			continue
		}
		for _, kv := range m.Contents {
			if name, ok := kv.Value.(string); ok {
				keep[name] = true
			}
		}
	}
	for name := range one.Programs {
		if !keep[name] {
			delete(one.Programs, name)
		}
	}
	if coll, err := ebpf.NewCollection(one); err == nil {
		return coll, one, nil
	}
	for name := range one.Programs {
		if name != prog {
			delete(one.Programs, name)
		}
	}
	for _, m := range one.Maps {
		if m.Type == ebpf.ProgramArray {
			m.Contents = nil
		}
	}
	coll, err := ebpf.NewCollection(one)
	if err != nil {
		return nil, nil, err
	}
	return coll, one, nil
}

// diffTable summarises the runs: programs run, equal, different (listed
// or not), and skipped per reason.
func diffTable(results []*runResult) string {
	var run, equal, known, unknown int
	skipped := map[string]int{}
	byType := map[string][2]int{}
	for _, r := range results {
		if r.Skipped != "" {
			reason := r.Skipped
			if reason == skipNotRunnable {
				reason += " (" + r.Type + ")"
			}
			skipped[reason]++
			continue
		}
		run++
		c := byType[r.Type]
		c[0]++
		switch {
		case len(r.Diffs) == 0:
			equal++
			c[1]++
		case len(r.Known) == len(r.Diffs):
			known++
		default:
			unknown++
		}
		byType[r.Type] = c
	}
	var b strings.Builder
	fmt.Fprintf(&b, "programs run: %d; equal: %d; different: %d (%d listed in %s, %d not)\n",
		run, equal, known+unknown, known, knownRunDifferencesFile, unknown)
	for _, t := range progrun.SortedKeys(byType) {
		fmt.Fprintf(&b, "  %-16s run %4d, equal %4d\n", t, byType[t][0], byType[t][1])
	}
	b.WriteString("skipped:\n")
	keys := progrun.SortedKeys(skipped)
	sort.SliceStable(keys, func(i, j int) bool { return skipped[keys[i]] > skipped[keys[j]] })
	for _, k := range keys {
		fmt.Fprintf(&b, "%6d  %s\n", skipped[k], k)
	}
	return b.String()
}
