package frontend

import (
	"fmt"
	"strconv"
	"strings"

	"modernc.org/cc/v4"
)

// Loop pragmas (`#pragma unroll`, `#pragma clang loop unroll(full)`,
// `#pragma nounroll`, `#pragma GCC unroll N`, and the same through
// `_Pragma`, also in a macro's body or with an operand a macro makes, as
// libbpf's __pragma_loop_unroll_full and datadog's
// `_Pragma(STRINGIFY(unroll(N)))`) must reach the loop they stand before.
// cc runs a pragma when its tokenizer reaches it, and bpfcc's fork puts a
// label of Config.PragmaLabel's naming (`__bpfcc_loop_N:`) in the
// pragma's place, so the site is where the parser sees it, after every
// expansion: cc puts the label in the AST around the loop, and lowering
// asks Unit.LoopUnroll what it stands for.

// loopSitePrefix begins the labels that mark loop-pragma sites.
const loopSitePrefix = "__bpfcc_loop_"

// loopSites numbers the loop pragmas of one Parse by their labels.
type loopSites struct {
	sites []string // the pragma's text, by label number
}

// label is the cc.Config.PragmaLabel of a Parse: a label for each loop
// pragma, none for another.
func (ls *loopSites) label(toks []cc.Token) string {
	words := make([]string, len(toks))
	for i, t := range toks {
		words[i] = t.SrcStr()
	}
	p := strings.Join(words, " ")
	if !isLoopPragma(p) {
		return ""
	}
	ls.sites = append(ls.sites, p)
	return fmt.Sprintf("%s%d", loopSitePrefix, len(ls.sites)-1)
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

// LoopUnroll returns what the loop pragma a site label stands for asks:
// -1 no unrolling, 0 full unrolling, n > 0 full unrolling if the loop
// runs at most n times. ok is false when label marks no site.
func (u *Unit) LoopUnroll(label string) (n int, ok bool) {
	id, err := strconv.Atoi(strings.TrimPrefix(label, loopSitePrefix))
	if u.loops == nil || !strings.HasPrefix(label, loopSitePrefix) || err != nil || id < 0 || id >= len(u.loops.sites) {
		return 0, false
	}
	return unrollOf(u.loops.sites[id], u.AST.Macros)
}

// unrollOf reads a loop pragma's text (its tokens, space-separated) as
// LoopUnroll returns it.
func unrollOf(p string, macros map[string]*cc.Macro) (int, bool) {
	f := strings.Fields(p)
	count := func(expr []string) (int, bool) {
		n, ok := evalCount(expr, macros, 0)
		switch {
		case !ok:
			// A count bpfcc cannot evaluate (clang's is any constant
			// expression): the loop is unrolled whole, as most counts
			// are the trip count.
			return 0, true
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
	case len(f) > 1 && f[0] == "unroll":
		return count(f[1:])
	case len(f) == 1 && f[0] == "nounroll":
		return -1, true
	case len(f) == 6 && f[0] == "clang" && f[1] == "loop" && f[2] == "unroll" && f[3] == "(" && f[5] == ")":
		switch f[4] {
		case "full", "enable":
			return 0, true
		case "disable":
			return -1, true
		}
	case len(f) > 5 && f[0] == "clang" && f[1] == "loop" && f[2] == "unroll_count" && f[3] == "(" && f[len(f)-1] == ")":
		return count(f[4 : len(f)-1])
	case len(f) > 2 && f[0] == "GCC" && f[1] == "unroll":
		return count(f[2:])
	}
	return 0, false
}

// evalCount evaluates a pragma's count: integers, object-like macros,
// parentheses, + - * / % << >>, and sizeof of a string literal (datadog's
// `#pragma unroll (sizeof(POSTGRES_PING_BODY))`).
func evalCount(expr []string, macros map[string]*cc.Macro, depth int) (int64, bool) {
	if depth > 8 {
		return 0, false
	}
	// Object-like macros first, then a precedence-climbing parse.
	var toks []string
	for _, t := range expr {
		if m := macros[t]; m != nil && !m.IsFnLike {
			var body []string
			for _, b := range m.ReplacementList() {
				if s := strings.TrimSpace(b.SrcStr()); s != "" {
					body = append(body, s)
				}
			}
			if len(body) == 0 {
				return 0, false
			}
			if n, ok := evalCount(body, macros, depth+1); ok {
				toks = append(toks, strconv.FormatInt(n, 10))
				continue
			}
			toks = append(toks, body...) // a string literal, for sizeof
			continue
		}
		toks = append(toks, t)
	}
	e := countParser{toks: toks}
	n, ok := e.binary(0)
	return n, ok && e.pos == len(toks)
}

type countParser struct {
	toks []string
	pos  int
}

var countPrec = map[string]int{"<<": 1, ">>": 1, "+": 2, "-": 2, "*": 3, "/": 3, "%": 3}

func (e *countParser) binary(min int) (int64, bool) {
	x, ok := e.unary()
	for ok && e.pos < len(e.toks) {
		op := e.toks[e.pos]
		prec, isOp := countPrec[op]
		if !isOp || prec < min {
			break
		}
		e.pos++
		var y int64
		if y, ok = e.binary(prec + 1); !ok {
			break
		}
		switch op {
		case "+":
			x += y
		case "-":
			x -= y
		case "*":
			x *= y
		case "/", "%":
			if y == 0 {
				return 0, false
			}
			if op == "/" {
				x /= y
			} else {
				x %= y
			}
		case "<<":
			x <<= y & 63
		case ">>":
			x >>= y & 63
		}
	}
	return x, ok
}

func (e *countParser) unary() (int64, bool) {
	if e.pos >= len(e.toks) {
		return 0, false
	}
	t := e.toks[e.pos]
	e.pos++
	switch {
	case t == "(":
		x, ok := e.binary(0)
		if !ok || e.pos >= len(e.toks) || e.toks[e.pos] != ")" {
			return 0, false
		}
		e.pos++
		return x, true
	case t == "-":
		x, ok := e.unary()
		return -x, ok
	case t == "sizeof":
		paren := e.pos < len(e.toks) && e.toks[e.pos] == "("
		if paren {
			e.pos++
		}
		if e.pos >= len(e.toks) {
			return 0, false
		}
		s, err := strconv.Unquote(e.toks[e.pos])
		if err != nil || !strings.HasPrefix(e.toks[e.pos], `"`) {
			return 0, false
		}
		e.pos++
		if paren {
			if e.pos >= len(e.toks) || e.toks[e.pos] != ")" {
				return 0, false
			}
			e.pos++
		}
		return int64(len(s)) + 1, true
	}
	n, err := strconv.ParseInt(strings.TrimRight(t, "uUlL"), 0, 64)
	return n, err == nil
}
