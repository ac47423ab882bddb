package frontend

import (
	"bytes"
	"strings"

	"modernc.org/cc/v4"
)

// GCC and clang accept attributes after a function definition's declarator
// (`int f(int x __tag) __tag {`, test_btf_decl_tag.c), where cc's parser
// wants the declaration's `;`. The attributes mean the same in front of
// the declarator, which cc does accept (`int __tag f(int x __tag) {`), so
// when cc refuses a file with that error, Parse translates it again with
// every such run of attributes moved there (moveFunctionAttributes). The
// rewrite works on the source before preprocessing, so the attributes are
// usually macros (__tag); a run between `)` and `{` at file scope can be
// nothing else in C (a K&R definition's parameter declarations end in ';'
// and begin with a type, a keyword or a typedef name followed by a name).

// fnAttrsError is cc's error at the `{` of such a definition.
const fnAttrsError = "unexpected '{', expected ';'"

// cKeywordSet holds C's keywords and GNU's spellings of them: a keyword is
// never an attribute macro, nor a function's name.
var cKeywordSet = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range strings.Fields(`auto break case char const continue default do double else enum
		extern float for goto if inline int long register restrict return short signed sizeof static
		struct switch typedef union unsigned void volatile while _Alignas _Alignof _Atomic _Bool
		_Complex _Generic _Imaginary _Noreturn _Static_assert _Thread_local typeof __typeof__
		__typeof asm __asm__ __asm __inline__ __inline __const__ __const __volatile__ __volatile
		__restrict__ __restrict __signed__ __signed __extension__ __int128 __label__`) {
		m[k] = true
	}
	return m
}()

// pointerQualifiers may stand between a declarator's `*` and its name.
var pointerQualifiers = map[string]bool{"const": true, "volatile": true, "restrict": true,
	"__restrict": true, "__restrict__": true, "__const": true, "__volatile__": true, "_Atomic": true}

// moveFunctionAttributes moves each run of attributes between a function
// definition's parameter list and its body to before the declarator's
// pointers and name. Lines keep their numbers: the run's newlines stay
// where it was. A run holding a comment is left alone.
func moveFunctionAttributes(src []byte) []byte {
	toks := scanTokens(src)
	type move struct {
		at, from, to int // insert at; take src[from:to]
	}
	var moves []move
	braces, parens := 0, 0
	var open []int // token indexes of the open parentheses
	for i := 0; i < len(toks); i++ {
		switch toks[i].text {
		case "{":
			braces++
		case "}":
			braces = max(braces-1, 0)
		case "(":
			parens++
			open = append(open, i)
		case ")":
			if parens == 0 {
				continue
			}
			parens--
			lp := open[len(open)-1]
			open = open[:len(open)-1]
			if braces != 0 || parens != 0 {
				continue
			}
			end, ok := attributeRun(toks, i+1)
			if !ok {
				continue
			}
			at, ok := declaratorStart(toks, lp)
			if !ok {
				continue
			}
			from, to := toks[i].off+1, toks[end].off
			if run := src[from:to]; bytes.Contains(run, []byte("//")) || bytes.Contains(run, []byte("/*")) {
				continue
			}
			moves = append(moves, move{at, from, to})
			// The run's own parentheses are no parameter list.
			i = end - 1
			parens, open = 0, open[:0]
		}
	}
	if len(moves) == 0 {
		return src
	}
	out := make([]byte, 0, len(src)+64)
	done := 0
	for _, m := range moves {
		run := src[m.from:m.to]
		out = append(out, src[done:m.at]...)
		out = append(out, bytes.TrimSpace(bytes.ReplaceAll(run, []byte("\n"), []byte(" ")))...)
		out = append(out, ' ')
		out = append(out, src[m.at:m.from]...)
		// The run's newlines stay, so that the lines after it keep their
		// numbers.
		out = append(out, bytes.Repeat([]byte("\n"), bytes.Count(run, []byte("\n")))...)
		out = append(out, ' ')
		done = m.to
	}
	return append(out, src[done:]...)
}

// attributeRun matches a run of attributes at toks[i:] followed by `{`:
// identifiers that are not keywords, each optionally with a parenthesized
// argument list (`__attribute__((...))`, `__tag`, `TAG("x")`). It returns
// the index of the `{`.
func attributeRun(toks []ctoken, i int) (int, bool) {
	n := 0
	for i < len(toks) && toks[i].ident && !cKeywordSet[toks[i].text] {
		i++
		n++
		if i < len(toks) && toks[i].text == "(" {
			depth := 0
			for ; i < len(toks); i++ {
				if toks[i].text == "(" {
					depth++
				} else if toks[i].text == ")" {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			i++
		}
	}
	return i, n > 0 && i < len(toks) && toks[i].text == "{"
}

// declaratorStart returns the byte offset where the declarator whose
// parameter list opens at toks[lp] begins: its name's, or its first
// pointer's. A parenthesized declarator (a function returning a function
// pointer) and a name that is a keyword (not a definition) do not match.
func declaratorStart(toks []ctoken, lp int) (int, bool) {
	name := lp - 1
	if name < 0 || !toks[name].ident || cKeywordSet[toks[name].text] {
		return 0, false
	}
	// Qualifiers before the first `*` belong to the specifiers.
	start := name
	for j := name; j > 0 && (toks[j-1].text == "*" || toks[j-1].ident && pointerQualifiers[toks[j-1].text]); j-- {
		if toks[j-1].text == "*" {
			start = j - 1
		}
	}
	return toks[start].off, true
}

// translateMovedAttrs translates sources again with the attributes after
// function declarators moved, in the main file and every header; ok is
// false when cc still refuses the file.
func translateMovedAttrs(cfg *cc.Config, sources []cc.Source, path string) (*cc.AST, bool) {
	last := len(sources) - 1 // the main file comes after the predefined sources
	text, ok := sources[last].Value.([]byte)
	if !ok {
		return nil, false
	}
	sources = append(sources[:last:last], cc.Source{Name: path, Value: moveFunctionAttributes(text)})
	sfs := cfg.FS.(sourceFS)
	sfs.moveAttrs = true
	c := *cfg
	c.FS = sfs
	ast, err := translate(&c, sources)
	return ast, err == nil
}
