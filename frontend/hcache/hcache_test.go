package hcache

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func TestPutGet(t *testing.T) {
	c := Open(t.TempDir())
	k := NewKey("test", []byte("a"))
	if _, ok := c.Get(k); ok {
		t.Fatal("hit in an empty cache")
	}
	c.Put(k, []byte("payload"))
	if b, ok := c.Get(k); !ok || string(b) != "payload" {
		t.Fatalf("Get = %q, %v", b, ok)
	}
	if k == NewKey("test", []byte("b")) || k == NewKey("other", []byte("a")) || NewKey("t", []byte("ab")) == NewKey("t", []byte("a"), []byte("b")) {
		t.Error("keys collide")
	}
	if w := c.Warnings(); len(w) != 0 {
		t.Errorf("warnings: %q", w)
	}
}

// A truncated or altered entry is a miss with a warning.
func TestCorruptEntry(t *testing.T) {
	c := Open(t.TempDir())
	k := NewKey("test", []byte("a"))
	c.Put(k, []byte("payload"))
	b, _ := os.ReadFile(c.path(k))
	for _, bad := range [][]byte{b[:len(b)-1], b[:3], append(bytes.Clone(b[:len(b)-1]), 'X'), {}} {
		os.WriteFile(c.path(k), bad, 0o644)
		if got, ok := c.Get(k); ok {
			t.Errorf("corrupt entry %q read as %q", bad, got)
		}
		if w := c.Warnings(); len(w) != 1 {
			t.Errorf("warnings %q, want one", w)
		}
	}
}

// An unwritable cache is a warning and a miss, never an error.
func TestUnwritable(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	c := Open(filepath.Join(file, "cache")) // a directory under a file
	k := NewKey("test", nil)
	c.Put(k, []byte("x"))
	if _, ok := c.Get(k); ok {
		t.Error("hit in an unwritable cache")
	}
	if len(c.Warnings()) == 0 {
		t.Error("no warning")
	}
	var nilCache *Cache
	nilCache.Put(k, nil)
	if _, ok := nilCache.Get(k); ok || nilCache.Warnings() != nil {
		t.Error("nil cache caches")
	}
}

// The cache stays under its size bound, dropping the oldest entries.
func TestTrim(t *testing.T) {
	c := Open(t.TempDir())
	c.SetMaxBytes(3000)
	for i := range 10 {
		c.Put(NewKey("test", []byte{byte(i)}), make([]byte, 1000))
	}
	var total int64
	filepath.Walk(c.dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			total += info.Size()
		}
		return nil
	})
	if total > 3000 {
		t.Errorf("cache holds %d bytes, bound 3000", total)
	}
	if _, ok := c.Get(NewKey("test", []byte{9})); !ok {
		t.Error("newest entry dropped")
	}
}

// Concurrent writers of one key leave one whole entry.
func TestConcurrentPut(t *testing.T) {
	dir := t.TempDir()
	k := NewKey("test", []byte("a"))
	payload := bytes.Repeat([]byte("0123456789"), 10000)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := Open(dir)
			c.Put(k, payload)
			if b, ok := c.Get(k); !ok || !bytes.Equal(b, payload) {
				t.Error("torn entry")
			}
		}()
	}
	wg.Wait()
}

func TestDefaultDir(t *testing.T) {
	t.Setenv("BPFCC_CACHE", "off")
	if d := DefaultDir(); d != "" {
		t.Errorf("BPFCC_CACHE=off: %q", d)
	}
	t.Setenv("BPFCC_CACHE", "")
	t.Setenv("XDG_CACHE_HOME", "/x")
	if d := DefaultDir(); d != "/x/bpfcc" {
		t.Errorf("XDG_CACHE_HOME=/x: %q", d)
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "/h")
	if d := DefaultDir(); d != "/h/.cache/bpfcc" {
		t.Errorf("HOME=/h: %q", d)
	}
}

// An entry under another key's name (stale) is a miss with a warning.
func TestStaleEntry(t *testing.T) {
	c := Open(t.TempDir())
	a, b := NewKey("test", []byte("a")), NewKey("test", []byte("b"))
	c.Put(a, []byte("A"))
	e, _ := os.ReadFile(c.path(a))
	c.Put(b, []byte("B"))
	os.WriteFile(c.path(b), e, 0o644)
	if got, ok := c.Get(b); ok {
		t.Errorf("stale entry read as %q", got)
	}
	if w := c.Warnings(); len(w) != 1 {
		t.Errorf("warnings %q, want one", w)
	}
}
