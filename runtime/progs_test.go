package runtime

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/btf"
)

// Programs for the tests, built with cilium/ebpf's asm as the compiler would
// emit them, so the suite needs no clang.

var (
	u32 = &btf.Int{Name: "__u32", Size: 4}
	s32 = &btf.Int{Name: "int", Size: 4, Encoding: btf.Signed}
	u64 = &btf.Int{Name: "__u64", Size: 8}
	chr = &btf.Int{Name: "char", Size: 1, Encoding: btf.Signed}
)

// offDI is pt_regs->di on x86-64: the first argument at a function's entry.
const offDI = 112

var (
	targetOnce sync.Once
	targetPath string
	targetErr  error
)

// buildTarget compiles testdata/target.c with gcc once per test binary.
func buildTarget(t testing.TB) string {
	t.Helper()
	targetOnce.Do(func() {
		if _, err := exec.LookPath("gcc"); err != nil {
			targetErr = err
			return
		}
		dir, err := os.MkdirTemp("", "bpfcc-runtime-target")
		if err != nil {
			targetErr = err
			return
		}
		targetPath = filepath.Join(dir, "target")
		out, err := exec.Command("gcc", "-O1", "-g", "-o", targetPath, "testdata/target.c").CombinedOutput()
		if err != nil {
			targetErr = &exec.Error{Name: "gcc: " + string(out), Err: err}
		}
	})
	if targetErr != nil {
		t.Skipf("cannot build the target: %v", targetErr)
	}
	return targetPath
}

// needKernel skips tests that load programs when not root.
func needKernel(t testing.TB) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("loading programs needs root")
	}
}

// increment emits "v = lookup(map, fp+keyOff); if v: *v += 1 else
// update(map, key, 1)"; label makes its jump targets unique.
func increment(mapName string, keyOff int16, label string) asm.Instructions {
	return asm.Instructions{
		asm.LoadMapPtr(asm.R1, 0).WithReference(mapName),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, int32(keyOff)),
		asm.FnMapLookupElem.Call(),
		asm.JEq.Imm(asm.R0, 0, label+"_init"),
		asm.Mov.Imm(asm.R1, 1),
		asm.StoreXAdd(asm.R0, asm.R1, asm.DWord),
		asm.Ja.Label(label + "_done"),
		asm.Mov.Imm(asm.R1, 1).WithSymbol(label + "_init"),
		asm.StoreMem(asm.RFP, -64, asm.R1, asm.DWord),
		asm.LoadMapPtr(asm.R1, 0).WithReference(mapName),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, int32(keyOff)),
		asm.Mov.Reg(asm.R3, asm.RFP),
		asm.Add.Imm(asm.R3, -64),
		asm.Mov.Imm(asm.R4, 0),
		asm.FnMapUpdateElem.Call(),
		asm.Mov.Imm(asm.R0, 0).WithSymbol(label + "_done"),
	}
}

func program(name, section string, body ...asm.Instructions) *ebpf.ProgramSpec {
	var insns asm.Instructions
	for _, b := range body {
		insns = append(insns, b...)
	}
	insns[0] = insns[0].WithSymbol(name)
	insns = append(insns, asm.Mov.Imm(asm.R0, 0), asm.Return())
	return &ebpf.ProgramSpec{Name: name, Type: ebpf.Kprobe, SectionName: section, License: "GPL", Instructions: insns}
}

// countSpec counts calls of work per process in the hash map "calls".
func countSpec(section string) *ebpf.CollectionSpec {
	key := &btf.Struct{Name: "key", Size: 4, Members: []btf.Member{{Name: "pid", Type: u32}}}
	return &ebpf.CollectionSpec{
		Maps: map[string]*ebpf.MapSpec{
			"calls": {Name: "calls", Type: ebpf.Hash, KeySize: 4, ValueSize: 8, MaxEntries: 64, Key: key, Value: u64},
		},
		Programs: map[string]*ebpf.ProgramSpec{
			"count": program("count", section, asm.Instructions{
				asm.FnGetCurrentPidTgid.Call(),
				asm.RSh.Imm(asm.R0, 32),
				asm.StoreMem(asm.RFP, -4, asm.R0, asm.Word),
			}, increment("calls", -4, "c")),
		},
	}
}

// log2Bucket computes the log2 bucket of R6 into R8 (0 for 0, else
// 64 - clz), clobbering R6 and R9.
func log2Bucket() asm.Instructions {
	insns := asm.Instructions{
		asm.Mov.Imm(asm.R8, 0),
		asm.JEq.Imm(asm.R6, 0, "b_done"),
		asm.Mov.Imm(asm.R8, 1),
	}
	for i, sh := range []int32{32, 16, 8, 4, 2, 1} {
		skip := "b_skip" + string(rune('a'+i))
		insns = append(insns,
			asm.Mov.Reg(asm.R9, asm.R6),
			asm.RSh.Imm(asm.R9, sh),
			asm.JEq.Imm(asm.R9, 0, skip),
			asm.Mov.Reg(asm.R6, asm.R9),
			asm.Add.Imm(asm.R8, sh),
			asm.Mov.Imm(asm.R0, 0).WithSymbol(skip),
		)
	}
	return append(insns, asm.StoreMem(asm.RFP, -4, asm.R8, asm.Word).WithSymbol("b_done"))
}

