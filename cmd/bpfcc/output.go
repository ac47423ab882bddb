package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/bpfcc/bpfcc/diag"
)

// writeAtomic writes data to a temporary file in path's directory and
// renames it over path, so a failure never leaves a half-written file.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot write %s: %w", path, werr)
	}
	return nil
}

// printDiags prints each diagnostic with its source line and a caret.
func printDiags(l diag.List, cfg *config, w io.Writer) {
	color := false
	if f, ok := w.(*os.File); ok {
		color = diag.ColorFor(f)
	}
	diag.Print(w, l, diag.FileLines(nil), color)
}
