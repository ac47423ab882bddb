package tests

import (
	"errors"
	"testing"
	"time"

	"github.com/bpfcc/bpfcc/ir"
)

// TestIRTextRoundTrip parses the text of every function of the corpus
// after lowering and after every optimiser pass, and prints it again: the
// parser is the printer's inverse on all the IR bpfcc makes (except asm
// and CO-RE instructions, which print as summaries), and what it parses
// passes ir.Check.
func TestIRTextRoundTrip(t *testing.T) {
	funcs, unsupported := 0, 0
	for _, p := range loadCorpus(t) {
		t.Run(p.Name, func(t *testing.T) {
			check := func(pass string, f *ir.Func) {
				funcs++
				text := f.String()
				g, err := ir.ParseFunc(text)
				switch {
				case errors.Is(err, ir.ErrUnsupported):
					unsupported++
				case err != nil:
					t.Errorf("after %s: %v\n%s", pass, err, text)
				case g.String() != text:
					t.Errorf("after %s: round trip differs:\n%s", pass, lineDiff(text, g.String()))
				default:
					if err := ir.Check(g); err != nil {
						t.Errorf("after %s: parsed %s fails ir.Check: %v", pass, f.Name, err)
					}
				}
			}
			opts := bpfccOptions(p)
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
			if _, err := compileWith(p, opts); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Logf("%d function texts, %d with asm or CO-RE", funcs, unsupported)
}
