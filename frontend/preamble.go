package frontend

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"unsafe"

	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/frontend/hcache"
	"github.com/bpfcc/bpfcc/include"
)

// The preamble cache. Most of a compile is the headers: preprocessing
// libbpf's and the kernel's UAPI headers, then parsing and checking
// thousands of declarations the program never names. The preamble is the
// main file's leading run of directives (its #includes and #defines);
// the cache keeps what preprocessing it produced, split into top-level
// declarations with the names each declares and refers to, plus the
// macros defined at its end. A compile then hands cc, in place of the
// preamble, the declarations the rest of the file can reach, each under
// a #line directive that keeps every position exact, then the macros,
// then the rest of the file.
//
// An entry is keyed by the preamble's text, the main file's directory,
// the predefined macros (-D, -U, -mcpu) and the include directories, and
// holds the content hash of every file preprocessing read and the names
// of the include candidates it found absent: a change to any of them, or
// a new header that an earlier search directory now holds, is a miss.
// If the reduced file does not compile, Parse compiles the whole file as
// it would without the cache: pruning can cost time, never change a
// result.

// splitPreamble returns the length of src's preamble: its leading lines
// that are blank, comments or directives, ending after the last #include
// with every #if closed. 0 means none: cc's builtins are still one.
func splitPreamble(src []byte) int {
	end, depth, inComment, included := 0, 0, false, false
	for off := 0; off < len(src); {
		nl := bytes.IndexByte(src[off:], '\n')
		if nl < 0 {
			return end // a last line without a newline: not ours to split
		}
		line := src[off : off+nl]
		next := off + nl + 1
		code, open := stripLineComments(line, inComment)
		inComment = open
		code = bytes.TrimSpace(code)
		switch {
		case len(code) == 0:
		case code[0] == '#':
			// A directive, with its continuation lines.
			for bytes.HasSuffix(bytes.TrimRight(line, " \t\r"), []byte{'\\'}) && next < len(src) {
				nl := bytes.IndexByte(src[next:], '\n')
				if nl < 0 {
					return end
				}
				line = src[next : next+nl]
				next += nl + 1
			}
			if inComment {
				return end
			}
			word := bytes.TrimLeft(code[1:], " \t")
			switch {
			case hasWord(word, "if"), hasWord(word, "ifdef"), hasWord(word, "ifndef"):
				depth++
			case hasWord(word, "endif"):
				depth--
			case hasWord(word, "include"):
				included = true
			case depth == 0 && !hasWord(word, "define") && !hasWord(word, "undef"):
				return end
			}
			if depth == 0 && included {
				end, included = next, false
			}
		default:
			return end
		}
		off = next
	}
	return end
}

func hasWord(s []byte, w string) bool {
	return bytes.HasPrefix(s, []byte(w)) && (len(s) == len(w) || s[len(w)] == ' ' || s[len(w)] == '\t' || s[len(w)] == '<' || s[len(w)] == '"' || s[len(w)] == '(')
}

// stripLineComments returns line without its comments and whether a block
// comment is still open at its end.
func stripLineComments(line []byte, inComment bool) ([]byte, bool) {
	var out []byte
	for i := 0; i < len(line); i++ {
		switch {
		case inComment:
			if line[i] == '*' && i+1 < len(line) && line[i+1] == '/' {
				inComment = false
				i++
			}
		case line[i] == '/' && i+1 < len(line) && line[i+1] == '*':
			inComment = true
			i++
		case line[i] == '/' && i+1 < len(line) && line[i+1] == '/':
			return out, false
		case line[i] == '"' || line[i] == '\'':
			// A quoted include name or a string in a #define: no comments.
			q := line[i]
			j := i + 1
			for j < len(line) && line[j] != q {
				if line[j] == '\\' {
					j++
				}
				j++
			}
			out = append(out, line[i:min(j+1, len(line))]...)
			i = j
		default:
			out = append(out, line[i])
		}
	}
	return out, inComment
}

// preamble is a cache entry.
type preamble struct {
	deps    []pdep
	items   []pitem // declarations and pragmas, in order
	macros  []pmacro
	undefs  []string // predefined macros the headers undefined
	once    []string // files that said #pragma once
	regions []accessRegion
	// include is the preamble's first line when it includes vmlinux.h,
	// which cc then reads first, as without the cache.
	include string
}

// pdep is a file preprocessing read (sum) or an include candidate it did
// not find (absent).
type pdep struct {
	name   string
	absent bool
	sum    [sha256.Size]byte
	// The stat of the file when read: a file whose stat is the same is
	// not read again. Any write changes ctime, which no user can set
	// back; one whose stat differs is read and hashed.
	stat fileStat
}

// fileStat is what identifies a file's content without reading it.
type fileStat struct{ size, mtime, ctime, ino int64 }

func statOf(name string) (fileStat, bool) {
	st, err := os.Stat(name)
	if err != nil {
		return fileStat{}, false
	}
	fs := fileStat{size: st.Size(), mtime: st.ModTime().UnixNano()}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		fs.ctime, fs.ino = sys.Ctim.Nano(), int64(sys.Ino)
	}
	return fs, true
}

