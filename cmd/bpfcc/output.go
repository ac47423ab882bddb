package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

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
	l.Sort()
	files := map[string][]string{}
	for _, d := range l {
		fmt.Fprintln(w, d.String())
		if d.Line <= 0 || d.File == "" {
			continue
		}
		lines, ok := files[d.File]
		if !ok {
			if b, err := os.ReadFile(d.File); err == nil {
				lines = strings.Split(string(b), "\n")
			}
			files[d.File] = lines
		}
		if d.Line > len(lines) {
			continue
		}
		src := strings.TrimRight(lines[d.Line-1], "\r")
		fmt.Fprintf(w, "%s\n", src)
		if d.Col > 0 {
			fmt.Fprintf(w, "%s^\n", caretPad(src, d.Col))
		}
		if d.Hint != "" {
			fmt.Fprintf(w, "hint: %s\n", d.Hint)
		}
	}
}

// caretPad keeps tabs so the caret lines up under the column.
func caretPad(src string, col int) string {
	var b strings.Builder
	for i := 0; i < col-1 && i < len(src); i++ {
		if src[i] == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}
