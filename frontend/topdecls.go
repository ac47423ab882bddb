package frontend

// The preamble cache (preamble.go) keeps the preprocessed tokens of a
// file's headers as top-level declarations, each with the names it
// declares and the names it refers to, so that a compile hands cc only the
// declarations its code can reach. This file splits and classifies them.
// It needs no full C parser: what it cannot classify it keeps.

// ptok is one preprocessed token with its position.
type ptok struct {
	text      string
	ident     bool
	file      string
	line, col int
}

// topDecl is one top-level declaration of the token stream: toks[start:end].
type topDecl struct {
	start, end int
	// names are what it declares: tags, enumerators, declarators.
	names []string
	// refs are the other identifiers in it.
	refs []string
	// keep marks a declaration that must stay whether or not anything
	// refers to it: a definition that is emitted (a global, a non-static
	// function), an assertion, top-level asm, or a shape not understood.
	keep bool
}

// splitTopDecls splits toks into top-level declarations: up to a ';' at
// depth 0, or to the '}' closing a function body.
func splitTopDecls(toks []ptok) [][2]int {
	var spans [][2]int
	depth, start := 0, 0
	fnBody := false
	for i, t := range toks {
		switch t.text {
		case "(", "[":
			depth++
		case ")", "]":
			depth--
		case "{":
			if depth == 0 {
				fnBody = isFunctionBody(toks[start:i])
			}
			depth++
		case "}":
			depth--
			if depth == 0 && fnBody {
				spans = append(spans, [2]int{start, i + 1})
				start, fnBody = i+1, false
			}
		case ";":
			if depth == 0 {
				spans = append(spans, [2]int{start, i + 1})
				start = i + 1
			}
		}
	}
	if start < len(toks) {
		spans = append(spans, [2]int{start, len(toks)})
	}
	return spans
}

// isFunctionBody reports whether a '{' after prefix opens a function body:
// the prefix ends with a parameter list's ')' (attributes and an asm label
// after it aside) and holds no '=' at depth 0.
func isFunctionBody(prefix []ptok) bool {
	depth := 0
	for _, t := range prefix {
		switch t.text {
		case "(", "[":
			depth++
		case ")", "]":
			depth--
		case "=":
			if depth == 0 {
				return false
			}
		}
	}
	end := len(prefix)
	for end > 0 && prefix[end-1].text == ")" {
		open := matchBack(prefix[:end], end-1)
		if open < 1 {
			return false
		}
		switch kw := prefix[open-1].text; {
		case kw == "(" && open >= 2 && isAttributeKeyword(prefix[open-2].text):
			end = open - 2
		case isAsmKeyword(kw):
			end = open - 1
		default:
			return true
		}
	}
	return false
}

