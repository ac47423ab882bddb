package tests

import (
	"errors"
	"github.com/bpfcc/bpfcc"
	"testing"
	"time"

	"github.com/bpfcc/bpfcc/ir"
)

// roundTrip returns options that parse the text of every function after
// lowering and after every optimiser pass and print it again, reporting
// to t where the text differs or the parsed function fails ir.Check: the
// parser is the printer's inverse on all the IR bpfcc makes (except asm
// and CO-RE instructions, which print as summaries). TestGolden's second compile of each corpus program uses
// it, which also shows that the hooks change nothing.
func roundTrip(t *testing.T, opts bpfcc.Options) bpfcc.Options {
	check := func(pass string, f *ir.Func) {
		text := f.String()
		g, err := ir.ParseFunc(text)
		switch {
		case errors.Is(err, ir.ErrUnsupported):
		case err != nil:
			t.Errorf("IR text after %s: %v\n%s", pass, err, text)
		case g.String() != text:
			t.Errorf("IR text after %s: round trip differs:\n%s", pass, lineDiff(text, g.String()))
		default:
			if err := ir.Check(g); err != nil {
				t.Errorf("IR text after %s: parsed %s fails ir.Check: %v", pass, f.Name, err)
			}
		}
	}
	opts.DumpIR = func(m *ir.Module) {
		for _, f := range m.Funcs {
			check("lower", f)
		}
	}
	opts.AfterPass = func(pass string, m *ir.Module, f *ir.Func, _ time.Duration) {
		if f != nil {
			check(pass, f)
			return
		}
		for _, f := range m.Funcs {
			check(pass, f)
		}
	}
	return opts
}
