package frontend

import (
	"bytes"
	"io/fs"
	"os"
	"strings"
	"sync"
	"time"

	"modernc.org/token"

	"github.com/bpfcc/bpfcc/frontend/hcache"
	"github.com/bpfcc/bpfcc/include"
)

// modernc.org/cc/v4 mis-expands GNU named variadic macro parameters
// ("args..." pasted as ", ##args": the first argument token is lost, so
// libbpf's bpf_printk(fmt, args...) silently drops its arguments). The
// same macros written with "..." and "__VA_ARGS__" expand correctly, so
// every file cc reads is served through rewriteNamedVariadics.

// rewriteNamedVariadics turns "#define M(a, args...) f(a, ##args)" into
// "#define M(a, ...) f(a, ##__VA_ARGS__)", keeping line structure. It runs
// on every header cc reads, so it is a byte scan: a file with no "NAME...)"
// (all but a few) costs one bytes.Index pass and is returned as is.
//
// A definition is a line "[ \t]*#[ \t]*define[ \t]+NAME(PARAMS)REST": PARAMS
// runs to the first ')' (newlines included), REST to the end of the first
// line after it not ending in a backslash. When PARAMS ends in
// "WORD[ \t]*...[ \t]*", WORD... becomes "..." and each whole-word WORD in
// ")REST" becomes __VA_ARGS__.
func rewriteNamedVariadics(src []byte) []byte {
	if !hasNamedVariadic(src) {
		return src
	}
	var out []byte // nil until the first rewrite
	done := 0      // src[:done] is in out
	for line := 0; line < len(src); {
		end, pOpen, pClose := scanDefine(src, line)
		if end < 0 {
			line = nextLine(src, line)
			continue
		}
		if name, at := variadicParam(src[pOpen+1 : pClose]); name != nil {
			out = append(out, src[done:pOpen+1+at]...)
			out = append(out, "..."...)
			out = appendReplacedWord(out, src[pClose:end], name, "__VA_ARGS__")
			done = end
		}
		line = nextLine(src, end)
	}
	if out == nil {
		return src
	}
	return append(out, src[done:]...)
}

// hasNamedVariadic reports whether src holds "WORD[ \t]*...[ \t]*)", which
// any definition rewriteNamedVariadics changes contains.
func hasNamedVariadic(src []byte) bool {
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte("..."))
		if j < 0 {
			return false
		}
		j += i
		b := j - 1
		for b >= 0 && (src[b] == ' ' || src[b] == '\t') {
			b--
		}
		a := j + 3
		for a < len(src) && (src[a] == ' ' || src[a] == '\t') {
			a++
		}
		if b >= 0 && isWord(src[b]) && a < len(src) && src[a] == ')' {
			return true
		}
		i = j + 1
	}
}

// nextLine returns the offset after the '\n' at or after i, or len(src).
func nextLine(src []byte, i int) int {
	if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(src)
}

// scanDefine matches a function-like #define starting at line, returning
// the offsets of the end of its last line (before '\n'), its '(' and its
// ')'; end is -1 when there is none.
func scanDefine(src []byte, line int) (end, pOpen, pClose int) {
	i := skipBlanks(src, line)
	if i >= len(src) || src[i] != '#' {
		return -1, 0, 0
	}
	i = skipBlanks(src, i+1)
	if !bytes.HasPrefix(src[i:], []byte("define")) {
		return -1, 0, 0
	}
	i += len("define")
	if j := skipBlanks(src, i); j == i {
		return -1, 0, 0
	} else {
		i = j
	}
	j := i
	for j < len(src) && isWord(src[j]) {
		j++
	}
	if j == i || j >= len(src) || src[j] != '(' {
		return -1, 0, 0
	}
	pOpen = j
	k := bytes.IndexByte(src[pOpen:], ')')
	if k < 0 {
		return -1, 0, 0
	}
	pClose = pOpen + k
	end = pClose
	for {
		nl := bytes.IndexByte(src[end:], '\n')
		if nl < 0 {
			return len(src), pOpen, pClose
		}
		nl += end
		if nl == end || src[nl-1] != '\\' {
			return nl, pOpen, pClose
		}
		end = nl + 1
	}
}

// variadicParam returns WORD and its offset when params ends in
// "WORD[ \t]*...[ \t]*".
func variadicParam(params []byte) (name []byte, at int) {
	e := len(params)
	for e > 0 && (params[e-1] == ' ' || params[e-1] == '\t') {
		e--
	}
	if !bytes.HasSuffix(params[:e], []byte("...")) {
		return nil, 0
	}
	e -= 3
	for e > 0 && (params[e-1] == ' ' || params[e-1] == '\t') {
		e--
	}
	at = e
	for at > 0 && isWord(params[at-1]) {
		at--
	}
	if at == e {
		return nil, 0
	}
	return params[at:e], at
}