// at is where a text starts (line, at column 1, of file) or where the
// text after it would (the line after its last).
type at struct {
	file string // mainFile for the main file
	line int
}

// pitem is a declaration or a pragma as text.
type pitem struct {
	from, to at
	text     string
	names    []string
	refs     []string
	keep     bool
}

// pmacro is a macro definition as text.
type pmacro struct {
	from, to at
	name     string
	text     string
	// undef: the name was predefined (#undef it first).
	undef  bool
	idents []string // in its replacement list
	// pasted are the identifiers next to a ## operator: prefixes or
	// suffixes of names its expansion may form; wild, that an operand of
	// ## is a parameter, so that any name may be formed.
	pasted []string
	wild   bool
}

// mainFile stands for the main file's path in an entry's #line
// directives, so that files in one directory share entries.
const mainFile = "\x01"

// depLog records the files a sourceFS reads, for the preamble cache.
type depLog struct {
	deps []pdep
	// veto says why the preamble cannot be cached (a generated header,
	// vmlinux.h other than as its first include).
	veto string
	// vmlinuxFirst: the preamble's first line includes vmlinux.h, which
	// then is read but not preprocessed (vmlinux says where it is, and
	// typedefs are its typedef names); each compile includes and prunes
	// it for itself, as without the cache.
	vmlinuxFirst bool
	vmlinux      string
	typedefs     []string
}

// takeVmlinux reports whether vmlinux.h, just read, is the preamble's
// first include.
func (l *depLog) takeVmlinux() bool {
	if !l.vmlinuxFirst || l.vmlinux != "" {
		return false
	}
	for _, d := range l.deps[:len(l.deps)-1] {
		if !d.absent {
			return false
		}
	}
	return true
}

func (l *depLog) read(name string, b []byte, err error) {
	if l != nil && name == TargetHeaderPath {
		l.veto = "<bpfcc/target.h> is generated"
	}
	if l == nil || strings.HasPrefix(name, include.Root+"/") {
		return // embedded: part of bpfcc's build, in every key
	}
	if err != nil {
		l.deps = append(l.deps, pdep{name: name, absent: true})
		return
	}
	d := pdep{name: name, sum: sha256.Sum256(b)}
	d.stat, _ = statOf(name)
	l.deps = append(l.deps, d)
}

// preambleKey is the cache key of a preamble.
func preambleKey(path string, pre []byte, opts Options) hcache.Key {
	// Relative include directories and file names resolve from the
	// working directory.
	cwd, _ := os.Getwd()
	return hcache.NewKey("preamble", commentFree(pre), []byte(filepath.Dir(path)), []byte(cwd), []byte(predefined(opts)),
		[]byte(strings.Join(opts.search().Quoted(), "\x00")), []byte(strings.Join(opts.search().System(), "\x00")))
}

// commentFree is the preamble as the key sees it: a line that holds only
// comment becomes empty, or "/*" when it ends inside a block comment, and
// every other line stays as it is. Files whose preambles differ only in
// their licence and copyright comments share an entry; since every line
// keeps its place and every line with code its columns, and a line's
// comment state follows from the lines kept, the preprocessor reads the
// same tokens at the same positions from both.
func commentFree(pre []byte) []byte {
	out := make([]byte, 0, len(pre))
	inComment := false
	for off := 0; off < len(pre); {
		end := len(pre)
		if nl := bytes.IndexByte(pre[off:], '\n'); nl >= 0 {
			end = off + nl
		}
		line := pre[off:end]
		code, open := stripLineComments(line, inComment)
		inComment = open
		switch {
		case len(bytes.TrimSpace(code)) > 0 || bytes.HasSuffix(bytes.TrimRight(line, " \t\r"), []byte{'\\'}):
			// Code, or a line spliced to the next (a // comment ending
			// in a backslash swallows that line too): as it is.
			out = append(out, line...)
		case open:
			out = append(out, "/*"...)
		}
		out = append(out, '\n')
		off = end + 1
	}
	return out
}

// PreambleCache enables the preamble cache (with Options.Cache);
// BPFCC_PREAMBLE=off turns it off, to compare.
var PreambleCache = os.Getenv("BPFCC_PREAMBLE") != "off"

// PreambleStats counts, for this process, the compiles that read a
// preamble from the cache (Hits) or made its entry (Captures), those
// whose preamble cannot be cached (Refused), and those whose reduced file
// failed where the whole file compiles (Missed): each of those is time
// lost, and may be a declaration the reachability missed.
type PreambleStats struct {
	Hits, Captures, Refused, Missed int64
	// Why is the reason of the last refusal.
	Why string
}

var preambleStats struct {
	hits, captures, refused, missed atomic.Int64
	why                             atomic.Value // the last refusal's reason
}

