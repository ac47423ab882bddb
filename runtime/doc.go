// Package runtime is bpfcc's embedded loader: it loads a compiled object
// into the kernel, attaches its programs by section name, prints what they
// collect while they run and when they stop, and detaches everything on
// every way out. Run is the entry point; cmd/bpfcc maps its flags onto
// Options.
//
// # Loading
//
// Programs are loaded with the verifier log off. When the kernel rejects
// one, it is loaded again with the log on and the error is a
// *VerifierReport: the program, the verifier's reason, the failing
// instruction, its source file:line (from the object's BTF line info) and
// source text, and the tail of the log.
//
// # Attaching
//
// Section names follow libbpf: uprobe/BINARY:FUNC[+OFF], uretprobe/...,
// uprobe.s/ and uretprobe.s/ (sleepable), BINARY:0xOFFSET for a file
// offset, kprobe/FUNC[+OFF], kretprobe/FUNC, tracepoint/CAT/NAME and
// tp/CAT/NAME, raw_tp/NAME and raw_tracepoint/NAME, xdp, tc, tc/ingress,
// tc/egress (TCX links). Every attachment is a file descriptor (perf event
// or BPF link); tracefs probe events are never created, so the kernel
// removes everything when the process exits, even after SIGKILL.
//
// # Process filter
//
// With Options.Command or Options.PID, uprobes count only in that process
// and the processes it starts: they are attached for every process, and a
// check prepended to each uprobe program consults a PID set that programs
// on sched/sched_process_fork and sched_process_exit keep in the kernel
// (pidfilter.go).
//
// # Output conventions
//
// Output maps (perf event arrays, ring buffers) print one line per record,
// decoded with the type from Options.OutputTypes, a decl tag
// "bpfcc:event:TYPE" on the map, or a struct named after the map.
// Histograms are maps tagged "bpfcc:hist" / "bpfcc:lhist[:MIN:STEP]" or
// named *_hist / *_lhist; see HistTag for the bucket layout. All other
// hash and array maps print as tables at exit; .data/.rodata/.bss only with
// Verbose.
package runtime
