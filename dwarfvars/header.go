package dwarfvars

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

var (
	identRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`) })
	definedRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:struct|union|enum)\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{`)
	})
)

// TargetHeader returns the text of <bpfcc/target.h> for a program src
// tracing the binary at path: the read macros of <bpfcc/read.h> and the
// declarations of the binary's types the program can reach. Every
// identifier of src (comments too: conservative) that names a struct,
// union, enum or typedef of the binary is a root; a struct reached
// through a pointer member is defined when src mentions the member (as in
// BPFCC_READ(L, l_G, mainthread)), declared otherwise, as bpfcc prunes
// vmlinux.h. Tags src defines itself are left to it: the binary's
// are renamed NAME___target.
func TargetHeader(path string, src []byte) (string, error) {
	b, err := Open(path)
	if err != nil {
		return "", err
	}
	defer b.Close()
	mentioned := map[string]bool{}
	var roots []string
	for _, id := range identRE().FindAll(src, -1) {
		if s := string(id); !mentioned[s] {
			mentioned[s] = true
			roots = append(roots, s)
		}
	}
	reserved := map[string]bool{}
	for _, m := range definedRE().FindAllSubmatch(src, -1) {
		reserved[string(m[1])] = true
	}
	types, err := b.CTypes(CTypesOptions{Roots: roots, Mentioned: mentioned, Reserved: reserved, ReservedTypedefs: typedefsIn(src)})
	if err != nil {
		return "", err
	}
	return HeaderText(path, types), nil
}

// typedefsIn returns the names src declares with typedef (conservatively:
// the declarator's name at the end of each typedef declaration, or the
// name in "(*name)" for a function pointer).
func typedefsIn(src []byte) map[string]bool {
	names := map[string]bool{}
	for _, loc := range typedefRE().FindAllIndex(src, -1) {
		depth, end := 0, -1
	scan:
		for i := loc[1]; i < len(src); i++ {
			switch src[i] {
			case '{', '(', '[':
				depth++
			case '}', ')', ']':
				depth--
			case ';':
				if depth <= 0 {
					end = i
					break scan
				}
			}
		}
		if end < 0 {
			continue
		}
		decl := src[loc[1]:end]
		if m := fnPtrRE().FindSubmatch(decl); m != nil {
			names[string(m[1])] = true
			continue
		}
		for _, d := range strings.Split(string(topLevel(decl)), ",") {
			if ids := identRE().FindAllString(d, -1); len(ids) > 0 {
				names[ids[len(ids)-1]] = true
			}
		}
	}
	return names
}

var (
	typedefRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\btypedef\b`) })
	fnPtrRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\(\s*\*\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)`) })
)

// topLevel blanks what is inside braces and brackets, leaving the
// declarators of a typedef.
func topLevel(decl []byte) []byte {
	out := make([]byte, 0, len(decl))
	depth := 0
	for _, c := range decl {
		switch c {
		case '{', '[':
			depth++
			continue
		case '}', ']':
			depth--
			continue
		}
		if depth == 0 {
			out = append(out, c)
		}
	}
	return out
}

// HeaderText wraps declarations from CTypes as <bpfcc/target.h>.
func HeaderText(path, types string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "/* <bpfcc/target.h>: the types of %s, from its DWARF (bpfcc --types -x %s TYPE... prints them) */\n", path, path)
	sb.WriteString("#ifndef __BPFCC_TARGET_H__\n#define __BPFCC_TARGET_H__\n#include <bpfcc/read.h>\n\n")
	sb.WriteString(types)
	sb.WriteString("\n#endif /* __BPFCC_TARGET_H__ */\n")
	return sb.String()
}
