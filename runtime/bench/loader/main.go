// Command loader is the benchmark's stand-in for `bpfcc --load BIN:FUNC`
// without the compiler: it builds a program that counts calls of FUNC per
// process (what bpftrace's `uprobe:BIN:FUNC { @[pid] = count(); }` does),
// runs it with runtime.Run until SIGINT, and prints the table.
//
//	loader BIN:FUNC
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/bpfcc/bpfcc/runtime"
	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/btf"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: loader BIN:FUNC")
		os.Exit(2)
	}
	if err := runtime.Run(context.Background(), countSpec(), runtime.Options{Probe: os.Args[1]}); err != nil {
		fmt.Fprintln(os.Stderr, runtime.Describe(err))
		os.Exit(1)
	}
}

func countSpec() *ebpf.CollectionSpec {
	u32 := &btf.Int{Name: "__u32", Size: 4}
	u64 := &btf.Int{Name: "__u64", Size: 8}
	insns := asm.Instructions{
		asm.FnGetCurrentPidTgid.Call().WithSymbol("count"),
		asm.RSh.Imm(asm.R0, 32),
		asm.StoreMem(asm.RFP, -4, asm.R0, asm.Word),
		asm.LoadMapPtr(asm.R1, 0).WithReference("calls"),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, -4),
		asm.FnMapLookupElem.Call(),
		asm.JEq.Imm(asm.R0, 0, "init"),
		asm.Mov.Imm(asm.R1, 1),
		asm.StoreXAdd(asm.R0, asm.R1, asm.DWord),
		asm.Ja.Label("done"),
		asm.Mov.Imm(asm.R1, 1).WithSymbol("init"),
		asm.StoreMem(asm.RFP, -16, asm.R1, asm.DWord),
		asm.LoadMapPtr(asm.R1, 0).WithReference("calls"),
		asm.Mov.Reg(asm.R2, asm.RFP),
		asm.Add.Imm(asm.R2, -4),
		asm.Mov.Reg(asm.R3, asm.RFP),
		asm.Add.Imm(asm.R3, -16),
		asm.Mov.Imm(asm.R4, 0),
		asm.FnMapUpdateElem.Call(),
		asm.Mov.Imm(asm.R0, 0).WithSymbol("done"),
		asm.Return(),
	}
	return &ebpf.CollectionSpec{
		Maps: map[string]*ebpf.MapSpec{
			"calls": {Name: "calls", Type: ebpf.Hash, KeySize: 4, ValueSize: 8, MaxEntries: 1024, Key: u32, Value: u64},
		},
		Programs: map[string]*ebpf.ProgramSpec{
			"count": {Name: "count", Type: ebpf.Kprobe, SectionName: "uprobe", License: "GPL", Instructions: insns},
		},
	}
}
