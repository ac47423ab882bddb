// Package helperdefs turns the UAPI header linux/bpf.h into bpf_helper_defs.h:
// one function-pointer variable per BPF helper, initialised with the helper's
// id, the way libbpf's headers declare helpers and programs call them:
//
//	static void *(* const bpf_map_lookup_elem)(void *map, const void *key) = (void *) 1;
//
// The prototypes come from the helper documentation comment in linux/bpf.h
// (the list after "Start of BPF helper function descriptions:"), the ids from
// the __BPF_FUNC_MAPPER / ___BPF_FUNC_MAPPER macro, which is the order of enum
// bpf_func_id. Kernel type names in the documentation are mapped to the names
// a BPF program sees (u64 to __u64, struct bpf_map * to void *, struct sk_buff
// to struct __sk_buff, ...) and every struct named is forward-declared.
//
// Only prototypes are emitted, not the documentation text.
package helperdefs

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// ErrFormat is wrapped by every error about input that does not look like
// linux/bpf.h.
var ErrFormat = errors.New("unexpected linux/bpf.h format")

// Arg is one parameter of a helper prototype, with types already mapped.
type Arg struct {
	Type string // "const void *", "__u64", "..." for the variadic tail
	Name string // empty for "void" and "..."
}

// Helper is one BPF helper.
type Helper struct {
	Name string // "bpf_map_lookup_elem"
	ID   int    // BPF_FUNC_map_lookup_elem
	Ret  string // mapped return type, "void *"
	Args []Arg  // nil for (void)
}

// Decl returns the helper's declaration as bpf_helper_defs.h writes it.
func (h Helper) Decl() string {
	var b strings.Builder
	b.WriteString("static ")
	b.WriteString(h.Ret)
	if !strings.HasSuffix(h.Ret, "*") {
		b.WriteByte(' ')
	}
	fmt.Fprintf(&b, "(* const %s)(", h.Name)
	if len(h.Args) == 0 {
		b.WriteString("void")
	}
	for i, a := range h.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(joinDecl(a.Type, a.Name))
	}
	fmt.Fprintf(&b, ") = (void *) %d;", h.ID)
	return b.String()
}

// joinDecl writes a declaration of name with type typ: "const void *" and
// "key" give "const void *key", "__u64" and "flags" give "__u64 flags".
func joinDecl(typ, name string) string {
	switch {
	case name == "":
		return typ
	case strings.HasSuffix(typ, "*"):
		return typ + name
	default:
		return typ + " " + name
	}
}

// Header is what Parse finds in linux/bpf.h.
type Header struct {
	// Helpers are the documented helpers in id order.
	Helpers []Helper
	// Structs are the struct tags the prototypes use, sorted.
	Structs []string
	// Sum is the SHA-256 of the input, recorded in the generated file.
	Sum [sha256.Size]byte
}

// mappedTypes maps kernel type names in the helper documentation to the
// names BPF programs use, as libbpf's generator (scripts/bpf_doc.py) does.
var mappedTypes = map[string]string{
	"u8":                   "__u8",
	"u16":                  "__u16",
	"u32":                  "__u32",
	"u64":                  "__u64",
	"s8":                   "__s8",
	"s16":                  "__s16",
	"s32":                  "__s32",
	"s64":                  "__s64",
	"size_t":               "unsigned long",
	"struct bpf_map":       "void",
	"struct sk_buff":       "struct __sk_buff",
	"struct sk_msg_buff":   "struct sk_msg_md",
	"struct xdp_buff":      "struct xdp_md",
	"const struct sk_buff": "const struct __sk_buff",
}

// knownScalars are the non-struct base types a prototype may use after
// mapping. Anything else is an error, so that a new kernel type is noticed
// and given a mapping instead of producing a header that does not compile.
var knownScalars = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range strings.Fields(`void char int long unsigned+int unsigned+long
		unsigned+long+long long+long __u8 __u16 __u32 __u64 __s8 __s16 __s32 __s64
		__be16 __be32 __be64 __le16 __le32 __le64 __wsum __sum16`) {
		m[strings.ReplaceAll(t, "+", " ")] = true
	}
	return m
}()