// PreambleCounts returns the process's PreambleStats.
func PreambleCounts() PreambleStats {
	s := &preambleStats
	why, _ := s.why.Load().(string)
	return PreambleStats{s.hits.Load(), s.captures.Load(), s.refused.Load(), s.missed.Load(), why}
}

func refused(why string) {
	preambleStats.refused.Add(1)
	preambleStats.why.Store(why)
}

// vetoPrefix begins the entry of a preamble that cannot be cached; the
// reason follows.
const vetoPrefix = "veto\x00"

// preambleMiss is a preamble not in the cache: Parse compiles the whole
// file with preambleMark after the preamble, and makes the entry from
// what cc recorded there (capture).
type preambleMiss struct {
	key   hcache.Key
	rkey  hcache.Key // the reduced entry's (reducedKey)
	body  []byte
	off   int    // the preamble's length
	first string // firstInclude's result
	base  *cc.Captured
}

// preambleMark is the pragma at the end of the preamble of a file
// compiled to make its entry (see cc.Config.CaptureMark).
const preambleMark = "bpfcc_preamble_end"

// lookupPreamble returns the cached preamble of the main file text (as
// rewritten for cc) and the text cc reads in its place, or, when there
// is no entry yet, what Parse needs to make it; both nil when the file
// has none that can be cached.
func lookupPreamble(cfg *cc.Config, path string, text []byte, opts Options) (*preamble, []byte, *preambleMiss) {
	if opts.Cache == nil || !PreambleCache {
		return nil, nil, nil
	}
	off := splitPreamble(text)
	key := preambleKey(path, text[:off], opts)
	body, bodyLine := text[off:], 1+bytes.Count(text[:off], []byte{'\n'})
	rkey := reducedKey(key, body)
	if r := loadReduced(opts.Cache, rkey); r != nil {
		preambleStats.hits.Add(1)
		return &preamble{deps: r.deps, once: r.once, regions: r.regions}, withBody(r.head, path, body, bodyLine), nil
	}
	p, veto := loadPreamble(opts.Cache, key)
	switch {
	case veto != "":
		refused(veto)
		return nil, nil, nil
	case p != nil:
		preambleStats.hits.Add(1)
		head := p.reduced(body)
		r := reducedEntry{deps: p.deps, once: p.once, regions: p.regions, head: head}
		opts.Cache.Put(rkey, r.encode())
		return p, withBody(head, path, body, bodyLine), nil
	case strings.ContainsAny(path, "\"\\\n"):
		refused("the file name has a quote, a backslash or a line break")
		return nil, nil, nil
	}
	// cc's own declarations of the builtins are a preamble too: the
	// predefined macros are all that stays outside.
	c := *cfg
	c.PragmaHandler = nil
	base, err := cc.Capture(&c, []cc.Source{{Name: "<predefined>", Value: predefined(opts)}})
	if err != nil {
		return nil, nil, nil
	}
	return nil, nil, &preambleMiss{key: key, rkey: rkey, body: body, off: off, first: firstInclude(text[:off]), base: base}
}

// marked is text with preambleMark after the preamble, and a #line that
// keeps the lines after it where they were.
func (m *preambleMiss) marked(text []byte, path string) []byte {
	line := 1 + bytes.Count(text[:m.off], []byte{'\n'})
	b := make([]byte, 0, len(text)+len(path)+64)
	b = append(b, text[:m.off]...)
	b = fmt.Appendf(b, "#pragma %s\n#line %d \"%s\"\n", preambleMark, line, path)
	return append(b, text[m.off:]...)
}

// store makes the entry from what cc recorded at the mark (at, nil if the
// mark was never met) and what the headers read until then did (st).
func (m *preambleMiss) store(c *hcache.Cache, path string, at *cc.Captured, st captureState) {
	p, why := buildPreamble(m.base, at, st, path, m.first)
	if p == nil {
		refused(why)
		c.Put(m.key, []byte(vetoPrefix+why))
		return
	}
	preambleStats.captures.Add(1)
	c.Put(m.key, p.encode())
	r := reducedEntry{deps: p.deps, once: p.once, regions: p.regions, head: p.reduced(m.body)}
	c.Put(m.rkey, r.encode())
}

// captureState is what the headers read before the mark did.
type captureState struct {
	deps      []pdep
	regions   []accessRegion
	loopSites int
	veto      string
	vmlinux   string
	typedefs  []string
}

// loadPreamble returns the cached preamble if every file it read is
// unchanged; veto is why, when the entry says the preamble cannot be
// cached.
func loadPreamble(c *hcache.Cache, key hcache.Key) (p *preamble, veto string) {
	b, ok := c.Get(key)
	if !ok {
		return nil, ""
	}
	if why, ok := bytes.CutPrefix(b, []byte(vetoPrefix)); ok {
		return nil, string(why)
	}
	p, err := decodePreamble(b)
	if err != nil {
		c.Warnf("ignoring a malformed preamble in the header cache: %v", err)
		return nil, ""
	}
	if !depsHold(p.deps) {
		return nil, ""
	}
	return p, ""
}

