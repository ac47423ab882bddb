package codegen

import (
	"testing"

	"github.com/cilium/ebpf/asm"
)

// Inline asm ending in "goto -1" leaves its block for good: the block's C
// successor is not reached from it, so layout and reachability do not
// count that edge and no jump to it is emitted (the verifier refuses an
// instruction nothing reaches: task_kfunc_success's "unreachable insn").
// An asm jump to the end of its block keeps the edge.
func TestNoFallthroughAfterAsm(t *testing.T) {
	spin := outInsn{ins: asm.Instruction{OpCode: asm.Ja.Op(asm.ImmSource), Offset: -1}}
	skip := outInsn{ins: asm.Instruction{OpCode: asm.JEq.Op(asm.ImmSource), Dst: asm.R1, Offset: 1}}
	mov := outInsn{ins: asm.Mov.Imm(asm.R0, 1)}
	jump := func(to int) *minst { return &minst{kind: kJump, then: to} }
	for _, c := range []struct {
		name string
		body []outInsn
		want bool
	}{
		{"goto -1 last", []outInsn{mov, spin}, true},
		{"exit last", []outInsn{mov, {ins: asm.Return()}}, true},
		{"plain code", []outInsn{mov}, false},
		{"asm jumps to the block end", []outInsn{skip, spin}, false},
	} {
		blocks := []emitted{{body: c.body, term: jump(1)}, {body: []outInsn{mov}, term: &minst{kind: kExit}}}
		if got := noFallthrough(&blocks[0]); got != c.want {
			t.Errorf("%s: noFallthrough = %v, want %v", c.name, got, c.want)
		}
		target := threadJumps(blocks)
		if reach := reachable(blocks, target); reach[1] == c.want {
			t.Errorf("%s: block after the asm reachable = %v, want %v", c.name, reach[1], !c.want)
		}
	}
}
