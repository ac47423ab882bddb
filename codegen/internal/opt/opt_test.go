package opt

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/bpfcc/bpfcc/ir"
)

// parse reads IR text, failing the test on an error.
func parse(t *testing.T, text string) *ir.Module {
	t.Helper()
	m, err := ir.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestInlineRecursionTerminates inlines mutually "recursive" Inline
// functions without looping forever.
func TestInlineRecursionTerminates(t *testing.T) {
	m := parse(t, `
func a(r1) static returns inline {
b0:
  r2 = callfunc b(r1)
  ret r2
}
func b(r1) static returns inline {
b0:
  r2 = callfunc a(r1)
  ret r2
}
`)
	if err := Inline(m, 2); err != nil {
		t.Fatal(err)
	}
}

// TestZeroExtended: a parameter or a sign-extended value is not known to
// be zero-extended, a 32-bit result and copies of it are.
func TestZeroExtended(t *testing.T) {
	f := parse(t, `
func prog(r1) section "socket" returns {
b0:
  r2 = add32 r1, 1
  r3 = mov r2
  r4 = sext8 r2
  ret r4
}
`).Funcs[0]
	z := zeroExtended(f)
	if z[1] || !z[2] || !z[3] || z[4] {
		t.Errorf("zeroExtended = %v, want r2 and r3 only", z)
	}
}

// TestStringLiteralFoldable: a string literal's contents may be folded.
func TestStringLiteralFoldable(t *testing.T) {
	if !foldableGlobal(&ir.Global{Name: ".str.0", Section: ".rodata", Static: true, Size: 2, Init: []byte{'a', 0}}) {
		t.Error("string literal not foldable")
	}
}

// TestPassesKeepIRValid runs every function pass alone on the test
// programs and the golden inputs, at every CPU.
func TestPassesKeepIRValid(t *testing.T) {
	funcs := parse(t, `
func straight(r1) section "socket" returns {
b0:
  r2 = mov 40
  r3 = call 5()
  r4 = add r2, r3
  ret r4
}
func loop(r1) section "socket" returns {
b0:
  r2 = mov 0
  goto b1
b1:
  r2 = sdiv r2, -3
  if r2 slt32 5 goto b1 else b2
b2:
  ret r2
}
`).Funcs
	inputs, _ := filepath.Glob(filepath.Join("testdata", "*", "*.ir"))
	for _, in := range inputs {
		text, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		funcs = append(funcs, parse(t, string(text)).Funcs...)
	}
	for _, p := range passes {
		if p.fn == nil {
			continue
		}
		for _, f := range funcs {
			for cpu := 1; cpu <= 4; cpu++ {
				c := cloneFunc(f)
				p.fn(c, &passCtx{cpu: cpu, optLevel: 2})
				if err := ir.Check(c); err != nil {
					t.Errorf("pass %s on %s (v%d): %v", p.name, f.Name, cpu, err)
				}
			}
		}
	}
}
