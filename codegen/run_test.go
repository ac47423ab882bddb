package codegen

import (
	"fmt"
	"testing"

	"github.com/bpfcc/bpfcc/ir"
)

func TestReturnConstant(t *testing.T) {
	x := newFunc("prog", "socket", 1)
	a := x.mov(ir.Imm(40))
	b := x.alu(ir.Add, false, ir.R(a), ir.Imm(2))
	x.ret(ir.R(b))
	for _, o := range allOpts {
		t.Run(fmt.Sprint(o), func(t *testing.T) {
			if got := runModule(t, module(x.f), "prog", o, nil); got != 42 {
				t.Fatalf("got %d, want 42", got)
			}
		})
	}
}