// appendReplacedWord appends s to out with each whole-word word replaced by
// repl.
func appendReplacedWord(out, s, word []byte, repl string) []byte {
	done := 0
	for i := 0; ; {
		j := bytes.Index(s[i:], word)
		if j < 0 {
			return append(out, s[done:]...)
		}
		j += i
		k := j + len(word)
		if (j > 0 && isWord(s[j-1])) || (k < len(s) && isWord(s[k])) {
			i = j + 1
			continue
		}
		out = append(out, s[done:j]...)
		out = append(out, repl...)
		done, i = k, k
	}
}

func skipBlanks(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

// isWord reports whether c is in regexp's \w: [0-9A-Za-z_].
func isWord(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// sourceFS serves bpfcc's embedded headers and host files, rewriting
// named variadic macros in both and, unless keepComments, stripping the
// comments stripComments can remove without moving a token.
type sourceFS struct {
	embedded     fs.FS
	keepComments bool
	// vmlinux, when set, prunes bpftool's vmlinux.h to what the program
	// can reach (see pruneVmlinux); pruned records that it did.
	vmlinux *vmlinuxRoots
	pruned  *bool
	// cache, when set, keeps vmlinux.h's declaration index on disk.
	cache *hcache.Cache
	// regions, when set, collects the preserve_access_index records whose
	// attribute hideAccessAttribute took out of the headers.
	regions *[]accessRegion
	// split are the bit-fields to split in two, see wideBitFields.
	split map[token.Position]string
	// target, when set, is the text of <bpfcc/target.h>.
	target func() []byte
	// moveAttrs moves attributes after function declarators (see
	// moveFunctionAttributes).
	moveAttrs bool
	// deps, when set, records what is read for the preamble cache.
	deps *depLog
	// files, when set, collects the host files read (Options.Files).
	files *[]string
}

// TargetHeaderPath is where <bpfcc/target.h> resolves: the embedded one
// (an #error without -x) unless Options.TargetHeader generates it.
const TargetHeaderPath = include.OwnInclude + "/bpfcc/target.h"

// onceTarget calls gen at most once (Parse may translate twice).
func onceTarget(gen func([]byte) []byte, src []byte) func() []byte {
	var once sync.Once
	var text []byte
	return func() []byte {
		once.Do(func() { text = gen(src) })
		return text
	}
}

func newSourceFS() sourceFS { return sourceFS{embedded: include.CCFS()} }

func (s sourceFS) Open(name string) (fs.File, error) {
	b, err := s.read(name)
	s.deps.read(name, b, err)
	if err != nil {
		return nil, err
	}
	if s.files != nil && name != TargetHeaderPath && !strings.HasPrefix(name, include.Root+"/") {
		*s.files = append(*s.files, name)
	}
	var ix *vindex
	if s.deps != nil && isVmlinux(b) {
		if s.deps.takeVmlinux() {
			// Each compile includes and prunes it for itself; the
			// entry needs its typedef names.
			ix = vmlinuxIndex(s.cache, name, b)
			s.deps.vmlinux, s.deps.typedefs = name, ix.typedefNames()
		} else {
			s.deps.veto = "vmlinux.h is included, but not as the first line"
		}
	}
	if s.vmlinux != nil && isVmlinux(b) {
		s.vmlinux.headerPath, s.vmlinux.header = name, b
		if ix == nil {
			ix = vmlinuxIndex(s.cache, name, b)
		}
		b = ix.prune(b, s.vmlinux.get(), name)
		*s.pruned = true
	}
	if s.regions != nil {
		var r []accessRegion
		b, r = hideAccessAttribute(name, dropEmptyAttributes(rewriteU8(b)))
		*s.regions = append(*s.regions, r...)
	}
	b = rewriteLocalLabels(rewriteNamedVariadics(endLine(b)))
	if s.moveAttrs {
		b = moveFunctionAttributes(b)
	}
	if !s.keepComments {
		b = stripComments(b)
	}
	if s.split != nil {
		if sb, ok := splitWideBitFields(name, b, s.split); ok {
			b = sb
		}
	}
	return newMemFile(name, b), nil
}

// read returns the content of an embedded header or a host file.
func (s sourceFS) read(name string) ([]byte, error) {
	if s.target != nil && name == TargetHeaderPath {
		return s.target(), nil
	}
	if strings.HasPrefix(name, include.Root+"/") {
		return fs.ReadFile(s.embedded, name)
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
	return os.ReadFile(name)
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
