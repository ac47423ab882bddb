package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/bpfcc/bpfcc"
	"github.com/bpfcc/bpfcc/codegen"
	"github.com/bpfcc/bpfcc/ir"
)

// irDebug is what the -d=ir:... options ask of the optimiser's and the
// back end's hooks (AfterPass, AfterStage): the IR or MIR after some passes
// or stages, and their times.
type irDebug struct {
	after map[string]bool // pass names; "all" for every pass
	time  bool
	times map[string]*passTime
	// out receives the dumps: the command's standard error (compileWith
	// sets it before compiling).
	out io.Writer
}

type passTime struct {
	runs int
	took time.Duration
}

// parse reads one -d=ir: option's text: "after=P,Q" or "time". "lower"
// among the passes sets *lowered (the -d=ir dump).
func (d *irDebug) parse(spec string, lowered *bool) error {
	if spec == "time" {
		d.time = true
		return nil
	}
	list, ok := strings.CutPrefix(spec, "after=")
	if !ok || list == "" {
		return fmt.Errorf("unknown -d=ir:%s (want -d=ir:after=PASS[,PASS...], -d=ir:after=all or -d=ir:time)", spec)
	}
	names := append(codegen.PassNames(), codegen.StageNames()...)
	for _, p := range strings.Split(list, ",") {
		switch {
		case p == "lower":
			*lowered = true
		case p == "all" || slices.Contains(names, p):
			if d.after == nil {
				d.after = map[string]bool{}
			}
			d.after[p] = true
		default:
			return fmt.Errorf("-d=ir:after=%s: no pass %q (the passes: lower %s; or all)", list, p, strings.Join(names, " "))
		}
	}
	return nil
}

// set installs the hook in o when an option asked for it.
func (d *irDebug) set(o *bpfcc.Options) {
	if d.after == nil && !d.time {
		return
	}
	d.times = map[string]*passTime{}
	o.AfterPass = func(pass string, m *ir.Module, f *ir.Func, took time.Duration) {
		d.count(pass, took)
		if d.after["all"] || d.after[pass] {
			dumpAfter(d.out, pass, m, f)
		}
	}
	o.AfterStage = func(stage, fn, text string, took time.Duration) {
		d.count(stage, took)
		if (d.after["all"] || d.after[stage]) && text != "" {
			fmt.Fprintf(d.out, "; after %s\n%s\n", stage, text)
		}
	}
}

func (d *irDebug) count(pass string, took time.Duration) {
	if !d.time {
		return
	}
	t := d.times[pass]
	if t == nil {
		t = &passTime{}
		d.times[pass] = t
	}
	t.runs++
	t.took += took
}

// dumpAfter prints f, or after a module pass every function of m.
func dumpAfter(w io.Writer, pass string, m *ir.Module, f *ir.Func) {
	fs := []*ir.Func{f}
	if f == nil {
		fs = m.Funcs
	}
	for _, f := range fs {
		fmt.Fprintf(w, "; after %s\n%s\n", pass, f)
	}
}

// report prints the passes' times (-d=ir:time), in pass order, summed over
// functions and rounds.
func (d *irDebug) report(w io.Writer) {
	if !d.time {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "pass\truns\ttime\t\n")
	var total time.Duration
	for _, p := range append(codegen.PassNames(), codegen.StageNames()...) {
		if t := d.times[p]; t != nil {
			fmt.Fprintf(tw, "%s\t%d\t%v\t\n", p, t.runs, t.took.Round(time.Microsecond))
			total += t.took
		}
	}
	fmt.Fprintf(tw, "total\t\t%v\t\n", total.Round(time.Microsecond))
	tw.Flush()
}
