package frontend

import "bytes"

// The roots of vmlinux.h's pruning come from the program and every header
// it includes. libbpf's bpf_helper_defs.h declares some two hundred helpers
// with their documentation, which name most of the kernel's records: taken
// whole it triples what a program keeps of vmlinux.h. So in headers,
// comments, forward declarations (`struct tcp_sock;`) and parameter names
// do not count, and a helper declaration
// (`static T (*[const] NAME)(PARAMS) = ...;`) contributes the records its
// parameters point to only when NAME is a root itself, as a call or a
// macro that calls it makes it. A root missed this way costs a compile with the whole header
// (Parse's fallback), never a different object: a helper's prototype
// appears in no object, and a record it names only through a pointer
// stays declared.

// helperDecl is a deferred helper declaration.
type helperDecl struct {
	name   string
	idents []string
}

// scanHeader adds the identifiers of header src to roots, except those of
// helper declarations, which it returns.
func scanHeader(src []byte, roots map[string]bool) []helperDecl {
	spans := helperSpans(src)
	var helpers []helperDecl
	add := func(w []byte) {
		if !roots[string(w)] {
			roots[string(w)] = true
		}
	}
	for _, s := range spans {
		// Only the records a parameter points to wait for the helper's
		// use: its prototype needs every other name (a typedef such as
		// __wsum) declared even when nothing calls it.
		h := helperDecl{name: s.name}
		t := scanTokens(src[s.start:s.end])
		for k, x := range t {
			switch {
			case !x.ident || x.text == s.name:
			case k > 0 && k+1 < len(t) && (t[k+1].text == "," || t[k+1].text == ")") && (t[k-1].text == "*" || t[k-1].ident):
				// A parameter's name (`struct bpf_xfrm_state
				// *xfrm_state,`) refers to nothing, but as a root it
				// named the kernel's struct xfrm_state and its closure.
			case k > 0 && k+1 < len(t) && (t[k-1].text == "struct" || t[k-1].text == "union") && t[k+1].text == "*":
				h.idents = append(h.idents, x.text)
			default:
				add([]byte(x.text))
			}
		}
		helpers = append(helpers, h)
	}
	src = blankForwardDecls(src)
	prev := 0
	for _, s := range spans {
		scanCodeIdents(src[prev:s.start], add)
		prev = s.end
	}
	scanCodeIdents(src[prev:], add)
	return helpers
}

// blankForwardDecls blanks the tag of each `struct X;` or `union X;`:
// such a declaration needs no definition, and bpf_helper_defs.h opens
// with one for every record a helper names (struct tcp_sock, struct inode,
// ...), which as roots kept those records and their closures whole.
func blankForwardDecls(src []byte) []byte {
	t := scanTokens(src)
	out, cloned := src, false
	for k := 0; k+2 < len(t); k++ {
		if (t[k].text == "struct" || t[k].text == "union") && t[k+1].ident && t[k+2].text == ";" {
			if !cloned {
				out, cloned = bytes.Clone(src), true // src is the caller's
			}
			for i := t[k+1].off; i < t[k+1].off+len(t[k+1].text); i++ {
				out[i] = ' '
			}
		}
	}
	return out
}

// addHelperRoots adds the identifiers of the helpers whose name is a root,
// until no more are.
func addHelperRoots(helpers []helperDecl, roots map[string]bool) {
	done := make([]bool, len(helpers))
	for changed := true; changed; {
		changed = false
		for i, h := range helpers {
			if done[i] || !roots[h.name] {
				continue
			}
			done[i], changed = true, true
			for _, w := range h.idents {
				roots[w] = true
			}
		}
	}
}

type helperSpan struct {
	start, end int
	name       string
}

// helperSpans finds the helper declarations of src.
func helperSpans(src []byte) []helperSpan {
	if !bytes.Contains(src, []byte("static")) {
		return nil
	}
	toks := scanTokens(src)
	var spans []helperSpan
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
		t := toks[i : j+1]
		i = j + 1
		if name := helperName(t); name != "" {
			start, end := t[0].off, t[len(t)-1].off+1
			// A directive inside would be skipped by scanTokens but
			// scanned by scanCodeIdents: keep such a declaration whole.
			if !bytes.Contains(src[start:end], []byte("#")) {
				spans = append(spans, helperSpan{start, end, name})
			}
		}
	}
	return spans
}

// helperName is NAME of `static T (*[const] NAME)(...) = ...;`, or "".
func helperName(t []ctoken) string {
	if len(t) < 8 || t[0].text != "static" {
		return ""
	}
	for k := 1; k+4 < len(t); k++ {
		if t[k].text != "(" || t[k+1].text != "*" {
			continue
		}
		n := k + 2
		if t[n].text == "const" {
			n++
		}
		if n+2 >= len(t) || !t[n].ident || t[n+1].text != ")" || t[n+2].text != "(" {
			return ""
		}
		for _, x := range t[n+2:] {
			if x.text == "=" {
				return t[n].text
			}
		}
		return ""
	}
	return ""
}

// scanCodeIdents is scanIdents outside comments; string and character
// literals (to the end of their line at most) are skipped as a whole so
// that a "//" inside one does not start a comment.
func scanCodeIdents(src []byte, fn func([]byte)) {
	start := 0
	flush := func(end int) {
		if end > start {
			scanIdents(src[start:end], fn)
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			flush(i)
			for i < len(src) && src[i] != '\n' {
				i++
			}
			start = i
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			flush(i)
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				return
			}
			i += 2 + end + 2
			start = i
		case c == '"' || c == '\'':
			// The literal's text goes to scanIdents too (conservative: a
			// prefix such as u8 or L, or a name in #include "x.h").
			i++
			for i < len(src) && src[i] != c && src[i] != '\n' {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			i++
		default:
			i++
		}
	}
	flush(len(src))
}
