package abi

// BTF decl tags. The compiler writes OutputTag; the others come from the
// program's source (bpfcc.h's macros or btf_decl_tag attributes) and the
// loader reads them all.
const (
	// OutputTag marks the VAR of an output map (perf event array or ring
	// buffer) whose record type the compiler recorded in the VAR named
	// OutputVarPrefix+MAP. libbpf ignores it.
	OutputTag = "bpfcc:output"
	// EventTag prefixes a tag naming an output map's record type:
	// "bpfcc:event:struct event" or "bpfcc:event:event_t".
	EventTag = "bpfcc:event:"
	// HistTag marks a map of log2 histogram buckets.
	HistTag = "bpfcc:hist"
	// HistSignedTag marks a log2 histogram whose last entry counts the
	// values below 0 (bpfcc.h's BPFCC_HIST): "(..., 0)", as bpftrace's.
	HistSignedTag = "bpfcc:hist:signed"
	// LHistTag marks a map of linear histogram buckets:
	// "bpfcc:lhist" or "bpfcc:lhist:MIN:STEP".
	LHistTag = "bpfcc:lhist"
	// StackIDTag marks a map whose integer members named *stack* are
	// bpf_get_stackid results.
	StackIDTag = "bpfcc:stackid"
	// UStackTag and KStackTag mark a map whose __u64 array members named
	// *stack* are bpf_get_stack buffers of user or kernel addresses.
	UStackTag = "bpfcc:ustack"
	KStackTag = "bpfcc:kstack"
)

// EventVarSuffix ends the name of the pointer variable through which
// bpfcc.h's BPFCC_OUTPUT(name, type) records a map's record type:
// MAP_bpfcc_event.
const EventVarSuffix = "_bpfcc_event"
