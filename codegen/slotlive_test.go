package codegen

import (
	"testing"

	"github.com/bpfcc/bpfcc/ir"
)

// Objects of one C block share memory where their accesses never meet,
// and not where a loop, a derived address or an escape keeps one alive
// while the other is used. (Parsed IR has no scopes: every pair of objects
// overlaps by scope, so the ranges alone decide.)
func TestSlotRangesShare(t *testing.T) {
	for _, tc := range []struct {
		name  string
		body  string
		share bool // whether s0 and s1 share memory
	}{
		{"sequential", `
b0:
  store.u64 [s0], 1 stack
  r2 = load.u64 [s0] stack
  store.u64 [s1], r2 stack
  r3 = load.u64 [s1] stack
  ret r3`, true},
		{"helper arguments", `
b0:
  r2 = frame s0
  call 16(r2, 64)
  r3 = frame s1
  call 16(r3, 64)
  ret 0`, true},
		{"one call reads both", `
b0:
  r2 = frame s0
  call 16(r2, 64)
  r3 = frame s1
  call 113(r3, 64, r2)
  ret 0`, false},
		{"derived address used after", `
b0:
  r2 = frame s0
  r4 = add r2, 8
  call 16(r2, 64)
  r3 = frame s1
  call 16(r3, 64)
  r5 = load.u64 [r4] stack
  ret r5`, false},
		{"loop keeps the earlier object alive", `
b0:
  store.u64 [s0], 1 stack
  goto b1
b1:
  r2 = load.u64 [s0] stack
  store.u64 [s1], r2 stack
  r3 = load.u64 [s1] stack
  if r3 eq 0 goto b1 else b2
b2:
  ret 0`, false},
		{"branches that never meet", `
b0:
  if r1 eq 0 goto b1 else b2
b1:
  store.u64 [s0], 1 stack
  r2 = load.u64 [s0] stack
  ret r2
b2:
  store.u64 [s1], 2 stack
  r3 = load.u64 [s1] stack
  ret r3`, true},
		{"address stored to a map value", `
b0:
  r2 = frame s0
  r6 = map m
  r7 = call 1(r6, r2)
  store.u64 [r7], r2 mapvalue
  call 16(r2, 64)
  r3 = frame s1
  call 16(r3, 64)
  ret 0`, false},
		{"address stored in an object and read through after", `
b0:
  r2 = frame s0
  call 16(r2, 64)
  store.u64 [s2], r2 stack
  r3 = frame s1
  call 16(r3, 64)
  r4 = load.u64 [s2] stack
  r5 = load.u64 [r4] stack
  ret r5`, false},
		{"each filled on one arm, read through one pointer after", `
b0:
  if r1 eq 0 goto b1 else b2
b1:
  r2 = frame s0
  call 16(r2, 64)
  store.u64 [s2], r2 stack
  goto b3
b2:
  r3 = frame s1
  call 16(r3, 64)
  store.u64 [s2], r3 stack
  goto b3
b3:
  r4 = load.u64 [s2] stack
  call 4(r1, 8, r4)
  ret 0`, true},
		{"address held by an object a helper is given", `
b0:
  r2 = frame s0
  call 16(r2, 64)
  store.u64 [s2], r2 stack
  r3 = frame s1
  call 16(r3, 64)
  r4 = frame s2
  call 181(8, 0, r4, 0)
  ret 0`, false},
		{"address passed to a BPF function", `
b0:
  r2 = frame s0
  callfunc f(r2)
  r3 = frame s1
  call 16(r3, 64)
  ret 0`, false},
		{"address kept by bpf_dynptr_from_mem", `
b0:
  r2 = frame s0
  r4 = frame s2
  call 197(r2, 64, 0, r4)
  r3 = frame s1
  call 16(r3, 64)
  ret 0`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ir.ParseFunc(`func p(r1) section "xdp" returns {
  slot s0 "a" size 64 align 8
  slot s1 "b" size 64 align 8
  slot s2 "c" size 16 align 8` + tc.body + "\n}\n")
			if err != nil {
				t.Fatal(err)
			}
			offs, _ := layoutSlots(f)
			if got := offs[f.Slots[0]] == offs[f.Slots[1]]; got != tc.share {
				t.Errorf("a at %d, b at %d: share = %v, want %v", offs[f.Slots[0]], offs[f.Slots[1]], got, tc.share)
			}
		})
	}
}
