// Package dwarfvars reads what bpfcc needs to know about a traced binary:
// probe specs to addresses, the variables visible at an address, and how a
// BPF program at that address fetches each one. It produces pure data; the
// lower package turns Bindings into IR.
//
// Typical use:
//
//	b, err := dwarfvars.Open("/usr/bin/prog")
//	p, err := dwarfvars.ParseProbe("work:3")
//	sites, err := b.Resolve(p)           // one Site per address
//	vs, err := b.Vars(sites[0])          // everything visible there
//	e, err := dwarfvars.ParseExpr("st->count")
//	bd, err := b.Bind(sites[0], e)       // how to fetch st->count there
//
// A Binding's Location holds Fetch programs: a Source (a pt_regs field, a
// constant, static storage relative to ctx->ip, the CFA, or a register's
// value at function entry) followed by Steps (64-bit ALU operations with an
// immediate or another Fetch, and reads of tracee memory). Each step maps to
// a BPF instruction or a helper call.
//
// Built on delve's pkg/dwarf (godwarf trees, frame, loclist, regnum) and the
// standard library's debug/elf and debug/dwarf (types and line tables, which
// delve does not expose row by row). Written here because those lack it: the
// symbolic location evaluator (delve's executes over concrete registers and
// rejects DW_OP_entry_value, addrx and convert), DWARF 5 location lists
// (delve's reader rejects gcc's DW_LLE_GNU_view_pair and DW_FORM_loclistx),
// and the probe-point rules perf and gdb follow.
//
// All entry points recover from panics in the DWARF readers on malformed
// input and return errors wrapping ErrMalformed.
package dwarfvars