var (
	protoRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.*?)\b(bpf_[A-Za-z0-9_]+)\s*\((.*)\)$`) })
	structRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bstruct\s+([A-Za-z_][A-Za-z0-9_]*)`) })
	mapperRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^#define\s+_{2,3}BPF_FUNC_MAPPER\s*\(`) })
	fnEntryRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bFN\(\s*([A-Za-z0-9_]+)\s*(?:,\s*([0-9]+))?`) })
	identRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })
)

const docStart = "Start of BPF helper function descriptions:"

// Parse reads linux/bpf.h.
func Parse(src []byte) (*Header, error) {
	ids, err := parseIDs(src)
	if err != nil {
		return nil, err
	}
	protos, err := parseProtos(src)
	if err != nil {
		return nil, err
	}
	h := &Header{Sum: sha256.Sum256(src)}
	structs := map[string]bool{}
	for _, name := range protos.order {
		id, ok := ids[strings.TrimPrefix(name, "bpf_")]
		if !ok {
			return nil, fmt.Errorf("%w: helper %s is documented but not in __BPF_FUNC_MAPPER", ErrFormat, name)
		}
		helper, err := merge(name, id, protos.byName[name])
		if err != nil {
			return nil, err
		}
		for _, p := range protos.byName[name] {
			for _, t := range append([]string{p.Ret}, argTypes(p.Args)...) {
				for _, m := range structRE().FindAllStringSubmatch(t, -1) {
					structs[m[1]] = true
				}
			}
		}
		h.Helpers = append(h.Helpers, helper)
	}
	sort.Slice(h.Helpers, func(i, j int) bool { return h.Helpers[i].ID < h.Helpers[j].ID })
	for i := 1; i < len(h.Helpers); i++ {
		if h.Helpers[i].ID == h.Helpers[i-1].ID {
			return nil, fmt.Errorf("%w: helpers %s and %s share id %d", ErrFormat,
				h.Helpers[i-1].Name, h.Helpers[i].Name, h.Helpers[i].ID)
		}
	}
	for s := range structs {
		h.Structs = append(h.Structs, s)
	}
	sort.Strings(h.Structs)
	return h, nil
}

func argTypes(args []Arg) []string {
	r := make([]string, len(args))
	for i, a := range args {
		r[i] = a.Type
	}
	return r
}

// parseIDs reads the helper ids from the FUNC_MAPPER macro: FN(name, id, ...)
// entries in kernels since 6.1, FN(name) entries numbered by position before.
func parseIDs(src []byte) (map[string]int, error) {
	for _, loc := range mapperRE().FindAllIndex(src, -1) {
		body := macroBody(src[loc[0]:])
		entries := fnEntryRE().FindAllSubmatch(body, -1)
		if len(entries) == 0 || string(entries[0][1]) != "unspec" {
			continue // e.g. __BPF_FUNC_MAPPER(FN) ___BPF_FUNC_MAPPER(...)
		}
		ids := make(map[string]int, len(entries))
		for i, e := range entries {
			id := i
			if len(e[2]) > 0 {
				n, err := strconv.Atoi(string(e[2]))
				if err != nil {
					return nil, fmt.Errorf("%w: helper id %q: %v", ErrFormat, e[2], err)
				}
				id = n
			}
			name := string(e[1])
			if _, dup := ids[name]; dup {
				return nil, fmt.Errorf("%w: helper %s listed twice in __BPF_FUNC_MAPPER", ErrFormat, name)
			}
			ids[name] = id
		}
		return ids, nil
	}
	return nil, fmt.Errorf("%w: no __BPF_FUNC_MAPPER macro with FN(unspec...) entries", ErrFormat)
}

// macroBody returns the #define starting at src up to its last continuation
// line.
func macroBody(src []byte) []byte {
	end := 0
	for {
		nl := bytes.IndexByte(src[end:], '\n')
		if nl < 0 {
			return src
		}
		line := bytes.TrimRight(src[end:end+nl], " \t\r")
		end += nl + 1
		if !bytes.HasSuffix(line, []byte(`\`)) {
			return src[:end]
		}
	}
}

// proto is one documented prototype, types mapped.
type proto struct {
	Ret  string
	Args []Arg
}

type protoSet struct {
	order  []string           // first-seen order of helper names
	byName map[string][]proto // all prototypes of each helper
}

// parseProtos reads the prototypes from the helper documentation comment: a
// prototype is a comment line of the form "type bpf_name(args)" followed by
// a line reading "Description".
func parseProtos(src []byte) (*protoSet, error) {
	start := bytes.Index(src, []byte(docStart))
	if start < 0 {
		return nil, fmt.Errorf("%w: no %q comment", ErrFormat, docStart)
	}
	rest := src[start:]
	if end := bytes.Index(rest, []byte("*/")); end >= 0 {
		rest = rest[:end]
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(rest))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, commentText(sc.Text()))
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	set := &protoSet{byName: map[string][]proto{}}
	for i := 0; i+1 < len(lines); i++ {
		if lines[i+1] != "Description" {
			continue
		}
		m := protoRE().FindStringSubmatch(lines[i])
		if m == nil {
			return nil, fmt.Errorf("%w: cannot parse helper prototype %q", ErrFormat, lines[i])
		}
		p, err := parseProto(m[1], m[3])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m[2], err)
		}
		name := m[2]
		if _, seen := set.byName[name]; !seen {
			set.order = append(set.order, name)
		}
		set.byName[name] = append(set.byName[name], p)
	}
	if len(set.order) == 0 {
		return nil, fmt.Errorf("%w: no helper prototypes found", ErrFormat)
	}
	return set, nil
}

// commentText strips the " * " decoration of a comment line and surrounding
// blanks.
func commentText(line string) string {
	s := strings.TrimSpace(line)
	s = strings.TrimPrefix(s, "*")
	return strings.TrimSpace(s)
}

func parseProto(ret, args string) (proto, error) {
	var p proto
	r, err := mapType(ret)
	if err != nil {
		return p, err
	}
	p.Ret = r
	args = strings.TrimSpace(args)
	if args == "void" || args == "" {
		return p, nil
	}
	for _, a := range strings.Split(args, ",") {
		arg, err := parseArg(a)
		if err != nil {
			return p, err
		}
		p.Args = append(p.Args, arg)
	}
	return p, nil
}

// parseArg splits "const void *key" into the mapped type "const void *" and
// the name "key".
func parseArg(s string) (Arg, error) {
	s = strings.Join(strings.Fields(s), " ")
	if s == "..." {
		return Arg{Type: "..."}, nil
	}
	cut := strings.LastIndexAny(s, " *")
	if cut < 0 || !identRE().MatchString(s[cut+1:]) {
		return Arg{}, fmt.Errorf("%w: parameter %q has no name", ErrFormat, s)
	}
	t, err := mapType(s[:cut+1])
	if err != nil {
		return Arg{}, err
	}
	return Arg{Type: t, Name: s[cut+1:]}, nil
}

// mapType maps a kernel type ("struct bpf_map *", "u32") to the one programs
// use ("void *", "__u32"). Pointer types end in '*' with a blank before the
// first '*'.
func mapType(s string) (string, error) {
	s = strings.TrimSpace(s)
	stars := strings.Count(s, "*")
	base := strings.TrimSpace(strings.ReplaceAll(s, "*", ""))
	base = strings.Join(strings.Fields(base), " ")
	if base == "" {
		return "", fmt.Errorf("%w: empty type in %q", ErrFormat, s)
	}
	if m, ok := mappedTypes[base]; ok {
		base = m
	} else if c, ok := strings.CutPrefix(base, "const "); ok {
		if m, ok := mappedTypes[c]; ok {
			base = "const " + m
		}
	}
	core := strings.TrimPrefix(base, "const ")
	if !knownScalars[core] && !structRE().MatchString(core) {
		return "", fmt.Errorf("%w: unknown type %q: add it to helperdefs' type tables", ErrFormat, s)
	}
	if stars == 0 {
		return base, nil
	}
	return base + " " + strings.Repeat("*", stars), nil
}

// merge folds the prototypes documented for one helper into one. Most have
// one; overloaded helpers (bpf_get_socket_cookie, bpf_sk_assign) have one per
// context type: a parameter whose type differs between them becomes void *,
// named ctx when it is the first, as libbpf declares them.
func merge(name string, id int, ps []proto) (Helper, error) {
	h := Helper{Name: name, ID: id, Ret: ps[0].Ret, Args: append([]Arg(nil), ps[0].Args...)}
	for _, p := range ps[1:] {
		if p.Ret != h.Ret || len(p.Args) != len(h.Args) {
			return h, fmt.Errorf("%w: overloads of %s differ in return type or arity", ErrFormat, name)
		}
		for i, a := range p.Args {
			if a.Type == h.Args[i].Type {
				continue
			}
			if !strings.HasSuffix(a.Type, "*") || !strings.HasSuffix(h.Args[i].Type, "*") {
				return h, fmt.Errorf("%w: overloads of %s differ in non-pointer parameter %d", ErrFormat, name, i+1)
			}
			h.Args[i].Type = "void *"
			if i == 0 {
				h.Args[i].Name = "ctx"
			}
		}
	}
	return h, nil
}

// Generate renders bpf_helper_defs.h for h.
func Generate(h *Header) []byte {
	var b bytes.Buffer
	b.WriteString("/* Code generated by include/internal/gen from <linux/bpf.h>; DO NOT EDIT. */\n")
	fmt.Fprintf(&b, "/* Input sha256: %x */\n", h.Sum)
	b.WriteString(`
/*
 * BPF helper functions, declared as libbpf declares them: each helper is a
 * constant function pointer whose value is the helper's id, so a call
 * through it compiles to "call <id>". Include <linux/types.h> (or vmlinux.h)
 * before this header, for __u32, __u64, __be16, __wsum and friends.
 * The documentation of each helper is in <linux/bpf.h>.
 */
#ifndef __BPFCC_BPF_HELPER_DEFS_H
#define __BPFCC_BPF_HELPER_DEFS_H

`)
	for _, s := range h.Structs {
		fmt.Fprintf(&b, "struct %s;\n", s)
	}
	b.WriteString("\n")
	for _, hp := range h.Helpers {
		b.WriteString(hp.Decl())
		b.WriteString("\n")
	}
	b.WriteString("\n#endif /* __BPFCC_BPF_HELPER_DEFS_H */\n")
	return b.Bytes()
}

// InputSum returns the input checksum recorded in a generated header, or
// false if there is none.
func InputSum(generated []byte) (string, bool) {
	const tag = "/* Input sha256: "
	i := bytes.Index(generated, []byte(tag))
	if i < 0 {
		return "", false
	}
	rest := generated[i+len(tag):]
	j := bytes.Index(rest, []byte(" */"))
	if j < 0 {
		return "", false
	}
	return string(rest[:j]), true
}
