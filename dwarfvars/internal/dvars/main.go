// Command dvars lists the variables visible at probe points of a binary,
// and optionally binds expressions there: a debugging aid for dwarfvars.
//
//	dvars BINARY PROBE [EXPR...]
package main

import (
	"fmt"
	"os"

	"github.com/bpfcc/bpfcc/dwarfvars"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: dvars BINARY PROBE [EXPR...]")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3:]); err != nil {
		fmt.Fprintln(os.Stderr, "dvars:", err)
		os.Exit(1)
	}
}

func run(bin, probe string, exprs []string) error {
	b, err := dwarfvars.Open(bin)
	if err != nil {
		return err
	}
	defer b.Close()
	p, err := dwarfvars.ParseProbe(probe)
	if err != nil {
		return err
	}
	if err := b.WriteVars(os.Stdout, p); err != nil {
		return err
	}
	if len(exprs) == 0 {
		return nil
	}
	sites, err := b.Resolve(p)
	if err != nil {
		return err
	}
	for _, s := range sites {
		for _, x := range exprs {
			e, err := dwarfvars.ParseExpr(x)
			if err != nil {
				return err
			}
			bd, err := b.Bind(s, e)
			if err != nil {
				fmt.Printf("%s: %v\n", s, err)
				continue
			}
			fmt.Printf("%s: %s\n", s, bd.Describe())
			if bd.Entry != nil {
				fmt.Printf("    entry helper at %s+%#x saves %v (entry CFA %s%+d, site CFA %s%+d)\n",
					bd.Entry.Func, bd.Entry.FuncOffset, bd.Entry.Regs, "r", bd.Entry.EntryCFA.Offset, "r", bd.Entry.SiteCFA.Offset)
			}
		}
	}
	return nil
}
