// Package abi is the contract between bpfcc's compiler and its loader: the
// names bpfcc reserves in the objects it writes, the BTF decl tags either
// side reads, and the grammar of program section names (libbpf's, as one
// table). It imports nothing of bpfcc's, so the compiler (lower, bind, the
// ELF writer) and the loader (runtime, cmd/bpfcc) share it without
// depending on each other.
package abi

import "strings"

// ReservedPrefix starts every map, variable and type name bpfcc adds to an
// object; the loader hides such maps unless asked to show them.
const ReservedPrefix = "__bpfcc_"

// Maps bpfcc adds for DWARF-bound handlers.
const (
	// ReadErrorsMap counts failed reads of traced variables: an array of
	// one element whose value is a struct, also named ReadErrorsMap, with
	// one 64-bit counter per (program, bound parameter) named by
	// ReadErrorCounter.
	ReadErrorsMap = ReservedPrefix + "read_errors"
	// EntryRegsMap is the LRU hash where entry-value helpers save the
	// registers at a traced function's entry.
	EntryRegsMap = ReservedPrefix + "entry_regs"
)

// OutputVarPrefix prefixes an output map's name to name the BTF VAR whose
// type is the map's record type (see OutputTag).
const OutputVarPrefix = ReservedPrefix + "output_"

// EntrySuffix ends the name of the entry-value helper program of a bound
// handler site: SITE__entry. The loader attaches these before the others.
const EntrySuffix = "__entry"

// counterSep separates a program from a parameter in a read-error counter.
const counterSep = "__"

// ReadErrorCounter names the read-error counter of parameter param of
// program prog.
func ReadErrorCounter(prog, param string) string { return prog + counterSep + param }

// SplitReadErrorCounter splits a counter name after prog when it is one of
// prog's counters.
func SplitReadErrorCounter(counter, prog string) (param string, ok bool) {
	return strings.CutPrefix(counter, prog+counterSep)
}

// SplitReadErrorCounterAny splits a counter name at its first separator,
// for counters whose program is unknown.
func SplitReadErrorCounterAny(counter string) (prog, param string, ok bool) {
	return strings.Cut(counter, counterSep)
}

// EntryProgram names the entry-value helper of handler site site.
func EntryProgram(site string) string { return site + EntrySuffix }

// IsEntryProgram reports whether name is an entry-value helper's.
func IsEntryProgram(name string) bool { return strings.HasSuffix(name, EntrySuffix) }
