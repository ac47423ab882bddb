package frontend

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"modernc.org/cc/v4"
)

// Loop pragmas (`#pragma unroll`, `#pragma clang loop unroll(full)`,
// `#pragma nounroll`, `#pragma GCC unroll N`, and the same through
// `_Pragma` in a macro such as libbpf's __pragma_loop_unroll_full) must
// reach the loop they stand before, but cc passes a pragma to its handler
// without telling where in the token stream it was (a _Pragma's tokens
// have no position at all). So the sources are marked before cc reads
// them: every such site directly before a `for`, `while` or `do` gets a
// label of its own (`__bpfcc_loop_N:`), a statement prefix C allows there.
// Conditional compilation keeps or drops the label with the pragma, cc
// puts it in the AST around the loop, and after parsing the label's site
// is resolved against the macros cc ended with (Unit.LoopUnroll).

// loopSitePrefix begins the labels that mark loop-pragma sites.
const loopSitePrefix = "__bpfcc_loop_"

// loopSites numbers the marked sites of one Parse.
type loopSites struct {
	sites []loopSite
}

// loopSite is one marked site: the pragma's text, or the name of the
// macro whose expansion holds it.
type loopSite struct {
	pragma string
	macro  string
}

func (ls *loopSites) add(s loopSite) string {
	ls.sites = append(ls.sites, s)
	return fmt.Sprintf("%s%d", loopSitePrefix, len(ls.sites)-1)
}

// mayHaveLoopSites is mark's test for a source it may change.
func mayHaveLoopSites(src []byte) bool {
	return bytes.Contains(src, []byte("pragma")) || bytes.Contains(src, []byte("unroll"))
}

// mark labels the loop-pragma sites of src; lines stay where they are.
func (ls *loopSites) mark(src []byte) []byte {
	if ls == nil || !mayHaveLoopSites(src) {
		return src
	}
	type edit struct {
		from, to int // bytes replaced
		text     string
	}
	var edits []edit
	// Directives: a `#pragma` line of a loop pragma becomes the label.
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += off
		}
		line := strings.TrimSpace(string(src[off:end]))
		if rest, ok := strings.CutPrefix(line, "#"); ok {
			rest = strings.TrimSpace(rest)
			if p, ok := strings.CutPrefix(rest, "pragma"); ok && isLoopPragma(p) && !strings.HasSuffix(p, "\\") {
				edits = append(edits, edit{off, end, ls.add(loopSite{pragma: strings.TrimSpace(p)}) + ":"})
			}
		}
		off = end + 1
	}
	// Macros and _Pragma operators right before a loop keyword.
	toks := scanTokens(src)
	for i := 1; i < len(toks); i++ {
		switch toks[i].text {
		case "for", "while", "do":
		default:
			continue
		}
		j := i - 1
		for j >= 0 {
			t := toks[j]
			switch {
			case t.text == ")" && j >= 2 && toks[j-1].text == "(" && toks[j-2].text == "_Pragma":
				lit := string(bytes.TrimSpace(src[toks[j-1].off+1 : t.off]))
				if s, err := strconv.Unquote(lit); err == nil && isLoopPragma(s) {
					edits = append(edits, edit{t.off + 1, t.off + 1, " " + ls.add(loopSite{pragma: s}) + ":"})
				}
				j -= 3
				continue
			case t.ident && !loopPrefixKeywords[t.text] && isLoopMacroName(t.text):
				edits = append(edits, edit{t.off + len(t.text), t.off + len(t.text), " " + ls.add(loopSite{macro: t.text}) + ":"})
				j--
				continue
			}
			break
		}
	}
	if len(edits) == 0 {
		return src
	}
	// Apply from the end so that earlier offsets hold.
	slices.SortFunc(edits, func(a, b edit) int { return b.from - a.from })
	out := bytes.Clone(src)
	for _, e := range edits {
		out = append(out[:e.from], append([]byte(e.text), out[e.to:]...)...)
	}
	return out
}

// isLoopMacroName limits marking to the macros named for what they do
// (__pragma_loop_unroll_full, UNROLL, ...): a label after any other
// identifier before a loop could land where C allows none. What the macro
// means is still read from its expansion.
func isLoopMacroName(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "unroll") || strings.Contains(n, "pragma")
}

// isLoopPragma reports whether the text after `pragma` is a loop pragma.
func isLoopPragma(p string) bool {
	f := pragmaWords(p)
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "unroll", "nounroll":
		return true
	case "clang":
		return len(f) >= 3 && f[1] == "loop" && strings.HasPrefix(f[2], "unroll")
	case "GCC":
		return len(f) >= 2 && f[1] == "unroll"
	}
	return false
}

