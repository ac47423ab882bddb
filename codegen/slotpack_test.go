package codegen

import (
	"testing"

	"github.com/bpfcc/bpfcc/ir"
)

// Address-taken scalars only helpers fill, or that only helpers read,
// share a word, two 4-byte ones as clang packs them; a scalar the program
// stores to and loads keeps its own word, as does one a helper fills wider
// than its C size, one read beyond it, and one beside a small object the
// program stores to.
func TestUntrackedScalarsShareWords(t *testing.T) {
	for _, tc := range []struct {
		name  string
		body  string
		frame int // bytes of frame for s0, s1 (and s2 where used)
	}{
		{"both filled by probe_read", `
b0:
  r2 = frame s0
  call 113(r2, 4, r1)
  r3 = frame s1
  call 113(r3, 4, r1)
  r4 = load.u32 [s0] stack
  r5 = load.u32 [s1] stack
  r6 = add r4, r5
  ret r6`, 8},
		{"one stored by the program", `
b0:
  store.u32 [s0], r1 stack
  r3 = frame s1
  call 113(r3, 4, r1)
  r2 = frame s0
  call 1(r1, r2)
  r4 = load.u32 [s0] stack
  r5 = load.u32 [s1] stack
  r6 = add r4, r5
  ret r6`, 16},
		{"stored, read only by helpers", `
b0:
  store.u32 [s0], r1 stack
  r2 = frame s0
  r6 = map m
  r7 = call 1(r6, r2)
  store.u32 [s1], 47 stack
  r3 = frame s1
  call 6(r3, 4)
  ret 0`, 8},
		{"filled wider than its C size", `
b0:
  r2 = frame s0
  call 113(r2, 8, r1)
  r3 = frame s1
  call 113(r3, 4, r1)
  r4 = load.u32 [s0] stack
  r5 = load.u32 [s1] stack
  r6 = add r4, r5
  ret r6`, 12},
		{"read wider than its C size", `
b0:
  r2 = frame s0
  call 113(r2, 4, r1)
  r3 = frame s1
  call 113(r3, 4, r1)
  r4 = load.u64 [s0] stack
  r5 = load.u32 [s1] stack
  r6 = add r4, r5
  ret r6`, 12},
		{"address passed to a BPF function", `
b0:
  r2 = frame s0
  callfunc f(r2)
  r3 = frame s1
  call 113(r3, 4, r1)
  r4 = load.u32 [s0] stack
  r5 = load.u32 [s1] stack
  r6 = add r4, r5
  ret r6`, 12},
		{"beside a small object the program stores to", `
b0:
  store.u32 [s2], r1 stack
  r2 = frame s0
  call 113(r2, 4, r1)
  r3 = frame s2
  call 1(r1, r3)
  r4 = load.u32 [s0] stack
  r5 = load.u32 [s2] stack
  r6 = add r4, r5
  ret r6`, 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ir.ParseFunc(`func p(r1) section "xdp" returns {
  slot s0 "a" size 8 align 8 scalar 4
  slot s1 "b" size 8 align 8 scalar 4
  slot s2 "c" size 4 align 4` + tc.body + "\n}\n")
			if err != nil {
				t.Fatal(err)
			}
			offs, frame := layoutSlots(f)
			if frame != alignUp(tc.frame, 8) {
				t.Errorf("frame %d bytes (a at %d, b at %d, c at %d), want %d", frame, offs[f.Slots[0]], offs[f.Slots[1]], offs[f.Slots[2]], alignUp(tc.frame, 8))
			}
			// Whatever the frame, a scalar the program stores to has a word
			// that no other object's bytes share.
			for _, s := range f.Slots {
				o, ok := offs[s]
				if !ok || s.Scalar == 0 || untrackedIn(f, s) {
					continue
				}
				for _, p := range f.Slots {
					q, ok := offs[p]
					size := p.Size
					if untrackedIn(f, p) {
						size = p.Scalar
					}
					if ok && p != s && q < o+8 && o < q+size {
						t.Errorf("%s at %d shares its word with %s at %d", s.Name, o, p.Name, q)
					}
				}
			}
		})
	}
}

func untrackedIn(f *ir.Func, s *ir.Slot) bool {
	r := slotRanges(f)[s]
	return r != nil && r.untracked
}
