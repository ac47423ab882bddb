package frontend

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
)

// vmlinux.h, as bpftool dumps it from the kernel's BTF, is 130,000 lines
// of type definitions of which a program uses a few hundred; parsing and
// checking all of it is most of a compile (0.8 s). pruneVmlinux blanks out
// the declarations the program cannot reach, keeping every line break so
// that positions (and the preserve_access_index pragma region) stay put.
//
// Reachability starts from every identifier in the main file and the
// headers it includes (macro bodies and comments too: conservative) and
// follows what kept declarations name. A struct or union reached only
// through a pointer member whose name the program never mentions is kept
// as a forward declaration, which is also what clang's BTF holds for it.
// If the pruned header does not compile, Parse compiles again with the
// whole header, so pruning can cost time but never change a result.

// isVmlinux recognises bpftool's dump by its guard and pragma.
func isVmlinux(src []byte) bool {
	head := src[:min(len(src), 512)]
	return bytes.Contains(head, []byte("#ifndef __VMLINUX_H__")) && bytes.Contains(head, []byte("preserve_access_index"))
}

// vdecl is one top-level declaration of vmlinux.h.
type vdecl struct {
	start, end int    // byte span, ';' included
	kind       string // "struct", "union", "enum", "typedef", "fwd" or "other"
	name       string // tag or typedef name
	enums      []string
	// refs are the names the declaration needs defined; ptrRefs the tags
	// it needs only declared, unless the member (memberOf) is used.
	refs     []string
	ptrRefs  []string
	memberOf []string
}

func pruneVmlinux(src []byte, roots map[string]bool) []byte {
	decls := splitVmlinux(src)
	byName := map[string][]int{} // tag, typedef or enumerator -> decls
	for i, d := range decls {
		if d.name != "" {
			byName[d.name] = append(byName[d.name], i)
		}
		for _, e := range d.enums {
			byName[e] = append(byName[e], i)
		}
	}
	full := make([]bool, len(decls))
	fwd := map[string]bool{}
	var work []int
	need := func(name string) {
		for _, i := range byName[name] {
			if !full[i] {
				full[i] = true
				work = append(work, i)
			}
		}
	}
	for name := range roots {
		need(name)
	}
	for len(work) > 0 {
		d := decls[work[len(work)-1]]
		work = work[:len(work)-1]
		for _, r := range d.refs {
			need(r)
		}
		for k, r := range d.ptrRefs {
			if roots[d.memberOf[k]] {
				need(r)
			} else {
				fwd[r] = true
			}
		}
	}
	out := bytes.Clone(src)
	for i, d := range decls {
		if full[i] || d.kind == "fwd" || d.kind == "other" {
			continue
		}
		blank := out[d.start:d.end]
		for k := range blank {
			if blank[k] != '\n' {
				blank[k] = ' '
			}
		}
		if (d.kind == "struct" || d.kind == "union") && fwd[d.name] {
			copy(blank, d.kind+" "+d.name+";")
		}
	}
	return out
}

// splitVmlinux splits the dump into its top-level declarations.
func splitVmlinux(src []byte) []vdecl {
	toks := scanTokens(src)
	var decls []vdecl
	for i := 0; i < len(toks); {
		j, depth := i, 0
		for ; j < len(toks); j++ {
			switch toks[j].text {
			case "{", "(", "[":
				depth++
			case "}", ")", "]":
				depth--
			}
			if depth == 0 && toks[j].text == ";" {
				break
			}
		}
		if j >= len(toks) {
			break
		}
		decls = append(decls, classify(toks[i:j+1]))
		i = j + 1
	}
	return decls
}

