package bpfcc

import (
	"fmt"
	"strings"

	"github.com/cilium/ebpf/asm"

	"github.com/bpfcc/bpfcc/codegen/obj"
	"github.com/bpfcc/bpfcc/diag"
	"github.com/bpfcc/bpfcc/ir"
)

// maxCombinedStack is the kernel's limit on the stack of a whole bpf-to-bpf
// call chain; each frame counts rounded up to 32 bytes (check_max_stack_depth).
const maxCombinedStack = 512

// checkCallChainStack rejects programs whose deepest call chain needs more
// than 512 bytes of stack, naming the chain.
func checkCallChainStack(o *obj.Object, m *ir.Module) error {
	funcs := map[string]*obj.Func{}
	for _, f := range o.Funcs {
		funcs[f.Name] = f
	}
	frame := func(f *obj.Func) int { return (max(f.StackSize, 1) + 31) / 32 * 32 }
	memo := map[string]int{}
	path := map[string][]string{}
	var depth func(name string, seen map[string]bool) int
	depth = func(name string, seen map[string]bool) int {
		if d, ok := memo[name]; ok {
			return d
		}
		f := funcs[name]
		if f == nil || seen[name] {
			return 0
		}
		seen[name] = true
		best, bestPath := 0, []string(nil)
		for i, ins := range f.Insns {
			// A callback (ld_imm64 of a function) runs in a frame of its
			// own on top of the caller's, as a call does, unless it is
			// asynchronous (a timer's): the kernel checks that one alone.
			call := ins.OpCode.JumpOp() == asm.Call && ins.Src == asm.PseudoCall
			callback := ins.OpCode.IsDWordLoad() && ins.Src == asm.PseudoFunc && !asyncCallback(f.Insns[i+1:])
			if call || callback {
				callee := ins.Reference()
				if d := depth(callee, seen); d > best {
					best, bestPath = d, path[callee]
				}
			}
		}
		delete(seen, name)
		memo[name] = frame(f) + best
		path[name] = append([]string{name}, bestPath...)
		return memo[name]
	}
	var dl diag.List
	for _, f := range o.Funcs {
		if f.Section == ".text" {
			continue
		}
		if d := depth(f.Name, map[string]bool{}); d > maxCombinedStack && len(path[f.Name]) > 1 {
			pos := ir.Pos{}
			for _, mf := range m.Funcs {
				if mf.Name == f.Name {
					pos = mf.Pos
				}
			}
			dl = append(dl, diag.Diagnostic{File: pos.File, Line: pos.Line, Col: pos.Col,
				Msg: fmt.Sprintf("program %q needs %d bytes of stack through the call chain %v; BPF allows %d in all", f.Name, d, path[f.Name], maxCombinedStack)})
		}
	}
	if len(dl) > 0 {
		return dl
	}
	return nil
}

// asyncCallback reports whether the function address loaded just before
// insns is handed to a helper that runs it later in a context of its own
// (bpf_timer_set_callback, the bpf_wq_set_callback kfunc): the next call
// decides.
func asyncCallback(insns asm.Instructions) bool {
	for _, ins := range insns {
		if ins.OpCode.JumpOp() != asm.Call {
			continue
		}
		switch {
		case ins.Src == asm.PseudoKfuncCall:
			return strings.HasPrefix(ins.Reference(), "bpf_wq_set_callback")
		case ins.Src == asm.PseudoCall:
			return false
		default:
			return asm.BuiltinFunc(ins.Constant) == asm.FnTimerSetCallback
		}
	}
	return false
}
