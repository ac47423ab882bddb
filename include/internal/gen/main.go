// Command gen writes compat/bpf/bpf_helper_defs.h from a linux/bpf.h.
//
// It is run by go generate in include:
//
//	go run ./internal/gen [-in /usr/include/linux/bpf.h] [-out compat/bpf/bpf_helper_defs.h]
//
// The output is committed, so building bpfcc never needs linux/bpf.h.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bpfcc/bpfcc/include/internal/helperdefs"
)

func main() {
	in := flag.String("in", "/usr/include/linux/bpf.h", "the linux/bpf.h to read")
	out := flag.String("out", filepath.FromSlash("compat/bpf/bpf_helper_defs.h"), "the header to write")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: gen [-in linux/bpf.h] [-out bpf_helper_defs.h]")
		os.Exit(2)
	}
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// run generates out from in, writing through a temporary file so that a
// failed run never leaves a truncated header behind.
func run(in, out string) error {
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	h, err := helperdefs.Parse(src)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), ".bpf_helper_defs-*.h")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(helperdefs.Generate(h)); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), out)
}