// histSpec records log2(n) of work(n) in the per-CPU array "work_hist".
func histSpecFor(section string) *ebpf.CollectionSpec {
	return &ebpf.CollectionSpec{
		Maps: map[string]*ebpf.MapSpec{
			"work_hist": {Name: "work_hist", Type: ebpf.PerCPUArray, KeySize: 4, ValueSize: 8, MaxEntries: 65, Key: u32, Value: u64},
		},
		Programs: map[string]*ebpf.ProgramSpec{
			"hist": program("hist", section, asm.Instructions{
				asm.LoadMem(asm.R6, asm.R1, offDI, asm.Word),
			}, log2Bucket(), increment("work_hist", -4, "h")),
		},
	}
}

// eventType is struct event { __u32 pid; int n; char comm[16]; }.
var eventType = &btf.Struct{Name: "event", Size: 24, Members: []btf.Member{
	{Name: "pid", Type: u32, Offset: 0},
	{Name: "n", Type: s32, Offset: 32},
	{Name: "comm", Type: &btf.Array{Index: u32, Type: chr, Nelems: 16}, Offset: 64},
}}

// eventBody fills a struct event at fp-24 from the current task and work's
// argument, leaving ctx in R6.
func eventBody() asm.Instructions {
	return asm.Instructions{
		asm.Mov.Reg(asm.R6, asm.R1),
		asm.LoadMem(asm.R7, asm.R1, offDI, asm.Word),
		asm.StoreMem(asm.RFP, -20, asm.R7, asm.Word),
		asm.FnGetCurrentPidTgid.Call(),
		asm.RSh.Imm(asm.R0, 32),
		asm.StoreMem(asm.RFP, -24, asm.R0, asm.Word),
		asm.Mov.Reg(asm.R1, asm.RFP),
		asm.Add.Imm(asm.R1, -16),
		asm.Mov.Imm(asm.R2, 16),
		asm.FnGetCurrentComm.Call(),
	}
}

// eventSpec sends a struct event per call through a perf event array or a
// ring buffer named "events".
func eventSpec(section string, ring bool) *ebpf.CollectionSpec {
	var send asm.Instructions
	ms := &ebpf.MapSpec{Name: "events", Type: ebpf.PerfEventArray}
	if ring {
		ms = &ebpf.MapSpec{Name: "events", Type: ebpf.RingBuf, MaxEntries: 1 << 16}
		send = asm.Instructions{
			asm.LoadMapPtr(asm.R1, 0).WithReference("events"),
			asm.Mov.Reg(asm.R2, asm.RFP),
			asm.Add.Imm(asm.R2, -24),
			asm.Mov.Imm(asm.R3, 24),
			asm.Mov.Imm(asm.R4, 0),
			asm.FnRingbufOutput.Call(),
		}
	} else {
		send = asm.Instructions{
			asm.Mov.Reg(asm.R1, asm.R6),
			asm.LoadMapPtr(asm.R2, 0).WithReference("events"),
			asm.LoadImm(asm.R3, 0xffffffff, asm.DWord),
			asm.Mov.Reg(asm.R4, asm.RFP),
			asm.Add.Imm(asm.R4, -24),
			asm.Mov.Imm(asm.R5, 24),
			asm.FnPerfEventOutput.Call(),
		}
	}
	return &ebpf.CollectionSpec{
		Maps:     map[string]*ebpf.MapSpec{"events": ms},
		Programs: map[string]*ebpf.ProgramSpec{"event": program("event", section, eventBody(), send)},
	}
}

// printkSpec calls bpf_printk("n=%d\n", n) for every call of work.
func printkSpec(section string) *ebpf.CollectionSpec {
	return &ebpf.CollectionSpec{
		Programs: map[string]*ebpf.ProgramSpec{
			"printk": program("printk", section, asm.Instructions{
				asm.LoadMem(asm.R3, asm.R1, offDI, asm.Word),
				asm.StoreImm(asm.RFP, -8, 0x64253d6e, asm.Word), // "n=%d"
				asm.StoreImm(asm.RFP, -4, 0x0a, asm.Word),       // "\n\0\0\0"
				asm.Mov.Reg(asm.R1, asm.RFP),
				asm.Add.Imm(asm.R1, -8),
				asm.Mov.Imm(asm.R2, 6),
				asm.FnTracePrintk.Call(),
			}),
		},
	}
}

// fakeLine is instruction line info as the compiler attaches it
// (btf.Line has no exported constructor).
type fakeLine struct {
	file string
	line uint32
}

func (f fakeLine) String() string     { return f.file }
func (f fakeLine) FileName() string   { return f.file }
func (f fakeLine) LineNumber() uint32 { return f.line }

// rejectedSpec dereferences a map lookup without a NULL check at "line 7"
// of src.
func rejectedSpec(section, src string) *ebpf.CollectionSpec {
	spec := countSpec(section)
	insns := asm.Instructions{
		asm.StoreImm(asm.RFP, -4, 0, asm.Word).WithSymbol("bad").WithSource(fakeLine{src, 5}),
		asm.LoadMapPtr(asm.R1, 0).WithReference("calls").WithSource(fakeLine{src, 6}),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, -4),
		asm.FnMapLookupElem.Call(),
		asm.LoadMem(asm.R0, asm.R0, 0, asm.DWord).WithSource(fakeLine{src, 7}),
		asm.Return().WithSource(fakeLine{src, 8}),
	}
	spec.Programs["bad"] = &ebpf.ProgramSpec{Name: "bad", Type: ebpf.Kprobe, SectionName: section, License: "GPL", Instructions: insns}
	return spec
}
