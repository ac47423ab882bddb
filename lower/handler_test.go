package lower

import (
	"strings"
	"testing"

	"github.com/cilium/ebpf/btf"

	"github.com/bpfcc/bpfcc/bind"
	"github.com/bpfcc/bpfcc/dwarfvars"
	"github.com/bpfcc/bpfcc/frontend"
	"github.com/bpfcc/bpfcc/ir"
)

// entryBinding is a binding of expr to the entry value of a DWARF register.
func entryBinding(expr string, reg int) *dwarfvars.Binding {
	off, _ := dwarfvars.RegsOffset(reg)
	loc := dwarfvars.Location{Kind: dwarfvars.LocValue, Size: 8, Fetch: &dwarfvars.Fetch{Start: dwarfvars.Source{Kind: dwarfvars.SrcEntryValue, Reg: reg, RegsOff: off}}}
	return &dwarfvars.Binding{
		Expr: dwarfvars.Expr{Text: expr, Var: expr},
		Type: &dwarfvars.Type{Kind: dwarfvars.KindBase, Size: 8, Spelling: "long"},
		Loc:  loc,
		Entry: &dwarfvars.EntryInfo{Func: "work", Regs: loc.EntryRegs(),
			EntryCFA: dwarfvars.Source{Kind: dwarfvars.SrcCFA, Reg: 7, RegsOff: 152, Offset: 8},
			SiteCFA:  dwarfvars.Source{Kind: dwarfvars.SrcCFA, Reg: 7, RegsOff: 152, Offset: 40}},
	}
}

const entrySrc = `
long out;
int h1(void *ctx, long a, long b) { out = a + b; return 0; }
int h2(void *ctx, long c) { out = c; return 0; }
`

// Every handler at one function shares one entry helper, which saves every
// register; a handler reads each entry value it needs from that record and
// counts a missing record as a read error of that parameter.
func TestEntryValuesShareOneHelper(t *testing.T) {
	u, err := frontend.Parse("t.c", frontend.Options{Source: []byte(entrySrc)})
	if err != nil {
		t.Fatal(err)
	}
	const entrySec = "uprobe//bin/app:work+0x0"
	hs := []bind.Handler{
		{Name: "h1", Sites: []bind.HandlerSite{{Name: "h1", Section: "uprobe//bin/app:work+0x20", EntrySection: entrySec,
			Bindings: []*dwarfvars.Binding{entryBinding("a", 5 /* rdi */), entryBinding("b", 1 /* rdx */)}}}},
		{Name: "h2", Sites: []bind.HandlerSite{{Name: "h2", Section: "uprobe//bin/app:work+0x20", EntrySection: entrySec,
			Bindings: []*dwarfvars.Binding{entryBinding("c", 4 /* rsi */)}}}},
	}
	m, _, err := Lower(u, Options{OptLevel: 2, CPU: 3, Handlers: hs})
	if err != nil {
		t.Fatal(err)
	}
	var entries []*ir.Func
	for _, f := range m.Funcs {
		if strings.HasSuffix(f.Name, "__entry") {
			entries = append(entries, f)
		}
	}
	if len(entries) != 1 || entries[0].Name != "h1__entry" || entries[0].Section != entrySec {
		t.Fatalf("want one entry helper h1__entry at %s, got %d: %v", entrySec, len(entries), entries)
	}
	// The helper saves all 17 registers (DWARF 0..16) of pt_regs.
	saved := map[int64]bool{}
	for _, b := range entries[0].Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpStore && in.Space == ir.SpaceStack && !in.B.IsImm {
				saved[in.Off] = true
			}
		}
	}
	for reg := 0; reg < entryRegs; reg++ {
		if !saved[int64(8*reg)] {
			t.Errorf("entry helper does not save DWARF register %d", reg)
		}
	}
	// offsets gives the Off of each instruction of function name that match.
	offsets := func(name string, match func(*ir.Instr) bool) map[int64]bool {
		got := map[int64]bool{}
		for _, f := range m.Funcs {
			if f.Name != name {
				continue
			}
			for _, b := range f.Blocks {
				for _, in := range b.Instrs {
					if match(in) {
						got[in.Off] = true
					}
				}
			}
		}
		return got
	}
	// h1 reads rdi (offset 40) and rdx (offset 8) from the record.
	loads := func(name string) map[int64]bool {
		return offsets(name, func(in *ir.Instr) bool { return in.Op == ir.OpLoad && in.Space == ir.SpaceMapValue })
	}
	if l := loads("h1"); !l[8*5] || !l[8*1] {
		t.Errorf("h1 loads record offsets %v, want 40 and 8", l)
	}
	if l := loads("h2"); !l[8*4] {
		t.Errorf("h2 loads record offsets %v, want 32", l)
	}
	// One named counter per (program, parameter); each reader increments
	// its own when the record is missing.
	var errVal *btf.Struct
	var entryMap *ir.Map
	for _, mp := range m.Maps {
		switch mp.Name {
		case errMapName:
			errVal = mp.BTF.Members[2].Type.(*btf.Pointer).Target.(*btf.Struct)
		case entryMapName:
			entryMap = mp
		}
	}
	if errVal == nil || entryMap == nil {
		t.Fatalf("maps: %v", m.Maps)
	}
	var names []string
	for _, mem := range errVal.Members {
		names = append(names, mem.Name)
	}
	if got := strings.Join(names, " "); got != "h1__a h1__b h2__c" || errVal.Size != 24 {
		t.Errorf("read-error counters %q (size %d), want h1__a h1__b h2__c (24)", got, errVal.Size)
	}
	incs := func(name string) map[int64]bool {
		return offsets(name, func(in *ir.Instr) bool { return in.Op == ir.OpAtomic })
	}
	if i := incs("h1"); !i[0] || !i[8] || len(i) != 2 {
		t.Errorf("h1 increments counters at %v, want 0 and 8", i)
	}
	if i := incs("h2"); !i[16] || len(i) != 1 {
		t.Errorf("h2 increments counters at %v, want 16", i)
	}
}
