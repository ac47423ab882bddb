package dwarfvars

import (
	"debug/elf"
	"encoding/binary"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMalformed truncates and damages debug sections and checks that Open,
// Resolve, Vars and Bind return errors instead of panicking.
func TestMalformed(t *testing.T) {
	srcs := []target{{"gcc", "-O2", true}, {"gcc", "-O0", true}}
	if _, err := os.Stat(clang); err == nil {
		srcs = append(srcs, target{clang, "-O2", true})
	}
	sections := []string{".debug_info", ".debug_abbrev", ".debug_line", ".debug_loclists", ".debug_addr",
		".debug_str_offsets", ".debug_rnglists", ".debug_str", ".eh_frame", ".debug_line_str"}
	for _, tg := range srcs {
		orig, err := os.ReadFile(build(t, tg))
		if err != nil {
			t.Fatal(err)
		}
		errorsSeen := 0
		for _, sec := range sections {
			for _, mode := range []string{"truncate", "damage", "zero"} {
				data, ok := mutate(t, orig, sec, mode, 1)
				if !ok {
					continue
				}
				path := filepath.Join(t.TempDir(), "bad")
				if err := os.WriteFile(path, data, 0o755); err != nil {
					t.Fatal(err)
				}
				errorsSeen += exercise(t, tg.name()+" "+sec+" "+mode, path)
			}
		}
		if errorsSeen == 0 {
			t.Errorf("%s: damaged sections never produced an error", tg.name())
		}
	}
}

// mutate returns a copy of an ELF image with one section truncated (its
// header's size halved), damaged (random bytes overwritten) or zeroed.
func mutate(t *testing.T, img []byte, name, mode string, seed int64) ([]byte, bool) {
	f, err := elf.NewFile(bytesReaderAt(img))
	if err != nil {
		t.Fatal(err)
	}
	idx := -1
	for i, s := range f.Sections {
		if s.Name == name && s.Type != elf.SHT_NOBITS {
			idx = i
		}
	}
	if idx < 0 {
		return nil, false
	}
	s := f.Sections[idx]
	out := append([]byte(nil), img...)
	shoff := binary.LittleEndian.Uint64(img[0x28:])
	hdr := shoff + uint64(idx)*64
	switch mode {
	case "truncate":
		binary.LittleEndian.PutUint64(out[hdr+32:], s.Size/2)
	case "damage":
		r := rand.New(rand.NewSource(seed))
		for i := 0; i < 16+int(s.Size/64); i++ {
			out[s.Offset+uint64(r.Int63n(int64(s.Size)))] = byte(r.Intn(256))
		}
	case "zero":
		for i := s.Offset + s.Size/3; i < s.Offset+s.Size; i++ {
			out[i] = 0
		}
	}
	return out, true
}

// exercise runs the whole API over a binary and returns how many errors
// it saw; a panic fails the test.
func exercise(t *testing.T, what, path string) (errs int) {
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: panic escaped: %v", what, r)
		}
	}()
	b, err := Open(path)
	if err != nil {
		return 1
	}
	defer b.Close()
	for _, ps := range []string{"scale", "sum_loop:5", "use_entry:3", "pieces:3", "target.c:80", "helper", "main", "many+4", "scale%return"} {
		sites, err := b.Resolve(mustProbe(t, ps))
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Logf("%s: recovered: %v", what, err)
		}
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrNotFound) && !errors.Is(err, ErrNoCode) && !errors.Is(err, ErrBadOffset) {
				t.Logf("%s: %s: %v", what, ps, err)
			}
			errs++
			continue
		}
		for _, s := range sites {
			vs, err := b.Vars(s)
			if err != nil {
				errs++
				continue
			}
			for _, v := range vs {
				if v.Err != nil {
					errs++
				}
				for _, x := range exprsFor(v.Name, v.Type, 0, nil) {
					e, err := ParseExpr(x)
					if err != nil {
						continue // a damaged name
					}
					if _, err := b.Bind(s, e); err != nil {
						errs++
						if strings.Contains(err.Error(), "internal error") {
							t.Logf("%s: recovered: %v", what, err)
						}
					}
				}
				_ = v.Describe()
			}
		}
	}
	return errs
}

type bytesReaderAt []byte

func (b bytesReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(b)) {
		return 0, errors.New("EOF")
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, errors.New("EOF")
	}
	return n, nil
}

// TestEvalMalformedExprs feeds random expressions to the evaluator.
func TestEvalMalformedExprs(t *testing.T) {
	b := open(t, build(t, target{"gcc", "-O2", true}))
	s := siteOf(t, b, "scale")
	ft, err := b.funcAt(s.Addr)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 20000; i++ {
		expr := make([]byte, 1+r.Intn(12))
		r.Read(expr)
		ctx := b.newEval(s, ft, "site", "v")
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("eval(%x) panicked: %v", expr, p)
				}
			}()
			ctx.eval(expr, 4)
		}()
	}
}