func classify(t []ctoken) vdecl {
	d := vdecl{start: t[0].off, end: t[len(t)-1].off + 1, kind: "other"}
	switch {
	case t[0].text == "typedef":
		d.kind, d.name = "typedef", typedefName(t)
		for _, r := range typeRefs(t[1:]) {
			if r != d.name {
				d.refs = append(d.refs, r)
			}
		}
	case (t[0].text == "struct" || t[0].text == "union") && len(t) == 3 && t[1].ident:
		d.kind, d.name = "fwd", t[1].text
	case (t[0].text == "struct" || t[0].text == "union") && len(t) > 3 && t[1].ident && t[2].text == "{":
		d.kind, d.name = t[0].text, t[1].text
		d.members(t[3 : len(t)-2])
	case t[0].text == "enum":
		d.kind = "enum"
		if len(t) > 1 && t[1].ident {
			d.name = t[1].text
		}
		for k := 1; k+1 < len(t); k++ {
			if (t[k].text == "{" || t[k].text == ",") && t[k+1].ident {
				d.enums = append(d.enums, t[k+1].text)
			}
		}
	}
	return d
}

// members records what the member declarations of a record body need:
// by-value types fully, pointed-to records only declared unless the
// member's name is used (then its pointee may be dereferenced).
func (d *vdecl) members(body []ctoken) {
	for i := 0; i < len(body); {
		j, depth := i, 0
		for ; j < len(body); j++ {
			switch body[j].text {
			case "{", "(", "[":
				depth++
			case "}", ")", "]":
				depth--
			}
			if depth == 0 && body[j].text == ";" {
				break
			}
		}
		m := body[i:min(j, len(body))]
		i = j + 1
		if len(m) > 0 && (m[0].text == "struct" || m[0].text == "union") && len(m) > 1 && m[1].text == "{" {
			// An anonymous record member: its own members, one level in.
			end := len(m) - 1
			for end > 1 && m[end].text != "}" {
				end--
			}
			d.members(m[2:end])
			continue
		}
		refs := typeRefs(m)
		if !hasPointer(m) {
			d.refs = append(d.refs, refs...)
			continue
		}
		name := memberName(m)
		for k := 0; k < len(m)-1; k++ {
			if (m[k].text == "struct" || m[k].text == "union") && m[k+1].ident {
				d.ptrRefs = append(d.ptrRefs, m[k+1].text)
				d.memberOf = append(d.memberOf, name)
			}
		}
		for _, r := range refs {
			if !isTagRef(m, r) {
				d.refs = append(d.refs, r) // typedefs and enums: cheap, kept whole
			}
		}
	}
}

// typeRefs lists the tags (after struct/union/enum) and other identifiers
// a declaration mentions; identifiers that name nothing in vmlinux.h (the
// member names) are harmless.
func typeRefs(t []ctoken) []string {
	var refs []string
	for _, x := range t {
		if x.ident && !cKeywords[x.text] {
			refs = append(refs, x.text)
		}
	}
	return refs
}

func isTagRef(m []ctoken, name string) bool {
	for k := 1; k < len(m); k++ {
		if m[k].text == name && (m[k-1].text == "struct" || m[k-1].text == "union") {
			return true
		}
	}
	return false
}

func hasPointer(m []ctoken) bool {
	for _, x := range m {
		if x.text == "*" {
			return true
		}
	}
	return false
}

// memberName is the declared name of a member: the identifier after "(*"
// for function pointers, else the last identifier before '[', ':' or ';'.
func memberName(m []ctoken) string {
	for k := 0; k+2 < len(m); k++ {
		if m[k].text == "(" && m[k+1].text == "*" && m[k+2].ident {
			return m[k+2].text
		}
	}
	name := ""
	for _, x := range m {
		if x.text == "[" || x.text == ":" {
			break
		}
		if x.ident && !cKeywords[x.text] {
			name = x.text
		}
	}
	return name
}

// typedefName is the name a typedef declares.
func typedefName(t []ctoken) string {
	for k := 0; k+2 < len(t); k++ {
		if t[k].text == "(" && t[k+1].text == "*" && t[k+2].ident {
			return t[k+2].text
		}
	}
	depth, name := 0, ""
	for _, x := range t {
		switch x.text {
		case "{", "(", "[":
			depth++
		case "}", ")", "]":
			depth--
		}
		if depth == 0 && x.ident && !cKeywords[x.text] {
			name = x.text
		}
	}
	return name
}

var cKeywords = map[string]bool{
	"struct": true, "union": true, "enum": true, "typedef": true, "const": true, "volatile": true,
	"unsigned": true, "signed": true, "int": true, "char": true, "short": true, "long": true,
	"void": true, "_Bool": true, "float": true, "double": true, "static": true, "extern": true,
	"__attribute__": true, "packed": true, "aligned": true,
}

// vmlinuxRoots collects the identifiers of the main file and, through
// their #include lines, of every header they reach except vmlinux.h
// itself: the program's use of vmlinux.h starts from these names.
type vmlinuxRoots struct {
	once sync.Once
	path string
	src  []byte
	dirs []string
	read func(string) ([]byte, error)
	// pre are the -include lines (commandLineIncludes), walked first.
	pre   []byte
	roots map[string]bool
	// header is the vmlinux.h being opened when get runs: the include
	// walk finds it again and need not read its megabytes twice.
	headerPath string
	header     []byte
}

// scanIncludes calls fn with the delimiter ('<' or '"') and the name of
// each line that matches (?m)^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"],
// as that regexp would find them, without one: the regexp was half of
// finding a CO-RE program's roots (bpf_helper_defs.h alone is 300 KB).
func scanIncludes(src []byte, fn func(delim byte, name []byte)) {
	for p := 0; p < len(src); {
		if delim, name, n := includeAt(src[p:]); n > 0 {
			fn(delim, name)
			p += n
		}
		nl := bytes.IndexByte(src[p:], '\n')
		if nl < 0 {
			return
		}
		p += nl + 1
	}
}

// includeAt matches an include line at the start of s; n is the length
// of the match, 0 if there is none.
func includeAt(s []byte) (delim byte, name []byte, n int) {
	blanks := func(i int) int {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		return i
	}
	i := blanks(0)
	if i == len(s) || s[i] != '#' {
		return 0, nil, 0
	}
	i = blanks(i + 1)
	if !bytes.HasPrefix(s[i:], []byte("include")) {
		return 0, nil, 0
	}
	i = blanks(i + len("include"))
	if i == len(s) || s[i] != '<' && s[i] != '"' {
		return 0, nil, 0
	}
	delim, i = s[i], i+1
	j := i
	for j < len(s) && s[j] != '>' && s[j] != '"' {
		j++
	}
	if j == i || j == len(s) {
		return 0, nil, 0
	}
	return delim, s[i:j], j + 1
}

// scanIdents calls fn with every match of [A-Za-z_][A-Za-z0-9_]* in src,
// as a regexp would find them, without one.
func scanIdents(src []byte, fn func([]byte)) {
	start := func(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
	for i := 0; i < len(src); {
		if !start(src[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(src) && (start(src[j]) || '0' <= src[j] && src[j] <= '9') {
			j++
		}
		fn(src[i:j])
		i = j
	}
}

func (v *vmlinuxRoots) get() map[string]bool {
	v.once.Do(func() {
		v.roots = map[string]bool{}
		seen := map[string]bool{}
		var helpers []helperDecl
		var visit func(file string, src []byte)
		visit = func(file string, src []byte) {
			if file == v.path {
				scanIdents(src, func(w []byte) {
					if !v.roots[string(w)] {
						v.roots[string(w)] = true
					}
				})
			} else {
				helpers = append(helpers, scanHeader(src, v.roots)...)
			}
			scanIncludes(src, func(delim byte, name []byte) {
				dirs := v.dirs
				if delim == '"' {
					dirs = append([]string{filepath.Dir(file)}, dirs...)
				}
				if filepath.IsAbs(string(name)) {
					dirs = []string{""} // opened as it is, as cc opens it
				}
				for _, dir := range dirs {
					p := filepath.Join(dir, string(name))
					if seen[p] {
						break
					}
					b, err := v.header, error(nil)
					if p != v.headerPath {
						b, err = v.read(p)
					}
					if err != nil {
						continue
					}
					seen[p] = true
					if !isVmlinux(b) {
						visit(p, b)
					}
					break
				}
			})
		}
		if len(v.pre) > 0 {
			visit("<command line>", v.pre)
		}
		visit(v.path, v.src)
		addHelperRoots(helpers, v.roots)
	})
	return v.roots
}

// PruneVmlinux enables pruneVmlinux; BPFCC_VMLINUX=full turns it off (to
// compare, or to work around a pruning bug).
var PruneVmlinux = os.Getenv("BPFCC_VMLINUX") != "full"
