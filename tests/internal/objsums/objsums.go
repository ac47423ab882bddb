// Package objsums keeps a manifest of the objects a corpus compiles to:
// one "ID SHA256" line per compiled file (the hash cut to 16 bytes). Tests
// compare what bpfcc writes now with the manifest, so that a change meant
// to keep the output (a refactoring) is held to byte-identical objects
// without an older bpfcc or the git history at hand. A change meant to
// alter objects rewrites the manifest (-update) and shows as its diff.
package objsums

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Sums maps a compiled file's ID to its object's hash; safe for concurrent
// use.
type Sums struct {
	mu sync.Mutex
	m  map[string]string
}

// Add records the object of id.
func (s *Sums) Add(id string, object []byte) {
	h := sha256.Sum256(object)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]string{}
	}
	s.m[id] = hex.EncodeToString(h[:16])
}

// Len is the number of objects recorded.
func (s *Sums) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m)
}

// Write writes the manifest, headed by the comment lines header (each
// without its "# "), sorted by ID.
func (s *Sums) Write(path string, header ...string) error {
	var b strings.Builder
	for _, h := range header {
		b.WriteString("# " + h + "\n")
	}
	ids := make([]string, 0, len(s.m))
	for id := range s.m {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		fmt.Fprintf(&b, "%s %s\n", id, s.m[id])
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// Manifest is a read manifest.
type Manifest struct {
	Header []string
	sums   map[string]string
}

// Read reads a manifest.
func Read(path string) (*Manifest, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := &Manifest{sums: map[string]string{}}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if h, ok := strings.CutPrefix(line, "# "); ok {
			m.Header = append(m.Header, h)
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			return nil, fmt.Errorf("%s: bad line %q", path, line)
		}
		m.sums[line[:i]] = line[i+1:]
	}
	return m, sc.Err()
}

// Compare lists how s differs from m: objects that changed, files compiled
// now but absent from m, and (when all is set: s covers the whole corpus)
// files of m not compiled now.
func (m *Manifest) Compare(s *Sums, all bool) []string {
	var out []string
	for id, sum := range s.m {
		want, ok := m.sums[id]
		switch {
		case !ok:
			out = append(out, id+": compiles now, not in the manifest")
		case want != sum:
			out = append(out, id+": object differs from the manifest's")
		}
	}
	if all {
		for id := range m.sums {
			if _, ok := s.m[id]; !ok {
				out = append(out, id+": in the manifest, not compiled now")
			}
		}
	}
	slices.Sort(out)
	return out
}