func pragmaWords(p string) []string {
	return strings.Fields(strings.NewReplacer("(", " ", ")", " ").Replace(p))
}

// loopPrefixKeywords are the C keywords that may stand before a loop keyword.
var loopPrefixKeywords = map[string]bool{"else": true, "do": true, "return": true, "case": true, "default": true}

// LoopUnroll returns what the loop pragma a site label stands for asks:
// -1 no unrolling, 0 full unrolling, n > 0 full unrolling if the loop
// runs at most n times. ok is false when label marks no site or its macro
// is not (or no longer) a loop pragma.
func (u *Unit) LoopUnroll(label string) (n int, ok bool) {
	id, err := strconv.Atoi(strings.TrimPrefix(label, loopSitePrefix))
	if u.loops == nil || !strings.HasPrefix(label, loopSitePrefix) || err != nil || id < 0 || id >= len(u.loops.sites) {
		return 0, false
	}
	s := u.loops.sites[id]
	text := s.pragma
	if s.macro != "" {
		if text, ok = macroPragma(u.AST.Macros, s.macro, 0); !ok {
			return 0, false
		}
	}
	return unrollOf(text, u.AST.Macros)
}

// macroPragma returns the pragma text an object-like macro expands to:
// `_Pragma("...")`, or a call of a function-like macro whose body is
// `_Pragma(#X)`, or another such macro.
func macroPragma(macros map[string]*cc.Macro, name string, depth int) (string, bool) {
	m := macros[name]
	if m == nil || m.IsFnLike || depth > 4 {
		return "", false
	}
	toks := nonBlank(m.ReplacementList())
	if len(toks) == 0 {
		return "", false
	}
	if s, ok := pragmaOperator(toks); ok {
		return s, true
	}
	head := toks[0].SrcStr()
	if len(toks) == 1 {
		return macroPragma(macros, head, depth+1)
	}
	f := macros[head]
	if f == nil || !f.IsFnLike || len(f.Params) != 1 || len(toks) < 3 || toks[1].SrcStr() != "(" || toks[len(toks)-1].SrcStr() != ")" {
		return "", false
	}
	body := nonBlank(f.ReplacementList())
	if len(body) != 5 || body[0].SrcStr() != "_Pragma" || body[2].SrcStr() != "#" || body[3].SrcStr() != f.Params[0].SrcStr() {
		return "", false
	}
	var words []string
	for _, t := range toks[2 : len(toks)-1] {
		words = append(words, t.SrcStr())
	}
	return strings.Join(words, " "), true
}

// pragmaOperator reads `_Pragma ( "text" )`.
func pragmaOperator(toks []cc.Token) (string, bool) {
	if len(toks) != 4 || toks[0].SrcStr() != "_Pragma" || toks[1].SrcStr() != "(" || toks[3].SrcStr() != ")" {
		return "", false
	}
	s, err := strconv.Unquote(toks[2].SrcStr())
	return s, err == nil
}

func nonBlank(toks []cc.Token) []cc.Token {
	var out []cc.Token
	for _, t := range toks {
		if s := t.SrcStr(); strings.TrimSpace(s) != "" {
			out = append(out, t)
		}
	}
	return out
}

// unrollOf reads a loop pragma's text as LoopUnroll returns it; a count
// may be an object-like macro.
func unrollOf(p string, macros map[string]*cc.Macro) (int, bool) {
	f := pragmaWords(p)
	count := func(s string) (int, bool) {
		if m := macros[s]; m != nil && !m.IsFnLike {
			if t := nonBlank(m.ReplacementList()); len(t) == 1 {
				s = t[0].SrcStr()
			}
		}
		n, err := strconv.ParseInt(strings.TrimRight(s, "uUlL"), 0, 64)
		switch {
		case err != nil:
			return 0, false
		case n <= 1:
			return -1, true
		case n > 1<<30:
			return 0, true
		}
		return int(n), true
	}
	switch {
	case len(f) == 1 && f[0] == "unroll":
		return 0, true
	case len(f) == 2 && f[0] == "unroll":
		return count(f[1])
	case len(f) == 1 && f[0] == "nounroll":
		return -1, true
	case len(f) == 4 && f[0] == "clang" && f[1] == "loop" && f[2] == "unroll":
		switch f[3] {
		case "full", "enable":
			return 0, true
		case "disable":
			return -1, true
		}
	case len(f) == 4 && f[0] == "clang" && f[1] == "loop" && f[2] == "unroll_count":
		return count(f[3])
	case len(f) == 3 && f[0] == "GCC" && f[1] == "unroll":
		return count(f[2])
	}
	return 0, false
}