// depsHold reports whether every file an entry was made from is as it
// was, and every include candidate it did not find is still absent.
func depsHold(deps []pdep) bool {
	for _, d := range deps {
		st, ok := statOf(d.name)
		switch {
		case d.absent && ok:
			return false
		case d.absent:
		case !ok:
			return false
		case st == d.stat:
		default:
			if b, err := os.ReadFile(d.name); err != nil || sha256.Sum256(b) != d.sum {
				return false
			}
		}
	}
	return true
}

// buildPreamble makes the entry from the preprocessor's state at the
// mark (all) and after the predefined macros alone (base); nil and why
// when the preamble cannot be cached.
func buildPreamble(base, all *cc.Captured, log captureState, path, firstLine string) (*preamble, string) {
	switch {
	case all == nil || all.Macros == nil:
		return nil, "the preamble's end was not met"
	case log.veto != "":
		return nil, log.veto
	case log.loopSites > 0:
		return nil, "a header has a loop pragma"
	case all.Counter != base.Counter:
		return nil, "a header uses __COUNTER__"
	case all.Pack != base.Pack || all.PackStack != base.PackStack:
		return nil, "a header leaves #pragma pack set"
	case all.Len() < base.Len():
		return nil, "the predefined macros expand to tokens"
	}
	p := &preamble{deps: log.deps, regions: log.regions}
	if log.vmlinux != "" {
		p.include = firstLine
	}
	once := map[string]bool{}
	for _, pr := range all.Pragmas {
		if len(pr.Toks) > 0 && pr.Toks[0].SrcStr() == "once" {
			if f := pr.Toks[0].Position().Filename; f != log.vmlinux && !once[f] {
				once[f] = true
				p.once = append(p.once, f)
			}
		}
	}
	sort.Strings(p.once)
	// The tokens and pragmas of the preamble's headers, but vmlinux.h's:
	// kept[i] is the number of tokens kept before all.Token(n0+i).
	n0 := base.Len()
	toks := make([]ptok, 0, all.Len()-n0)
	kept := make([]int, all.Len()-n0+1)
	// Token texts are interned: most are the same few hundred words, and
	// on this path every allocation is a fresh page (the collector is off
	// for a compile's first 64 MB), which costs more than the map.
	intern := map[string]string{}
	lastFile := ""
	for i := range all.Len() - n0 {
		t := all.Token(n0 + i)
		kept[i] = len(toks)
		pos := t.Position()
		if pos.Filename != lastFile {
			if strings.ContainsAny(pos.Filename, "\"\\\n") {
				return nil, "a file name has a quote, a backslash or a line break"
			}
			lastFile = pos.Filename
		}
		if pos.Filename != log.vmlinux || log.vmlinux == "" {
			src := t.Src()
			text, ok := intern[string(src)]
			if !ok {
				text = string(src)
				intern[text] = text
			}
			toks = append(toks, ptok{text: text, ident: t.Ch == rune(cc.IDENTIFIER), file: pos.Filename, line: pos.Line, col: pos.Column})
		}
	}
	kept[len(kept)-1] = len(toks)
	var pragmas []cc.CapturedPragma
	for _, pr := range all.Pragmas[len(base.Pragmas):] {
		if len(pr.Toks) > 0 && pr.Toks[0].Position().Filename == log.vmlinux && log.vmlinux != "" {
			continue
		}
		pr.At = kept[pr.At-n0] + n0
		pragmas = append(pragmas, pr)
	}
	spans := splitTopDecls(toks)
	typedefs := map[string]bool{}
	for _, n := range log.typedefs {
		typedefs[n] = true
	}
	pi := 0
	for _, s := range spans {
		// Pragmas before the declaration stand alone and stay; one inside
		// it keeps it.
		for pi < len(pragmas) && pragmas[pi].At-n0 <= s[0] {
			if it, ok := pragmaItem(pragmas[pi].Toks, path); ok {
				p.items = append(p.items, it)
			}
			pi++
		}
		d := topDecl{start: s[0], end: s[1]}
		classifyDecl(toks, &d, typedefs)
		var inner []cc.CapturedPragma
		for pi < len(pragmas) && pragmas[pi].At-n0 < s[1] {
			inner = append(inner, pragmas[pi])
			pi++
		}
		it := pitem{names: d.names, refs: d.refs, keep: d.keep || len(inner) > 0}
		it.text, it.from, it.to = declText(toks[s[0]:s[1]], path, inner, s[0]+n0)
		if it.from.file == "<builtin>" && slices.ContainsFunc(it.names, func(n string) bool {
			return strings.HasPrefix(n, "__predefined_") || n == "__builtin_va_list"
		}) {
			it.keep = true // cc looks them up itself (size_t and the like)
		}
		p.items = append(p.items, it)
	}
	for ; pi < len(pragmas); pi++ {
		if it, ok := pragmaItem(pragmas[pi].Toks, path); ok {
			p.items = append(p.items, it)
		}
	}
	for name := range base.Macros {
		if _, ok := all.Macros[name]; !ok {
			p.undefs = append(p.undefs, name)
		}
	}
	sort.Strings(p.undefs)
	for name, m := range all.Macros {
		if bm, ok := base.Macros[name]; ok && bm.Position() == m.Position() {
			continue
		}
		pm, ok := macroItem(m, path)
		if !ok {
			return nil, "macro " + name + " has no position"
		}
		_, pm.undef = base.Macros[name]
		p.macros = append(p.macros, pm)
	}
	// In the order of the files' lines: consecutive ones need no #line.
	sort.Slice(p.macros, func(i, j int) bool {
		a, b := p.macros[i].from, p.macros[j].from
		if a.file != b.file {
			return a.file < b.file
		}
		return a.line < b.line
	})
	return p, ""
}

