package frontend

import (
	"bytes"
	"strings"
)

// GNU local labels (__label__ l;) declared in a statement expression of a
// macro, as bpf_experimental.h's can_loop, cond_break and bpf_cmp_likely
// use them with asm goto, are local to each expansion; cc declares every
// label in the function's scope and refuses a second l. rewriteLocalLabels
// gives each expansion its own names: the macro becomes a call of a second
// one with __COUNTER__ as an extra first argument, which the labels paste
// to their names (l ## _bpfcc_ ## id). lower reads %l[l] in asm text
// as the label without the suffix. The rewrite keeps every token on its
// line: the new #define takes the place of the first line continuation of
// the body. A definition without one is left as it is.

// localLabelHelpers are the helpers the rewritten macros call (predefined):
// the argument __COUNTER__ expands before the callee pastes it.
const localLabelHelpers = "#define __bpfcc_lblcall(m, id, ...) m(id, __VA_ARGS__)\n" +
	"#define __bpfcc_lblcall0(m, id) m(id)\n"

// rewriteLocalLabels rewrites the macros of src that declare local labels.
func rewriteLocalLabels(src []byte) []byte {
	if !bytes.Contains(src, []byte("__label__")) {
		return src
	}
	var out []byte // nil until the first rewrite
	done := 0
	for line := 0; line < len(src); {
		d, ok := scanAnyDefine(src, line)
		if !ok {
			line = nextLine(src, line)
			continue
		}
		line = nextLine(src, d.end)
		body := src[d.head:d.end]
		labels := localLabels(body)
		cont := bytes.Index(body, []byte("\\\n"))
		if len(labels) == 0 || cont < 0 || strings.HasPrefix(d.name, "__bpfcc_lbl_") {
			continue
		}
		out = append(out, src[done:d.head]...)
		callee := "__bpfcc_lbl_" + d.name
		params := ""
		if d.params != nil {
			params = strings.TrimSpace(string(d.params))
		}
		if params == "" {
			out = append(out, " __bpfcc_lblcall0("+callee+", __COUNTER__)\n#define "+callee+"(__bpfcc_id)"...)
		} else {
			args := strings.Replace(params, "...", "__VA_ARGS__", 1)
			out = append(out, " __bpfcc_lblcall("+callee+", __COUNTER__, "+args+")\n#define "+callee+"(__bpfcc_id, "+params+")"...)
		}
		out = appendLabelsRenamed(out, body[:cont], labels)
		out = append(out, ' ')
		out = appendLabelsRenamed(out, body[cont+2:], labels)
		done = d.end
	}
	if out == nil {
		return src
	}
	return append(out, src[done:]...)
}

// define is one #define: its name, parameter list (nil for an object-like
// macro), where its body starts and where its last line ends.
type define struct {
	name      string
	params    []byte
	head, end int
}

// scanAnyDefine matches an object-like or function-like #define at line.
func scanAnyDefine(src []byte, line int) (define, bool) {
	i := skipBlanks(src, line)
	if i >= len(src) || src[i] != '#' {
		return define{}, false
	}
	i = skipBlanks(src, i+1)
	if !bytes.HasPrefix(src[i:], []byte("define")) {
		return define{}, false
	}
	i += len("define")
	j := skipBlanks(src, i)
	if j == i {
		return define{}, false
	}
	k := j
	for k < len(src) && isWord(src[k]) {
		k++
	}
	if k == j {
		return define{}, false
	}
	d := define{name: string(src[j:k]), head: k}
	if k < len(src) && src[k] == '(' {
		c := bytes.IndexByte(src[k:], ')')
		if c < 0 {
			return define{}, false
		}
		d.params, d.head = src[k+1:k+c], k+c+1
	}
	end := d.head
	for {
		nl := bytes.IndexByte(src[end:], '\n')
		if nl < 0 {
			d.end = len(src)
			return d, true
		}
		nl += end
		if nl == end || src[nl-1] != '\\' {
			d.end = nl
			return d, true
		}
		end = nl + 1
	}
}

// localLabels lists the labels the __label__ declarations of body declare.
func localLabels(body []byte) map[string]bool {
	labels := map[string]bool{}
	for i := 0; ; {
		j := bytes.Index(body[i:], []byte("__label__"))
		if j < 0 {
			return labels
		}
		i += j + len("__label__")
		semi := bytes.IndexByte(body[i:], ';')
		if semi < 0 {
			return labels
		}
		for _, f := range strings.Split(string(body[i:i+semi]), ",") {
			if name := strings.Trim(f, " \t\\\n\r"); name != "" {
				labels[name] = true
			}
		}
		i += semi
	}
}

// appendLabelsRenamed appends s with every label of labels, outside
// string and character literals, pasted to the expansion's number.
func appendLabelsRenamed(out, s []byte, labels map[string]bool) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(s) && s[j] != c && s[j] != '\n' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(s))
			out = append(out, s[i:j]...)
			i = j
		case isWord(c):
			j := i
			for j < len(s) && isWord(s[j]) {
				j++
			}
			out = append(out, s[i:j]...)
			if labels[string(s[i:j])] && (c < '0' || c > '9') {
				out = append(out, " ## _bpfcc_ ## __bpfcc_id"...)
			}
			i = j
		default:
			out = append(out, c)
			i++
		}
	}
	return out
}
