// Command bpfcc compiles restricted C to eBPF ELF objects, and loads and
// attaches them with --load. Flags follow cc's conventions; all the work is
// in the bpfcc packages.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/bpfcc/bpfcc"
	"github.com/bpfcc/bpfcc/diag"
	"github.com/bpfcc/bpfcc/frontend"
)

// Exit codes.
const (
	exitOK       = 0
	exitInput    = 1 // a diagnosed error in the input, or a failed run
	exitUsage    = 2
	exitInternal = 3
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "bpfcc: %v\n", err)
		fmt.Fprintln(stderr, "usage: bpfcc [options] FILE.c [-o OUT]   (bpfcc --help for more)")
		return exitUsage
	}
	switch {
	case cfg.help:
		fmt.Fprint(stdout, usage)
		return exitOK
	case cfg.version:
		fmt.Fprintf(stdout, "bpfcc %s\n", version)
		return exitOK
	}
	// --load turns the collector back on once it starts running the
	// program.
	compileGC(!strings.HasSuffix(cfg.input, ".o"))
	if cfg.load {
		return runLoad(cfg, stdout, stderr)
	}
	if cfg.vars != "" {
		return runVars(cfg, stdout, stderr)
	}
	if cfg.types {
		return runTypes(cfg, stdout, stderr)
	}
	if cfg.preprocess {
		o := cfg.compileOptions()
		fo := o.FrontendOptions()
		fo.TargetHeader = bpfcc.TargetHeader(o.Binary)
		err := frontend.Preprocess(cfg.input, fo, stdout)
		if err != nil {
			return reportError(err, cfg, stderr)
		}
		return exitOK
	}
	if out := cfg.writesTo(); out != "" && sameFile(cfg.input, out) {
		// gcc refuses too: writing the object would destroy the source.
		fmt.Fprintf(stderr, "bpfcc: input file %s is the same as output file %s\n", cfg.input, out)
		return exitUsage
	}
	opts := cfg.compileOptions()
	var files []string
	if cfg.depFile {
		opts.Files = &files
	}
	res, err := compileWith(cfg, opts, stderr)
	if err != nil {
		return reportError(err, cfg, stderr)
	}
	if cfg.listing {
		if cfg.out == "" || cfg.out == "-" {
			fmt.Fprint(stdout, res.Listing)
			return exitOK
		}
		return writeOut(cfg.out, []byte(res.Listing), stderr)
	}
	if rc := writeOut(cfg.outPath(), res.Object, stderr); rc != exitOK || !cfg.depFile {
		return rc
	}
	return writeOut(cfg.depFilePath(), []byte(cfg.depFileText(files)), stderr)
}

// writesTo is the file a compile writes ("" for standard output).
func (c *config) writesTo() string {
	if c.listing && (c.out == "" || c.out == "-") {
		return ""
	}
	return c.outPath()
}

// sameFile reports whether a and b name the same existing file (also
// through links or different spellings of the path).
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

func compile(cfg *config, stderr io.Writer) (*bpfcc.Result, error) {
	return compileWith(cfg, cfg.compileOptions(), stderr)
}

func compileWith(cfg *config, opts bpfcc.Options, stderr io.Writer) (*bpfcc.Result, error) {
	cfg.irDebug.out = stderr
	before := frontend.PreambleCounts()
	res, err := bpfcc.Compile(cfg.input, opts)
	cfg.irDebug.report(stderr)
	if cfg.cacheDebug {
		reportPreamble(stderr, before, frontend.PreambleCounts())
	}
	if res != nil && cfg.warnings {
		printDiags(res.Warnings, cfg, stderr)
	}
	return res, err
}

// reportPreamble prints what the header cache did for the compile
// between the counts before and after (-d=cache).
func reportPreamble(w io.Writer, before, after frontend.PreambleStats) {
	var what []string
	for _, c := range []struct {
		n    int64
		what string
	}{
		{after.Hits - before.Hits, "read from the cache"},
		{after.Captures - before.Captures, "made and stored"},
		{after.Refused - before.Refused, "cannot be cached: " + after.Why},
		{after.Missed - before.Missed, "the reduced file failed: compiled whole"},
	} {
		if c.n > 0 {
			what = append(what, c.what)
		}
	}
	if len(what) == 0 {
		what = []string{"cache off"}
	}
	fmt.Fprintf(w, "bpfcc: preamble: %s\n", strings.Join(what, "; "))
}

// reportError prints err and returns the exit status it deserves.
func reportError(err error, cfg *config, stderr io.Writer) int {
	var dl diag.List
	if errors.As(err, &dl) {
		printDiags(dl, cfg, stderr)
		return exitInput
	}
	if errors.Is(err, bpfcc.ErrInternal) {
		msg := err.Error()
		if os.Getenv("BPFCC_DEBUG") == "" {
			msg = firstLine(msg)
		}
		fmt.Fprintf(stderr, "bpfcc: %s\n", msg)
		return exitInternal
	}
	fmt.Fprintf(stderr, "bpfcc: %v\n", err)
	return exitInput
}

func firstLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	return s
}

// writeOut writes data atomically: a temporary file beside path, renamed
// over it only when complete.
func writeOut(path string, data []byte, stderr io.Writer) int {
	if err := writeAtomic(path, data); err != nil {
		fmt.Fprintf(stderr, "bpfcc: %v\n", err)
		return exitInput
	}
	return exitOK
}