// matchBack returns the index of the '(' matching the ')' at toks[i].
func matchBack(toks []ptok, i int) int {
	depth := 0
	for k := i; k >= 0; k-- {
		switch toks[k].text {
		case ")":
			depth++
		case "(":
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// matchFwd returns the index of the bracket closing the one at toks[i].
func matchFwd(toks []ptok, i int) int {
	depth := 0
	for k := i; k < len(toks); k++ {
		switch toks[k].text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return len(toks) - 1
}

func isAttributeKeyword(s string) bool {
	return s == "__attribute__" || s == "__attribute" || s == "__declspec"
}

func isAsmKeyword(s string) bool { return s == "asm" || s == "__asm__" || s == "__asm" }

// qualifierWords are the keywords of declaration specifiers and type
// qualifiers that name no type.
var qualifierWords = map[string]bool{
	"const": true, "volatile": true, "restrict": true, "__restrict": true, "__restrict__": true,
	"__const": true, "__const__": true, "__volatile": true, "__volatile__": true,
	"inline": true, "__inline": true, "__inline__": true, "_Noreturn": true, "__extension__": true,
	"register": true, "auto": true, "_Thread_local": true, "__thread": true,
}

// typeWords are the keywords that name (part of) a type.
var typeWords = map[string]bool{
	"void": true, "char": true, "short": true, "int": true, "long": true, "float": true, "double": true,
	"signed": true, "unsigned": true, "__signed": true, "__signed__": true, "__unsigned": true,
	"_Bool": true, "_Complex": true, "__complex__": true, "__int128": true, "__int128_t": true, "__uint128_t": true,
	"_Float16": true, "_Float32": true, "_Float64": true, "_Float128": true, "__fp16": true, "__bf16": true,
	"__builtin_va_list": true, "__auto_type": true,
}

// classifyDecl fills in d's names, refs and keep from toks[d.start:d.end];
// typedefs holds the typedef names declared before it and gets d's.
func classifyDecl(toks []ptok, d *topDecl, typedefs map[string]bool) {
	t := toks[d.start:d.end]
	declared := map[string]bool{}
	keepAll := func() {
		d.keep, d.names = true, nil
		for _, x := range t {
			if x.ident {
				d.refs = append(d.refs, x.text)
			}
		}
	}
	if len(t) == 0 || t[len(t)-1].text != ";" && t[len(t)-1].text != "}" {
		keepAll()
		return
	}
	switch t[0].text {
	case "_Static_assert", "static_assert", "asm", "__asm__", "__asm", ";":
		keepAll()
		return
	}
	for _, x := range t {
		if x.text == "section" || x.text == "__section__" || x.text == "used" || x.text == "__used__" {
			keepAll() // kept in the object whether referred to or not
			return
		}
	}
	var isTypedef, isStatic, isExtern, sawType bool
	i := 0
specifiers:
	for i < len(t) {
		x := t[i].text
		switch {
		case x == "typedef":
			isTypedef = true
			i++
		case x == "static":
			isStatic = true
			i++
		case x == "extern":
			isExtern = true
			i++
		case qualifierWords[x]:
			i++
		case isAttributeKeyword(x) || x == "_Alignas" || x == "alignas":
			if i+1 >= len(t) || t[i+1].text != "(" {
				break specifiers
			}
			i = matchFwd(t, i+1) + 1
		case x == "typeof" || x == "__typeof__" || x == "__typeof" || x == "typeof_unqual" || x == "_Atomic" && i+1 < len(t) && t[i+1].text == "(":
			if i+1 >= len(t) || t[i+1].text != "(" {
				break specifiers
			}
			sawType = true
			i = matchFwd(t, i+1) + 1
		case x == "_Atomic":
			i++
		case typeWords[x]:
			sawType = true
			i++
		case x == "struct" || x == "union" || x == "enum":
			sawType = true
			i++
			for i+1 < len(t) && isAttributeKeyword(t[i].text) && t[i+1].text == "(" {
				i = matchFwd(t, i+1) + 1
			}
			tag := ""
			if i < len(t) && t[i].ident && !typeWords[t[i].text] && !qualifierWords[t[i].text] {
				tag = t[i].text
				i++
			}
			for i+1 < len(t) && isAttributeKeyword(t[i].text) && t[i+1].text == "(" {
				i = matchFwd(t, i+1) + 1
			}
			switch {
			case i < len(t) && t[i].text == "{":
				j := matchFwd(t, i)
				if tag != "" {
					declared[tag] = true
				}
				if x == "enum" {
					for _, e := range enumerators(t[i+1 : j]) {
						declared[e] = true
					}
				}
				i = j + 1
			case tag != "" && i < len(t) && t[i].text == ";" && i == len(t)-1:
				declared[tag] = true // struct tag;
			}
		case t[i].ident && !sawType && typedefs[x]:
			sawType = true
			i++
		default:
			break specifiers
		}
	}
	if !sawType {
		keepAll()
		return
	}
	// The declarators, up to the end, each up to a ',' at depth 0.
	prunable := true
	hasBody := t[len(t)-1].text == "}"
	for i < len(t) && t[i].text != ";" {
		end := i
		for end < len(t) && t[end].text != "," && t[end].text != ";" && t[end].text != "=" && t[end].text != "{" {
			switch t[end].text {
			case "(", "[":
				end = matchFwd(t, end)
			}
			end++
		}
		name, fn, fnPtr := declaratorName(t[i:end])
		if name == "" {
			keepAll()
			return
		}
		declared[name] = true
		if isTypedef {
			typedefs[name] = true
		}
		hasInit := end < len(t) && t[end].text == "="
		switch {
		case isTypedef:
		case fn && hasBody:
			prunable = prunable && isStatic
		case fn:
			// A prototype.
		case isExtern && !hasInit:
		case isStatic && fnPtr && hasInit && helperInit(t[end+1:]):
			// libbpf's helper declarations, `static T (*[const]
			// NAME)(...) = (void *) N;`: never in the object. (Before
			// libbpf 1.2 the pointer is not const: all 211 of 1.1's
			// stayed in every reduced preamble.)
		default:
			prunable = false
		}
		// Skip the initializer or body to the next declarator.
		for end < len(t) && t[end].text != "," && t[end].text != ";" {
			switch t[end].text {
			case "(", "[", "{":
				end = matchFwd(t, end)
			}
			end++
		}
		if end < len(t) && t[end].text == "," {
			end++
		}
		if hasBody {
			break
		}
		i = end
	}
	d.keep = !prunable
	for _, x := range t {
		if x.ident && !declared[x.text] {
			d.refs = append(d.refs, x.text)
		}
	}
	for n := range declared {
		d.names = append(d.names, n)
	}
}

// helperInit reports whether t, after a declarator's '=', is a helper
// number: `(void *) N` up to the ',' or ';'.
func helperInit(t []ptok) bool {
	want := []string{"(", "void", "*", ")"}
	if len(t) < len(want)+2 {
		return false
	}
	for k, w := range want {
		if t[k].text != w {
			return false
		}
	}
	n := t[len(want)]
	end := t[len(want)+1].text
	return !n.ident && n.text != "" && n.text[0] >= '0' && n.text[0] <= '9' && (end == ";" || end == ",")
}

// enumerators returns the constants an enum body declares.
func enumerators(body []ptok) []string {
	var r []string
	expect := true
	for k := 0; k < len(body); k++ {
		switch body[k].text {
		case "(", "[", "{":
			k = matchFwd(body, k)
		case ",":
			expect = true
		default:
			if expect && body[k].ident {
				r = append(r, body[k].text)
			}
			expect = false
		}
	}
	return r
}

// declaratorName returns the identifier a declarator declares, whether it
// declares a function, and whether it is a function pointer
// (`(*[const] NAME)(...)`). Grouping parentheses are entered; a parameter
// list ends the search.
func declaratorName(t []ptok) (name string, fn, fnPtr bool) {
	for i := 0; i < len(t); i++ {
		x := t[i].text
		switch {
		case x == "*", x == "const", x == "__const":
		case qualifierWords[x] || x == "_Atomic":
		case (isAttributeKeyword(x) || isAsmKeyword(x)) && i+1 < len(t) && t[i+1].text == "(":
			i = matchFwd(t, i+1)
		case x == "(":
			// Grouping when a declarator follows, a parameter list otherwise.
			if i+1 < len(t) && (t[i+1].text == "*" || t[i+1].text == "(" || t[i+1].text == "^" ||
				t[i+1].ident && !typeWords[t[i+1].text] && !qualifierWords[t[i+1].text] && !isAttributeKeyword(t[i+1].text)) {
				continue
			}
			return "", false, false
		case t[i].ident:
			name = x
			// A function when a parameter list follows the name directly.
			k := i + 1
			for k < len(t) && t[k].text == ")" {
				k++
			}
			fn = k == i+1 && k < len(t) && t[k].text == "("
			grouped := k > i+1 && k < len(t) && t[k].text == "("
			return name, fn, grouped
		default:
			return "", false, false
		}
	}
	return "", false, false
}
