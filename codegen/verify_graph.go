package codegen

import (
	"strings"

	"github.com/cilium/ebpf/asm"

	"github.com/bpfcc/bpfcc/codegen/obj"
	"github.com/bpfcc/bpfcc/diag"
)

// callGraph is the object's functions by name, for the checks that the
// kernel makes per program: the loader (libbpf, cilium/ebpf) appends to a
// program every subprogram it calls or whose address it loads (a
// callback), and the kernel counts stack, instructions and maps over the
// whole.
type callGraph struct {
	funcs map[string]*obj.Func
	// dataOf names the data section (a map to the kernel) of each variable.
	dataOf   map[string]string
	mapNames map[string]bool
	// kconfig are the .kconfig externs, which libbpf keeps in a map of its own.
	kconfig map[string]bool
}

func newCallGraph(o *obj.Object) *callGraph {
	g := &callGraph{funcs: map[string]*obj.Func{}, dataOf: map[string]string{}, mapNames: map[string]bool{}, kconfig: map[string]bool{}}
	for _, f := range o.Funcs {
		g.funcs[f.Name] = f
	}
	for _, ds := range o.Data {
		for _, v := range ds.Vars {
			g.dataOf[v.Name] = ds.Name
		}
	}
	for _, m := range o.Maps {
		g.mapNames[m.Name] = true
	}
	for _, e := range o.Externs {
		if e.Section == ".kconfig" {
			g.kconfig[e.Name] = true
		}
	}
	return g
}

// callee returns the function ins calls (a bpf-to-bpf call) or whose
// address it loads (a callback), or nil.
func (g *callGraph) callee(ins asm.Instruction) (f *obj.Func, call bool) {
	switch {
	case ins.OpCode.JumpOp() == asm.Call && ins.Src == asm.PseudoCall:
		return g.funcs[ins.Reference()], true
	case ins.OpCode.IsDWordLoad() && ins.Src == asm.PseudoFunc:
		return g.funcs[ins.Reference()], false
	}
	return nil, false
}

// program returns p and the functions the loader links into its program,
// each once, in the order they are first reached.
func (g *callGraph) program(p *obj.Func) []*obj.Func {
	out := []*obj.Func{p}
	seen := map[*obj.Func]bool{p: true}
	for i := 0; i < len(out); i++ {
		for _, ins := range out[i].Insns {
			if c, _ := g.callee(ins); c != nil && !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// maps returns the maps the kernel counts for a program of funcs: each map
// an ld_imm64 names, each data section (.data, .rodata, .bss, ...) holding
// a variable one addresses, and libbpf's .kconfig map.
func (g *callGraph) maps(funcs []*obj.Func) map[string]bool {
	used := map[string]bool{}
	for _, f := range funcs {
		for _, ins := range f.Insns {
			if !ins.OpCode.IsDWordLoad() || ins.Src == asm.PseudoFunc {
				continue
			}
			ref := ins.Reference()
			switch {
			case ref == "":
			case g.mapNames[ref]:
				used[ref] = true
			case g.dataOf[ref] != "":
				used[g.dataOf[ref]] = true
			case g.kconfig[ref]:
				used[".kconfig"] = true
			}
		}
	}
	return used
}

// asyncCallbacks returns the callbacks that funcs hand to a helper that runs
// them later in a context of their own (bpf_timer_set_callback, the
// bpf_wq_set_callback kfunc). The kernel marks the function itself, not one
// use of it: loading its address elsewhere adds no frame either, and it is
// checked as a root of its own (check_max_stack_depth).
func (g *callGraph) asyncCallbacks(funcs []*obj.Func) map[*obj.Func]bool {
	async := map[*obj.Func]bool{}
	for _, f := range funcs {
		for i, ins := range f.Insns {
			if c, call := g.callee(ins); c != nil && !call && g.asyncCallback(f.Insns[i+1:]) {
				async[c] = true
			}
		}
	}
	return async
}

// asyncCallback reports whether the function address loaded just before
// insns is handed to a helper that runs it asynchronously: the next call
// decides. A kfunc call is a PseudoCall naming no function of the object
// (PseudoKfuncCall where asm wrote it).
func (g *callGraph) asyncCallback(insns asm.Instructions) bool {
	for _, ins := range insns {
		if ins.OpCode.JumpOp() != asm.Call {
			continue
		}
		switch {
		case ins.Src == asm.PseudoKfuncCall || ins.Src == asm.PseudoCall && g.funcs[ins.Reference()] == nil:
			return strings.HasPrefix(ins.Reference(), "bpf_wq_set_callback")
		case ins.Src == asm.PseudoCall:
			return false
		default:
			return asm.BuiltinFunc(ins.Constant) == asm.FnTimerSetCallback
		}
	}
	return false
}

// checkStack warns of call chains of the program p (of funcs) whose frames
// need more than MaxStack bytes together, naming the chain. A warning, as
// clang compiles such chains: the total is the verifier's verdict, and
// tests of that verdict are programs too. A callback runs
// in a frame of its own on top of its caller's, as a call does, unless it
// is asynchronous: the kernel checks that one as a root of its own
// (reported once per callback, in reported). A chain of one frame is the
// frame limit's business.
func (g *callGraph) checkStack(p *obj.Func, funcs []*obj.Func, reported map[string]bool) diag.List {
	async := g.asyncCallbacks(funcs)
	// Each frame counts rounded up to 32 bytes, as the interpreter's (the
	// JIT's 16 is never more).
	frame := func(f *obj.Func) int { return (max(f.StackSize, 1) + 31) / 32 * 32 }
	memo := map[*obj.Func]int{}
	path := map[*obj.Func][]string{}
	var depth func(f *obj.Func, seen map[*obj.Func]bool) int
	depth = func(f *obj.Func, seen map[*obj.Func]bool) int {
		if d, ok := memo[f]; ok {
			return d
		}
		if seen[f] {
			return 0 // recursion, which the front end rejects
		}
		seen[f] = true
		best, bestPath := 0, []string(nil)
		for _, ins := range f.Insns {
			c, call := g.callee(ins)
			if c == nil || (!call && async[c]) {
				continue
			}
			if d := depth(c, seen); d > best {
				best, bestPath = d, path[c]
			}
		}
		delete(seen, f)
		memo[f] = frame(f) + best
		path[f] = append([]string{f.Name}, bestPath...)
		return memo[f]
	}
	var dl diag.List
	if d := depth(p, map[*obj.Func]bool{}); d > MaxStack && len(path[p]) > 1 {
		dl = append(dl, at(p.Pos, diag.Warning, "program %q needs %d bytes of stack through the call chain %v; the verifier allows %d in all", p.Name, d, path[p], MaxStack))
	}
	for _, cb := range funcs {
		if !async[cb] || reported[cb.Name] {
			continue
		}
		if d := depth(cb, map[*obj.Func]bool{}); d > MaxStack && len(path[cb]) > 1 {
			reported[cb.Name] = true
			dl = append(dl, at(cb.Pos, diag.Warning, "callback %q, which program %q runs asynchronously, needs %d bytes of stack through the call chain %v; the verifier allows %d in all", cb.Name, p.Name, d, path[cb], MaxStack))
		}
	}
	return dl
}
