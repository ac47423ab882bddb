package lower

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

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

// asmLabel is one label of asm goto's label list.
type asmLabel struct {
	name string
	node cc.Node
}

// localLabelSuffix is what the front end appends to a GNU local label
// (__label__) declared in a macro to make each expansion's unique; %l[name]
// in the asm text still says the name as written.
var localLabelSuffix = regexp.MustCompile(`_bpfcc_[0-9]+$`)

var labelRef = regexp.MustCompile(`%l(\[[A-Za-z_][A-Za-z_0-9]*\]|[0-9]+)`)

// asmGotoText replaces the label references of text (%l[name], %lN, N
// counting the operands first) with stubs' labels and appends the stubs.
func (fl *fnLowerer) asmGotoText(x *cc.Asm, text string, ops []asmOperand, labels []asmLabel) (string, bool) {
	for _, op := range ops {
		if op.output {
			fl.l.errorf(op.node, "asm goto with output operands is not supported")
			return "", false
		}
	}
	bad := ""
	text = labelRef.ReplaceAllStringFunc(text, func(ref string) string {
		k := -1
		if ref[2] == '[' {
			name := ref[3 : len(ref)-1]
			for i, l := range labels {
				if l.name == name || localLabelSuffix.ReplaceAllString(l.name, "") == name {
					k = i
					break
				}
			}
		} else if n, err := strconv.Atoi(ref[2:]); err == nil && n >= len(ops) && n-len(ops) < len(labels) {
			k = n - len(ops)
		}
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
	fmt.Fprintf(&b, "\n%s = 0\ngoto __bpfcc_goto_end", sel)
	for k := range labels {
		fmt.Fprintf(&b, "\n__bpfcc_goto_%d: %s = %d", k, sel, k+1)
		if k < len(labels)-1 {
			b.WriteString("\ngoto __bpfcc_goto_end")
		}
	}
	b.WriteString("\n__bpfcc_goto_end:")
	return b.String(), true
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
