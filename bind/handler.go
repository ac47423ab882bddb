package bind

import (
	"github.com/bpfcc/bpfcc/dwarfvars"
	"github.com/bpfcc/bpfcc/frontend"
)

// Handler is a probe handler whose extra parameters are bound to a traced
// program's variables. Each Site becomes one program.
type Handler struct {
	Name  string
	Sites []HandlerSite
}

// HandlerSite is one probe address of a handler.
type HandlerSite struct {
	// Name is the emitted program's name (the handler's, or with a suffix
	// when a probe has several addresses).
	Name    string
	Section string
	// Bindings holds one binding per extra parameter, in order.
	Bindings []*dwarfvars.Binding
	// Sleepable programs read tracee memory with bpf_copy_from_user.
	Sleepable bool
	// EntrySection is where the entry-value helper attaches, when a
	// binding needs DW_OP_entry_value.
	EntrySection string
}

// isHandler reports whether --load PROBE makes a function without SEC() a
// DWARF-bound handler: one with external linkage, not inline or noinline,
// not called by any other function, whose first parameter is a context
// pointer. Everything else stays a helper.
func isHandler(f *frontend.Func) bool {
	return !f.Static && !f.Inline && len(f.CalledBy) == 0 && f.CtxFirst
}