// firstInclude returns the start of pre up to its first #include, with
// its line break, when that includes vmlinux.h and only blank lines,
// comments, #define and #undef come before it (they may matter to
// vmlinux.h: BPF_NO_KFUNC_PROTOTYPES).
func firstInclude(pre []byte) string {
	inComment := false
	for off := 0; off < len(pre); {
		nl := bytes.IndexByte(pre[off:], '\n')
		if nl < 0 {
			return ""
		}
		line := pre[off : off+nl]
		off += nl + 1
		code, open := stripLineComments(line, inComment)
		inComment = open
		code = bytes.TrimSpace(code)
		if len(code) == 0 {
			continue
		}
		if code[0] != '#' || bytes.HasSuffix(code, []byte{'\\'}) {
			return ""
		}
		word := bytes.TrimLeft(code[1:], " \t")
		switch {
		case hasWord(word, "include"):
			if inComment || !bytes.HasSuffix(code, []byte("vmlinux.h\"")) && !bytes.HasSuffix(code, []byte("vmlinux.h>")) {
				return ""
			}
			return string(pre[:off])
		case hasWord(word, "define"), hasWord(word, "undef"):
		default:
			return ""
		}
	}
	return ""
}

// lineDirective is a #line directive naming file (mainFile for the main
// file at path).
func lineDirective(b *bytes.Buffer, line int, file, path string) {
	writeLine(b, "\n#line ", line, entryName(file, path))
}

// writeLine writes prefix, then "N \"file\"\n": a #line directive
// without fmt, which was a tenth of making an entry.
func writeLine(b *bytes.Buffer, prefix string, n int, file string) {
	b.WriteString(prefix)
	b.Write(strconv.AppendInt(b.AvailableBuffer(), int64(n), 10))
	b.WriteString(" \"")
	b.WriteString(file)
	b.WriteString("\"\n")
}

func entryName(file, path string) string {
	if file == path {
		return mainFile
	}
	return file
}

// pragmaItem is a pragma as an item; #pragma once is not one (the entry
// lists the files instead: running it again would skip the rest of the
// file it is in).
func pragmaItem(toks []cc.Token, path string) (pitem, bool) {
	if len(toks) == 0 || toks[0].SrcStr() == "once" {
		return pitem{}, false
	}
	var b bytes.Buffer
	pos := toks[0].Position()
	b.WriteString("#pragma")
	for _, t := range toks {
		b.WriteByte(' ')
		b.Write(t.Src())
	}
	b.WriteByte('\n')
	f := entryName(pos.Filename, path)
	return pitem{from: at{f, pos.Line}, to: at{f, pos.Line + 1}, text: b.String(), keep: true}, true
}

// declText writes toks at their positions: each token at its line and
// column, with a #line directive wherever that cannot be reached by
// spaces and newlines. The text starts at column 1 of the first token's
// line. Pragmas inside the declaration go before the token they preceded
// (their At counts from first).
func declText(toks []ptok, path string, pragmas []cc.CapturedPragma, first int) (text string, from, to at) {
	var b bytes.Buffer
	file, line, col := toks[0].file, toks[0].line, 0
	from = at{entryName(file, path), line}
	var prev ptok
	for i, t := range toks {
		for len(pragmas) > 0 && pragmas[0].At-first <= i {
			if it, ok := pragmaItem(pragmas[0].Toks, path); ok {
				lineDirective(&b, it.from.line, pos2file(it.from.file, path), path)
				b.WriteString(it.text)
				file = "" // the next token needs a #line
			}
			pragmas = pragmas[1:]
		}
		switch {
		case t.file == "" || t.line == 0:
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			file = ""
		case t.file == file && t.line == line && t.col > col && !(t.col == col+1 && mayJoin(prev, t)):
			b.WriteString(strings.Repeat(" ", t.col-col-1))
		case t.file == file && t.line > line && t.line-line <= 8:
			b.WriteString(strings.Repeat("\n", t.line-line))
			b.WriteString(strings.Repeat(" ", t.col-1))
		default:
			lineDirective(&b, t.line, t.file, path)
			b.WriteString(strings.Repeat(" ", max(t.col-1, 0)))
		}
		b.WriteString(t.text)
		if t.file != "" && t.line != 0 {
			file, line = t.file, t.line
			col = t.col + len(t.text) - 1
		}
		prev = t
	}
	b.WriteByte('\n')
	if file == "" {
		// Ends after a token without a position: the next needs a #line.
		return b.String(), from, at{}
	}
	return b.String(), from, at{entryName(file, path), line + 1}
}

