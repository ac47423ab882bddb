package elfwriter

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/cilium/ebpf/asm"

	"github.com/bpfcc/bpfcc/codegen/obj"
)

// FuzzWrite feeds arbitrary instruction streams and line tables through the
// writer: it may reject them, but must not fail internally.
func FuzzWrite(f *testing.F) {
	var seed bytes.Buffer
	if err := testObject().Funcs[0].Insns.Marshal(&seed, binary.LittleEndian); err == nil {
		f.Add(seed.Bytes(), uint8(3), "counts")
	}
	f.Add([]byte{0x95, 0, 0, 0, 0, 0, 0, 0}, uint8(0), "gadd")
	f.Fuzz(func(t *testing.T, code []byte, line uint8, ref string) {
		var insns asm.Instructions
		r := bytes.NewReader(code)
		for r.Len() >= asm.InstructionSize {
			var ins asm.Instruction
			if err := ins.Unmarshal(r, binary.LittleEndian, "linux"); err != nil {
				break
			}
			if len(insns)%3 == 1 {
				ins = ins.WithReference(ref)
			}
			insns = append(insns, ins)
		}
		o := testObject()
		o.Funcs[0].Insns = insns
		o.Funcs[0].Lines = []obj.Line{{Insn: int(line), File: ref, Line: uint32(line), Text: ref}}
		if _, err := Write(o); err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("internal error: %v", err)
		}
	})
}
