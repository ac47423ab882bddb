// Package helpermem says what BPF helpers do with the memory their pointer
// arguments point to: which they only read, which they fill and with what
// size. Stack layout (codegen's slot sharing and packing) and dead-store
// removal (opt) read the same facts.
package helpermem

import "github.com/cilium/ebpf/asm"

// Fill is a helper's argument pointing at memory it writes, and the
// argument holding that memory's size.
type Fill struct {
	Ptr, Size int
	// Whole: every byte is written, the data or zeros when the helper
	// fails (not the _str variants, which stop at the string's end).
	Whole bool
}

var fills = map[int64]Fill{
	int64(asm.FnProbeRead):          {0, 1, true},
	int64(asm.FnProbeReadKernel):    {0, 1, true},
	int64(asm.FnProbeReadUser):      {0, 1, true},
	int64(asm.FnCopyFromUser):       {0, 1, true},
	int64(asm.FnGetCurrentComm):     {0, 1, true},
	int64(asm.FnSkbLoadBytes):       {2, 3, true},
	int64(asm.FnProbeReadStr):       {0, 1, false},
	int64(asm.FnProbeReadKernelStr): {0, 1, false},
	int64(asm.FnProbeReadUserStr):   {0, 1, false},
}

// Fills returns the memory helper id writes, if it writes some within a
// size argument.
func Fills(id int64) (Fill, bool) {
	f, ok := fills[id]
	return f, ok
}

var reads = map[int64][]int{
	int64(asm.FnMapLookupElem):      {1},
	int64(asm.FnMapUpdateElem):      {1, 2},
	int64(asm.FnMapDeleteElem):      {1},
	int64(asm.FnMapPushElem):        {1},
	int64(asm.FnProbeRead):          {2},
	int64(asm.FnProbeReadStr):       {2},
	int64(asm.FnProbeReadKernel):    {2},
	int64(asm.FnProbeReadUser):      {2},
	int64(asm.FnProbeReadKernelStr): {2},
	int64(asm.FnProbeReadUserStr):   {2},
	int64(asm.FnTracePrintk):        {0},
	int64(asm.FnTraceVprintk):       {0, 2},
	int64(asm.FnPerfEventOutput):    {3},
	int64(asm.FnRingbufOutput):      {1},
	int64(asm.FnSkbStoreBytes):      {2},
	int64(asm.FnSnprintf):           {2, 3},
	int64(asm.FnSeqPrintf):          {1, 3},
	int64(asm.FnStrncmp):            {0, 2},
}

// Reads reports whether helper id only reads the memory argument k points
// at: passing an object's address there is an access but not a write.
func Reads(id int64, k int) bool {
	for _, a := range reads[id] {
		if a == k {
			return true
		}
	}
	return false
}

// MapKey reports whether argument k of helper id is a map's key.
func MapKey(id int64, k int) bool {
	switch id {
	case int64(asm.FnMapLookupElem), int64(asm.FnMapUpdateElem), int64(asm.FnMapDeleteElem):
		return k == 1
	}
	return false
}

// Keeps reports whether helper id keeps a pointer it is given beyond the
// call (bpf_dynptr_from_mem: the memory is read later through the dynptr).
func Keeps(id int64) bool { return id == int64(asm.FnDynptrFromMem) }
