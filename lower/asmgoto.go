package lower

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/ir"
)

// asm goto ("if %[x] > 5 goto %l[big]" :: ... :: big) jumps from inside
// the asm to C labels. The OpAsm stays one straight-line instruction: its
// text jumps to stubs appended after it, each setting a selector register
// (0 when the code falls through, k+1 for label k), and C branches on the
// selector follow. On each path the verifier sees the selector as a
// constant, so the extra branch costs it nothing, and what the asm's own
// branch taught it about its operands holds at the label.

// asmGotoSel names the selector output operand lower adds.
const asmGotoSel = "__bpfcc_goto"

// asmGotoFallthrough is the code asmGotoText appends where the asm's own
// text falls through: selector 0.
const asmGotoFallthrough = "\n%[" + asmGotoSel + "] = 0\ngoto __bpfcc_goto_end"

// asmLabel is one label of asm goto's label list.
type asmLabel struct {
	name string
	node cc.Node
}

// localLabelSuffix is what the front end appends to a GNU local label
// (__label__) declared in a macro to make each expansion's unique; %l[name]
// in the asm text still says the name as written.
var localLabelSuffix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`_bpfcc_[0-9]+$`) })
var labelRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`%l(\[[A-Za-z_][A-Za-z_0-9]*\]|[0-9]+)`) })

// asmGotoText replaces the label references of text (%l[name], %lN, N
// counting the operands first) with stubs' labels and appends the stubs.
func (fl *fnLowerer) asmGotoText(x *cc.Asm, text string, ops []asmOperand, labels []asmLabel) (string, bool) {
	bad := ""
	text = labelRef().ReplaceAllStringFunc(text, func(ref string) string {
		k := labelIndex(ref, len(ops), labels)
		if k < 0 {
			bad = ref
			return ref
		}
		return fmt.Sprintf("__bpfcc_goto_%d", k)
	})
	if bad != "" {
		fl.l.errorf(x, "asm goto: %s names no label of the statement's label list", bad)
		return "", false
	}
	var b strings.Builder
	b.WriteString(text)
	sel := "%[" + asmGotoSel + "]"
	b.WriteString(asmGotoFallthrough)
	for k := range labels {
		fmt.Fprintf(&b, "\n__bpfcc_goto_%d: %s = %d", k, sel, k+1)
		if k < len(labels)-1 {
			b.WriteString("\ngoto __bpfcc_goto_end")
		}
	}
	b.WriteString("\n__bpfcc_goto_end:")
	return b.String(), true
}

// labelIndex returns the index in labels of a label reference (%l[name],
// or %lN with N counting the nops operands first), or -1.
func labelIndex(ref string, nops int, labels []asmLabel) int {
	if ref[2] == '[' {
		name := ref[3 : len(ref)-1]
		for i, l := range labels {
			if l.name == name || localLabelSuffix().ReplaceAllString(l.name, "") == name {
				return i
			}
		}
	} else if n, err := strconv.Atoi(ref[2:]); err == nil && n >= nops && n-nops < len(labels) {
		return n - nops
	}
	return -1
}

// asmGotoBranches jumps to label k where the selector says k+1.
func (fl *fnLowerer) asmGotoBranches(sel ir.Reg, labels []asmLabel) {
	for k, l := range labels {
		then, next := fl.f.NewBlock(), fl.f.NewBlock()
		fl.branch(ir.Eq, ir.R(sel), ir.Imm(int64(k+1)), false, then, next)
		fl.startBlock(then)
		fl.gotoLabel(l.node, l.name)
		fl.startBlock(next)
	}
}

// asmGotoCompare is asm goto text that is one conditional jump to the
// statement's one label, as bpf_experimental.h's bpf_cmp_likely and
// bpf_cmp_unlikely write it: "if %[lhs] OP %[rhs] goto %l[label]" (the
// right operand may be a number).
var asmGotoCompare = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*if\s+%\[([A-Za-z_][A-Za-z_0-9]*)\]\s*(==|!=|s?[<>]=?|&)\s*(%\[([A-Za-z_][A-Za-z_0-9]*)\]|-?[0-9]+|0x[0-9a-fA-F]+)\s+goto\s+(` + labelRef().String() + `)\s*;?\s*$`)
})

// asmGoCond maps the BPF assembler's jump operators to branch conditions.
var asmGoCond = map[string]ir.Cond{
	"==": ir.Eq, "!=": ir.Ne, "&": ir.Set,
	">": ir.Ugt, ">=": ir.Uge, "<": ir.Ult, "<=": ir.Ule,
	"s>": ir.Sgt, "s>=": ir.Sge, "s<": ir.Slt, "s<=": ir.Sle,
}

// asmGotoBranch lowers an asm goto whose text is asmGotoCompare as a
// branch of the IR instead of an OpAsm with a selector: the same compare of
// the same registers, which the optimiser can then thread (bpf_cmp's
// `ret = DEFAULT; asm goto; ret = !DEFAULT; l_true:` followed by `if
// (ret)` becomes one conditional jump, as clang emits it; the selector
// cost every assertion three instructions and a branch the verifier
// walks). It reports false, having emitted nothing, for any other text.
func (fl *fnLowerer) asmGotoBranch(text string, ops []asmOperand, label asmLabel) bool {
	m := asmGotoCompare().FindStringSubmatch(text)
	if m == nil || fl.f.Naked {
		return false
	}
	operand := func(name string) *asmOperand {
		for i := range ops {
			if op := &ops[i]; op.name == name && !op.output && !op.mem && op.tied < 0 {
				return op
			}
		}
		return nil
	}
	if labelIndex(m[5], len(ops), []asmLabel{label}) != 0 {
		return false
	}
	lhs := operand(m[1])
	if lhs == nil || lhs.constraint != "r" {
		return false
	}
	var rhsOp *asmOperand
	var imm int64
	if m[4] != "" {
		if rhsOp = operand(m[4]); rhsOp == nil || rhsOp.constraint != "r" && rhsOp.constraint != "i" && rhsOp.constraint != "n" {
			return false
		}
	} else {
		v, err := strconv.ParseInt(m[3], 0, 32)
		if err != nil {
			return false
		}
		imm = v
	}
	if !isScalar(lhs.expr.Type()) || rhsOp != nil && !isScalar(rhsOp.expr.Type()) {
		return false
	}
	a := ir.R(fl.toReg(fl.rvalue(lhs.expr)))
	b := ir.Imm(imm)
	if rhsOp != nil {
		b = fl.rvalue(rhsOp.expr).op
	}
	then, next := fl.f.NewBlock(), fl.f.NewBlock()
	fl.branch(asmGoCond[m[2]], a, b, false, then, next)
	fl.startBlock(then)
	fl.gotoLabel(label.node, label.name)
	fl.startBlock(next)
	return true
}