func pos2file(f, path string) string {
	if f == mainFile {
		return path
	}
	return f
}

// mayJoin reports whether a and b written with nothing between them might
// read as other tokens.
func mayJoin(a, b ptok) bool {
	if a.text == "" || b.text == "" {
		return false
	}
	word := func(c byte) bool {
		return c == '_' || c == '.' || c == '$' || c == '\'' || c == '"' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	x, y := a.text[len(a.text)-1], b.text[0]
	if word(x) && word(y) {
		return true
	}
	return strings.ContainsRune("+-*/%<>=!&|^#.:", rune(x)) && strings.ContainsRune("+-*/%<>=!&|^#.:", rune(y))
}

// macroItem is m's definition as text.
func macroItem(m *cc.Macro, path string) (pmacro, bool) {
	name := m.Name.SrcStr()
	pos := m.Name.Position()
	if strings.ContainsAny(pos.Filename, "\"\\\n") || pos.Line == 0 {
		return pmacro{}, false
	}
	var b bytes.Buffer
	b.WriteString("#define")
	b.WriteString(strings.Repeat(" ", max(pos.Column-8, 1)))
	b.WriteString(name)
	if m.IsFnLike {
		b.WriteByte('(')
		for i, p := range m.Params {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(p.SrcStr())
			if i == m.VarArg {
				b.WriteString("...")
			}
		}
		if m.VarArg >= len(m.Params) {
			if len(m.Params) > 0 {
				b.WriteString(", ")
			}
			b.WriteString("...")
		}
		b.WriteByte(')')
	}
	pm := pmacro{name: name}
	line := pos.Line
	rl := m.ReplacementList()
	first, prevEnd := true, 0
	for i, t := range rl {
		if t.Ch == ' ' || t.Ch == '\n' {
			continue
		}
		p := t.Position()
		text := t.SrcStr()
		cur := len(b.Bytes()) - 1 - bytes.LastIndexByte(b.Bytes(), '\n') // columns written on this line
		sameLine := p.Filename == pos.Filename && p.Line == line
		switch {
		case first && sameLine && p.Column > cur+1:
			b.WriteString(strings.Repeat(" ", p.Column-cur-1))
		case first:
			if !m.IsFnLike {
				b.WriteByte(' ') // an object-like macro's body starts after a blank
			}
		case sameLine:
			// The blanks of the source between tokens: stringizing an
			// expansion shows them.
			b.WriteString(strings.Repeat(" ", max(p.Column-prevEnd-1, 0)))
		case p.Filename == pos.Filename && p.Line > line && p.Line-line < 64:
			b.WriteString(strings.Repeat(" \\\n", p.Line-line))
			b.WriteString(strings.Repeat(" ", p.Column-1))
			line = p.Line
		default:
			b.WriteByte(' ')
		}
		prevEnd = p.Column + len(text) - 1
		first = false
		b.WriteString(text)
		isParam := func(k int) bool {
			return slices.ContainsFunc(m.Params, func(p cc.Token) bool { return p.SrcStr() == rl[k].SrcStr() }) || rl[k].SrcStr() == "__VA_ARGS__"
		}
		if t.Ch == rune(cc.IDENTIFIER) && !isParam(i) {
			pm.idents = append(pm.idents, text)
		}
		if text == "##" {
			l, r := prevNonBlank(rl, i), nextNonBlank(rl, i)
			lit := func(k int) bool { return k >= 0 && rl[k].Ch == rune(cc.IDENTIFIER) && !isParam(k) }
			switch {
			case lit(l):
				pm.pasted = append(pm.pasted, rl[l].SrcStr()+"*")
			case lit(r):
				pm.pasted = append(pm.pasted, "*"+rl[r].SrcStr())
			case l >= 0 && r >= 0 && isParam(l):
				pm.wild = true
			}
		}
	}
	b.WriteByte('\n')
	pm.text = b.String()
	f := entryName(pos.Filename, path)
	pm.from, pm.to = at{f, pos.Line}, at{f, line + 1}
	return pm, true
}

func prevNonBlank(t []cc.Token, i int) int {
	for k := i - 1; k >= 0; k-- {
		if t[k].Ch != ' ' {
			return k
		}
	}
	return -1
}

func nextNonBlank(t []cc.Token, i int) int {
	for k := i + 1; k < len(t); k++ {
		if t[k].Ch != ' ' {
			return k
		}
	}
	return -1
}

// withBody is the text cc reads in place of the main file: the reduced
// declarations head (preamble.reduced), then body (the file from line
// bodyLine on), with path for mainFile in head's #line directives.
func withBody(head []byte, path string, body []byte, bodyLine int) []byte {
	b := bytes.NewBuffer(head[:len(head):len(head)])
	fmt.Fprintf(b, "#line %d \"%s\"\n", bodyLine, mainFile)
	out := bytes.ReplaceAll(b.Bytes(), []byte(mainFile), []byte(path))
	return append(out, body...)
}

// reduced is the part of source before body, with mainFile for the main
// file's path. A body that includes a header after its code gets every
// macro: the header may test any.
func (p *preamble) reduced(body []byte) []byte {
	byName := map[string][]int{}
	for i, it := range p.items {
		for _, n := range it.names {
			byName[n] = append(byName[n], i)
		}
	}
	macros := make(map[string]int, len(p.macros))
	for i := range p.macros {
		macros[p.macros[i].name] = i
	}
	var names []string // every declared or macro name, sorted, for ## prefixes
	keep := make([]bool, len(p.items))
	keepMacro := make([]bool, len(p.macros))
	seen := map[string]bool{}
	var order []string // seen's names, in the order met
	var work []string
	wild := false
	need := func(n string) {
		if !seen[n] {
			seen[n] = true
			order = append(order, n)
			work = append(work, n)
		}
	}
	pasted := func(pat string) {
		if names == nil {
			for n := range byName {
				names = append(names, n)
			}
			for n := range macros {
				names = append(names, n)
			}
			sort.Strings(names)
		}
		if pre, ok := strings.CutSuffix(pat, "*"); ok {
			for k := sort.SearchStrings(names, pre); k < len(names) && strings.HasPrefix(names[k], pre); k++ {
				need(names[k])
			}
			return
		}
		for _, n := range names {
			if strings.HasSuffix(n, pat[1:]) {
				need(n)
			}
		}
	}
	scanIdents(body, func(w []byte) {
		if !seen[string(w)] {
			need(string(w))
		}
	})
	if includesAfterCode(body) {
		for i := range p.macros {
			need(p.macros[i].name)
		}
	}
	for i, it := range p.items {
		if it.keep {
			keep[i] = true
			for _, r := range it.refs {
				need(r)
			}
		}
	}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		if wild {
			pasted(n + "*")
		}
		if k, ok := macros[n]; ok && !keepMacro[k] {
			keepMacro[k] = true
			m := &p.macros[k]
			for _, r := range m.idents {
				need(r)
			}
			for _, pat := range m.pasted {
				pasted(pat)
			}
			if m.wild && !wild {
				// A ## of parameters forms names from its arguments: any
				// name met may begin one.
				wild = true
				for _, n := range order {
					pasted(n + "*")
				}
			}
		}
		for _, i := range byName[n] {
			if !keep[i] {
				keep[i] = true
				for _, r := range p.items[i].refs {
					need(r)
				}
			}
		}
	}
	var b bytes.Buffer
	cur := at{}
	place := func(from, to at) {
		if from.file == cur.file && from.line >= cur.line && from.line-cur.line <= 8 {
			b.WriteString(strings.Repeat("\n", from.line-cur.line))
		} else {
			writeLine(&b, "#line ", from.line, from.file)
		}
		cur = to
	}
	// cc's builtins, then vmlinux.h, which uses their typedefs, then the
	// other headers' declarations, then the macros.
	builtin := func(f string) bool { return f == "<builtin>" || f == "<builtin-macros>" }
	items := func(inBuiltin bool) {
		for i, it := range p.items {
			if keep[i] && builtin(it.from.file) == inBuiltin {
				place(it.from, it.to)
				b.WriteString(it.text)
			}
		}
	}
	defines := func(inBuiltin bool) {
		for k, m := range p.macros {
			if (keepMacro[k] || inBuiltin) && builtin(m.from.file) == inBuiltin {
				if m.undef {
					fmt.Fprintf(&b, "#undef %s\n", m.name)
					cur = at{}
				}
				place(m.from, m.to)
				b.WriteString(m.text)
			}
		}
	}
	items(true)
	for _, u := range p.undefs {
		fmt.Fprintf(&b, "#undef %s\n", u)
		cur = at{}
	}
	if p.include != "" {
		fmt.Fprintf(&b, "#line 1 \"%s\"\n%s", mainFile, p.include)
		cur = at{}
	}
	items(false)
	// The macros after every declaration: the declarations are expanded
	// already, and a name a macro's expansion left unexpanded (the inner
	// __builtin_bswap16 of bpfcc's own __builtin_bswap16 macro) must stay so.
	defines(true)
	defines(false)
	return b.Bytes()
}

