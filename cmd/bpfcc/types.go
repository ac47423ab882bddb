package main

import (
	"fmt"
	"io"

	"github.com/bpfcc/bpfcc/bind"
	"github.com/bpfcc/bpfcc/dwarfvars"
)

// runTypes prints C declarations of the traced binary's types
// (--types -x BINARY [TYPE...]), as <bpfcc/target.h> holds them.
func runTypes(cfg *config, stdout, stderr io.Writer) int {
	if cfg.binary == "" {
		fmt.Fprintln(stderr, "bpfcc: --types needs the traced binary: -x BINARY")
		return exitUsage
	}
	if err := bind.CheckELF(cfg.binary); err != nil {
		fmt.Fprintf(stderr, "bpfcc: %s\n", validUTF8(err))
		return exitInput
	}
	b, err := dwarfvars.Open(cfg.binary)
	if err != nil {
		fmt.Fprintf(stderr, "bpfcc: %s\n", validUTF8(err))
		return exitInput
	}
	defer b.Close()
	text, err := b.CTypes(dwarfvars.CTypesOptions{Roots: cfg.typeNames, Strict: true})
	if err != nil {
		fmt.Fprintf(stderr, "bpfcc: %s\n", validUTF8(err))
		return exitInput
	}
	fmt.Fprint(stdout, dwarfvars.HeaderText(cfg.binary, text))
	return exitOK
}
