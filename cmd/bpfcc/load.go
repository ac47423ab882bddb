package main

import (
	"fmt"
	"io"
)

func runLoad(cfg *config, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "bpfcc: --load is not available yet")
	return exitUsage
}

func runVars(cfg *config, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "bpfcc: --vars is not available yet")
	return exitUsage
}