// includesAfterCode reports whether body has an #include directive.
func includesAfterCode(body []byte) bool {
	for off := 0; off < len(body); {
		line := body[off:]
		if nl := bytes.IndexByte(line, '\n'); nl >= 0 {
			line = line[:nl]
			off += nl + 1
		} else {
			off = len(body)
		}
		line = bytes.TrimLeft(line, " \t")
		if len(line) > 0 && line[0] == '#' && hasWord(bytes.TrimLeft(line[1:], " \t"), "include") {
			return true
		}
	}
	return false
}

// encode serialises the entry.
func (p *preamble) encode() []byte {
	size := 64 * (len(p.deps) + len(p.items) + len(p.macros))
	for _, it := range p.items {
		size += len(it.text) + 8*(len(it.names)+len(it.refs))
	}
	for _, m := range p.macros {
		size += len(m.text) + 8*len(m.idents)
	}
	e := penc{b: make([]byte, 0, size)}
	e.deps(p.deps)
	e.int(len(p.items))
	for _, it := range p.items {
		e.at(it.from)
		e.at(it.to)
		e.str(it.text)
		e.strs(it.names)
		e.strs(it.refs)
		e.bool(it.keep)
	}
	e.int(len(p.macros))
	for _, m := range p.macros {
		e.at(m.from)
		e.at(m.to)
		e.str(m.name)
		e.str(m.text)
		e.bool(m.undef)
		e.strs(m.idents)
		e.strs(m.pasted)
		e.bool(m.wild)
	}
	e.strs(p.undefs)
	e.strs(p.once)
	e.str(p.include)
	e.regions(p.regions)
	return e.b
}

