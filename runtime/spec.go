package runtime

import (
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/cilium/ebpf"
)

// MaxDataSection bounds the size of one data section (.bss, .data,
// .rodata and their named variants) of an object given to --load. The
// section becomes a map value that is allocated in memory here and in the
// kernel; bpfcc itself refuses globals over the same size. A damaged
// section header could otherwise ask for gigabytes.
const MaxDataSection = 256 << 20

// ErrNotELF means the object given to --load is not a valid ELF object.
var ErrNotELF = errors.New("not a valid ELF object")

// LoadSpec parses an eBPF ELF object, as `bpfcc --load prog.o` reads one. A
// malformed object gives an error wrapping ErrLoad, never a panic or a huge
// allocation.
func LoadSpec(r io.ReaderAt) (spec *ebpf.CollectionSpec, err error) {
	defer func() {
		if p := recover(); p != nil {
			spec, err = nil, fmt.Errorf("%w: %w: %v", ErrLoad, ErrNotELF, p)
		}
	}()
	if err := checkObject(r); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrLoad, err)
	}
	spec, err = ebpf.LoadCollectionSpecFromReader(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrLoad, err)
	}
	return spec, nil
}

// readerSize returns the size of r when it can tell (files, byte and
// section readers), or -1.
func readerSize(r io.ReaderAt) int64 {
	switch x := r.(type) {
	case interface{ Size() int64 }:
		return x.Size()
	case *os.File:
		if fi, err := x.Stat(); err == nil {
			return fi.Size()
		}
	}
	return -1
}

// checkObject validates what the ELF reader would trust: the header, the
// machine, every section's extent within the file and the size of data
// sections, whose bytes (NOBITS .bss included) become map values.
func checkObject(r io.ReaderAt) error {
	size := readerSize(r)
	if size == 0 {
		return fmt.Errorf("%w: the file is empty", ErrNotELF)
	}
	f, err := elf.NewFile(r)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("%w: truncated (the file ends inside the ELF headers)", ErrNotELF)
		}
		return fmt.Errorf("%w: %v", ErrNotELF, err)
	}
	if f.Machine != elf.EM_BPF {
		return fmt.Errorf("%w: the object is for %v, not BPF (EM_BPF)", ErrNotELF, f.Machine)
	}
	if f.Class != elf.ELFCLASS64 {
		return fmt.Errorf("%w: %v, BPF objects are ELFCLASS64", ErrNotELF, f.Class)
	}
	for _, s := range f.Sections {
		if s.Type != elf.SHT_NOBITS && s.Type != elf.SHT_NULL && size >= 0 && (s.Offset > uint64(size) || s.Size > uint64(size)-s.Offset) {
			return fmt.Errorf("%w: section %s (offset %d, %d bytes) extends past the end of the %d-byte file", ErrNotELF, s.Name, s.Offset, s.Size, size)
		}
		if isDataSection(s) && s.Size > MaxDataSection {
			return fmt.Errorf("data section %s is %d bytes, over the limit of %d (256 MiB) for one data section (a damaged section header?)", s.Name, s.Size, MaxDataSection)
		}
	}
	return nil
}

// isDataSection reports whether s holds global variables (.data, .rodata,
// .bss and variants like .data.name): allocated and not executable.
func isDataSection(s *elf.Section) bool {
	return s.Flags&elf.SHF_ALLOC != 0 && s.Flags&elf.SHF_EXECINSTR == 0 && (s.Type == elf.SHT_PROGBITS || s.Type == elf.SHT_NOBITS)
}
