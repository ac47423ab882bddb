package dwarfvars

import (
	"fmt"
	"strings"

	"github.com/go-delve/delve/pkg/dwarf/regnum"
)

// ptRegsOff maps x86-64 DWARF register numbers 0-16 to byte offsets in the
// kernel's struct pt_regs (arch/x86/include/asm/ptrace.h).
var ptRegsOff = [...]int{
	0: 80, 1: 96, 2: 88, 3: 40, 4: 104, 5: 112, 6: 32, 7: 152,
	8: 72, 9: 64, 10: 56, 11: 48, 12: 24, 13: 16, 14: 8, 15: 0,
	16: 128,
}

// PtRegsSize is sizeof(struct pt_regs) on x86-64.
const PtRegsSize = 168

// PtRegsIP is the offset of ip in struct pt_regs.
const PtRegsIP = 128

// RegsOffset returns the pt_regs offset of a DWARF register, or false for
// registers a probe cannot read (XMM, x87, segment registers).
func RegsOffset(reg int) (int, bool) {
	if reg >= 0 && reg < len(ptRegsOff) {
		return ptRegsOff[reg], true
	}
	return 0, false
}

// regName names an x86-64 DWARF register in lower case ("rbx", "xmm0").
func regName(reg int) string {
	if reg < 0 {
		return fmt.Sprintf("reg%d", reg)
	}
	if reg == 16 {
		return "rip"
	}
	n := regnum.AMD64ToName(uint64(reg))
	if strings.HasPrefix(n, "unknown") {
		return fmt.Sprintf("reg%d", reg)
	}
	return strings.ToLower(n)
}

// isVectorReg reports XMM (17-32) and x87/MMX (33-48) registers.
func isVectorReg(reg int) bool { return reg >= 17 && reg <= 48 }