func (e *penc) deps(deps []pdep) {
	e.int(len(deps))
	for _, d := range deps {
		e.str(d.name)
		if d.absent {
			e.int(1)
		} else {
			e.int(0)
			e.b = append(e.b, d.sum[:]...)
			e.int(int(d.stat.size))
			e.int(int(d.stat.mtime))
			e.int(int(d.stat.ctime))
			e.int(int(d.stat.ino))
		}
	}
}

func (e *penc) regions(regions []accessRegion) {
	e.int(len(regions))
	for _, r := range regions {
		e.str(r.file)
		e.int(r.from.line)
		e.int(r.from.col)
		e.int(r.to.line)
		e.int(r.to.col)
	}
}

var errBadPreamble = errors.New("malformed entry")

func decodePreamble(b []byte) (p *preamble, err error) {
	d := &pdec{b: b}
	p = &preamble{deps: d.deps()}
	p.items = make([]pitem, d.count())
	for i := range p.items {
		p.items[i] = pitem{from: d.at(), to: d.at(), text: d.str(), names: d.strs(), refs: d.strs(), keep: d.int() == 1}
	}
	p.macros = make([]pmacro, d.count())
	for i := range p.macros {
		p.macros[i] = pmacro{from: d.at(), to: d.at(), name: d.str(), text: d.str(), undef: d.int() == 1, idents: d.strs(), pasted: d.strs(), wild: d.int() == 1}
	}
	p.undefs, p.once, p.include = d.strs(), d.strs(), d.str()
	p.regions = d.regions()
	if d.bad || len(d.b) != 0 {
		return nil, errBadPreamble
	}
	return p, nil
}

type penc struct{ b []byte }

func (e *penc) int(v int) { e.b = binary.AppendVarint(e.b, int64(v)) }
func (e *penc) str(s string) {
	e.int(len(s))
	e.b = append(e.b, s...)
}
func (e *penc) strs(l []string) {
	e.int(len(l))
	for _, s := range l {
		e.str(s)
	}
}
func (e *penc) at(a at) {
	e.str(a.file)
	e.int(a.line)
}
func (e *penc) bool(v bool) {
	if v {
		e.int(1)
	} else {
		e.int(0)
	}
}

type pdec struct {
	b   []byte
	bad bool
}

func (d *pdec) int() int {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.bad, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

// count is a length, bounded by what is left to read.
func (d *pdec) count() int {
	n := d.int()
	if n < 0 || n > len(d.b) {
		d.bad, d.b = true, nil
		return 0
	}
	return n
}

func (d *pdec) bytes(n int) []byte {
	if n > len(d.b) {
		d.bad, d.b = true, nil
		return make([]byte, n)
	}
	r := d.b[:n]
	d.b = d.b[n:]
	return r
}

func (d *pdec) at() at { return at{d.str(), d.int()} }

func (d *pdec) deps() []pdep {
	deps := make([]pdep, d.count())
	for i := range deps {
		deps[i].name = d.str()
		if deps[i].absent = d.int() == 1; !deps[i].absent {
			copy(deps[i].sum[:], d.bytes(sha256.Size))
			deps[i].stat = fileStat{int64(d.int()), int64(d.int()), int64(d.int()), int64(d.int())}
		}
	}
	return deps
}

func (d *pdec) regions() []accessRegion {
	regions := make([]accessRegion, d.count())
	for i := range regions {
		regions[i] = accessRegion{file: d.str(), from: srcPos{d.int(), d.int()}, to: srcPos{d.int(), d.int()}}
	}
	return regions
}

// str returns the next string without copying it: an entry's strings (a
// third of a warm compile's decoding) share the buffer Get read, which
// nothing writes to afterwards.
func (d *pdec) str() string {
	b := d.bytes(d.count())
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

func (d *pdec) strs() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	r := make([]string, n)
	for i := range r {
		r[i] = d.str()
	}
	return r
}
