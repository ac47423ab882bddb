package runtime

import (
	"fmt"
	"io"

	"github.com/cilium/ebpf"
)

// LoadSpec parses an eBPF ELF object, as `bpfcc --load prog.o` reads one. A
// malformed object gives an error wrapping ErrLoad, never a panic.
func LoadSpec(r io.ReaderAt) (spec *ebpf.CollectionSpec, err error) {
	defer func() {
		if p := recover(); p != nil {
			spec, err = nil, fmt.Errorf("%w: malformed object: %v", ErrLoad, p)
		}
	}()
	spec, err = ebpf.LoadCollectionSpecFromReader(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrLoad, err)
	}
	return spec, nil
}
