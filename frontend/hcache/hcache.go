// Package hcache is bpfcc's on-disk header cache: what the front end
// derives from a header's content alone (today vmlinux.h's declaration
// index), stored under a content hash so that the next compile on the
// machine skips the work.
//
// An entry is a file named by its key, written to a temporary file and
// renamed into place, so concurrent compiles never see half an entry and
// the last writer wins with identical bytes. Each entry carries its key and
// a checksum of its payload: a truncated, corrupt or misplaced entry reads
// as a miss. Every
// failure (unwritable directory, full disk, corrupt entry) is a warning,
// never an error: the compile goes on without the cache, and its output
// does not depend on whether an entry was found.
package hcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"syscall"
)

// Version names the entry format and the derivations stored; it is part
// of every key, so changing either starts afresh.
const Version = "bpfcc-hcache-2"

// DefaultMaxBytes bounds the cache's size on disk.
const DefaultMaxBytes = 256 << 20

// Cache is a cache directory. A nil *Cache caches nothing.
type Cache struct {
	dir      string
	maxBytes int64

	mu       sync.Mutex
	warnings []string
}

// Open returns the cache in dir, creating nothing until the first Put.
// An empty dir returns nil: no cache.
func Open(dir string) *Cache {
	if dir == "" {
		return nil
	}
	return &Cache{dir: dir, maxBytes: DefaultMaxBytes}
}

// DefaultDir is the command's cache directory: "" when BPFCC_CACHE=off,
// else $XDG_CACHE_HOME/bpfcc, else ~/.cache/bpfcc.
func DefaultDir() string {
	if v := os.Getenv("BPFCC_CACHE"); v == "off" || v == "0" {
		return ""
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "bpfcc")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".cache", "bpfcc")
}

// Key is an entry's key.
type Key [sha256.Size]byte

// NewKey hashes kind (what is stored), bpfcc's identity and parts.
func NewKey(kind string, parts ...[]byte) Key {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", Version, buildID, kind)
	for _, p := range parts {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write(p)
	}
	var k Key
	h.Sum(k[:0])
	return k
}

// buildID identifies the bpfcc build: its version control state, and the
// executable's size, modification time and inode, so that a build from a
// modified tree, whose revision says nothing of its code, never reads the
// entries of another.
var buildID = func() string {
	var id string
	if bi, ok := debug.ReadBuildInfo(); ok {
		id = bi.Main.Version
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
				id += " " + s.Value
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(exe); err == nil {
			id += fmt.Sprintf(" %d %d", st.Size(), st.ModTime().UnixNano())
			if sys, ok := st.Sys().(*syscall.Stat_t); ok {
				id += fmt.Sprintf(" %d", sys.Ino)
			}
		}
	}
	return id
}()

func (c *Cache) path(k Key) string {
	name := fmt.Sprintf("%x", k[:])
	return filepath.Join(c.dir, name[:2], name)
}

// magic starts every entry, before its key and the payload's checksum.
var magic = []byte("BPFCCHC1")

// Get returns the payload stored under k, or false on a miss (a corrupt
// entry is a miss, with a warning).
func (c *Cache) Get(k Key) ([]byte, bool) {
	if c == nil {
		return nil, false
	}
	b, err := os.ReadFile(c.path(k))
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			c.Warnf("cannot read header cache entry: %v", err)
		}
		return nil, false
	}
	// magic, the key (an entry copied under another key's name is
	// stale), the payload's checksum.
	head := len(magic) + 2*sha256.Size
	if len(b) < head || !bytes.Equal(b[:len(magic)], magic) {
		c.Warnf("ignoring corrupt header cache entry %s", c.path(k))
		return nil, false
	}
	if !bytes.Equal(b[len(magic):len(magic)+sha256.Size], k[:]) {
		c.Warnf("ignoring stale header cache entry %s", c.path(k))
		return nil, false
	}
	payload := b[head:]
	if sum := sha256.Sum256(payload); !bytes.Equal(sum[:], b[len(magic)+sha256.Size:head]) {
		c.Warnf("ignoring corrupt header cache entry %s", c.path(k))
		return nil, false
	}
	return payload, true
}

// Put stores payload under k, atomically; failures are warnings.
func (c *Cache) Put(k Key, payload []byte) {
	if c == nil {
		return
	}
	p := c.path(k)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		c.Warnf("header cache disabled: %v", err)
		return
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		c.Warnf("header cache disabled: %v", err)
		return
	}
	sum := sha256.Sum256(payload)
	_, err = f.Write(append(append(append(append([]byte{}, magic...), k[:]...), sum[:]...), payload...))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
		c.Warnf("cannot write header cache entry: %v", err)
		return
	}
	c.trim()
}

// trim removes the least recently written entries while the cache is over
// its size bound. It runs after a Put, which is rare: once per new header
// content.
func (c *Cache) trim() {
	type entry struct {
		path string
		size int64
		mod  int64
	}
	var entries []entry
	var total int64
	filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".tmp-") {
			return nil // another compile's entry being written
		}
		entries = append(entries, entry{p, info.Size(), info.ModTime().UnixNano()})
		total += info.Size()
		return nil
	})
	if total <= c.maxBytes {
		return
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].mod < entries[j].mod })
	for _, e := range entries {
		if total <= c.maxBytes {
			break
		}
		if os.Remove(e.path) == nil {
			total -= e.size
		}
	}
}

// Warnf records a warning about the cache for the compile to report.
func (c *Cache) Warnf(format string, args ...any) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.warnings = append(c.warnings, fmt.Sprintf(format, args...))
}

// Warnings returns and clears the warnings so far.
func (c *Cache) Warnings() []string {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	w := c.warnings
	c.warnings = nil
	return w
}

// SetMaxBytes changes the size bound (tests).
func (c *Cache) SetMaxBytes(n int64) { c.maxBytes = n }
