package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// -o onto something that is not a regular file writes into it: renaming a
// temporary file over /dev/null would replace the device for everyone.
func TestWriteAtomicIntoFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "out")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan []byte)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- b
	}()
	if err := writeAtomic(fifo, []byte("\x7fELF object")); err != nil {
		t.Fatal(err)
	}
	if b := <-got; string(b) != "\x7fELF object" {
		t.Errorf("the FIFO's reader got %q", b)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("after writing, %s is %v (%v), want the FIFO still", fifo, st.Mode(), err)
	}
}

// A symbolic link stays a link; its target gets the new contents.
func TestWriteAtomicThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target, link := filepath.Join(dir, "real.o"), filepath.Join(dir, "link.o")
	os.WriteFile(target, []byte("old"), 0o644)
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s is no longer a symbolic link", link)
	}
	if b, _ := os.ReadFile(target); !bytes.Equal(b, []byte("new")) {
		t.Errorf("target holds %q, want new", b)
	}
}
