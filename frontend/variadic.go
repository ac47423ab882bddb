package frontend

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/bpfcc/bpfcc/runtime/include"
)

// modernc.org/cc/v4 mis-expands GNU named variadic macro parameters
// ("args..." pasted as ", ##args": the first argument token is lost, so
// libbpf's bpf_printk(fmt, args...) silently drops its arguments). The
// same macros written with "..." and "__VA_ARGS__" expand correctly, so
// every file cc reads is served through rewriteNamedVariadics.

var defineRe = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*define[ \t]+\w+\(([^)]*)\)(?:[^\n]*\\\n)*[^\n]*`)
var namedVariadic = regexp.MustCompile(`(\w+)[ \t]*\.\.\.[ \t]*$`)

// rewriteNamedVariadics turns "#define M(a, args...) f(a, ##args)" into
// "#define M(a, ...) f(a, ##__VA_ARGS__)", keeping line structure.
func rewriteNamedVariadics(src []byte) []byte {
	if !bytes.Contains(src, []byte("...")) || !bytes.Contains(src, []byte("define")) {
		return src
	}
	return defineRe.ReplaceAllFunc(src, func(def []byte) []byte {
		m := defineRe.FindSubmatchIndex(def)
		params := string(def[m[2]:m[3]])
		pm := namedVariadic.FindStringSubmatchIndex(params)
		if pm == nil {
			return def
		}
		name := params[pm[2]:pm[3]]
		newParams := params[:pm[2]] + "..."
		body := string(def[m[3]:])
		body = regexp.MustCompile(`\b`+regexp.QuoteMeta(name)+`\b`).ReplaceAllString(body, "__VA_ARGS__")
		return []byte(string(def[:m[2]]) + newParams + body)
	})
}

// sourceFS serves bpfcc's embedded headers and host files, rewriting
// named variadic macros in both.
type sourceFS struct{ embedded fs.FS }

func newSourceFS() sourceFS { return sourceFS{embedded: include.CCFS()} }

var filesRead []string

func (s sourceFS) Open(name string) (fs.File, error) {
	filesRead = append(filesRead, name)
	if strings.HasPrefix(name, include.Root+"/") {
		f, err := s.embedded.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		b, err := io.ReadAll(f)
		if err != nil {
			return nil, err
		}
		return newMemFile(name, rewriteNamedVariadics(b)), nil
	}
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if st.Size() > MaxSourceSize {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errTooLarge}
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return newMemFile(name, rewriteNamedVariadics(b)), nil
}

var errTooLarge = fsError("file too large")

type fsError string

func (e fsError) Error() string { return string(e) }

// memFile is an in-memory fs.File.
type memFile struct {
	*bytes.Reader
	name string
	size int64
}

func newMemFile(name string, b []byte) *memFile {
	return &memFile{Reader: bytes.NewReader(b), name: name, size: int64(len(b))}
}

func (f *memFile) Stat() (fs.FileInfo, error) { return memInfo{f}, nil }
func (f *memFile) Close() error               { return nil }

type memInfo struct{ f *memFile }

func (i memInfo) Name() string       { return i.f.name }
func (i memInfo) Size() int64        { return i.f.size }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }
