package codegen

import (
	"github.com/bpfcc/bpfcc/codegen/internal/elfwriter"
	"github.com/bpfcc/bpfcc/codegen/obj"
)

// ELF writes o as an ELF relocatable object.
func ELF(o *obj.Object) ([]byte, error) { return elfwriter.Write(o) }
