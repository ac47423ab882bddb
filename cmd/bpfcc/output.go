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
// What is not a regular file (/dev/null, /dev/stdout, a FIFO) is written
// in place: renaming over it would replace the device itself. A symbolic
// link is followed, so that the link stays and its target is replaced.
func writeAtomic(path string, data []byte) error {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		if st.IsDir() {
			return fmt.Errorf("cannot write %s: is a directory", path)
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("cannot write %s: %w", path, err)
		}
		_, werr := f.Write(data)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return fmt.Errorf("cannot write %s: %w", path, werr)
		}
		return nil
	}
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
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
