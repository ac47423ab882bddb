package frontend

import "bytes"

// dropEmptyAttributes blanks the commas of empty entries in
// __attribute__((...)) lists, as in libbpf's bpf_for_each
// (`aligned(8), /* comment */, cleanup(...)`): GCC and clang skip an empty
// attribute, cc expects an identifier after every comma. It works on the
// raw text, macro definitions included, so that every expansion of such a
// macro parses; a comma becomes a blank, so positions stay.
func dropEmptyAttributes(src []byte) []byte {
	if !bytes.Contains(src, []byte("__attribute")) {
		return src
	}
	var out []byte
	for i := 0; i < len(src); {
		j := skipNonCode(src, i)
		if j != i {
			i = j
			continue
		}
		if !isIdentStart(src[i]) {
			i++
			continue
		}
		start := i
		for i < len(src) && isWord(src[i]) {
			i++
		}
		word := src[start:i]
		if !bytes.Equal(word, []byte("__attribute__")) && !bytes.Equal(word, []byte("__attribute")) {
			continue
		}
		for _, c := range emptyAttributeCommas(src, i) {
			if out == nil {
				out = bytes.Clone(src)
			}
			out[c] = ' '
		}
	}
	if out == nil {
		return src
	}
	return out
}

// emptyAttributeCommas returns the offsets of the commas that end empty
// entries in the attribute list whose "((" follows offset i.
func emptyAttributeCommas(src []byte, i int) []int {
	var commas []int
	opens := 0
	for opens < 2 {
		i = skipBlank(src, i)
		if i >= len(src) || src[i] != '(' {
			return nil
		}
		opens++
		i++
	}
	depth := 2
	// sep: the list so far ends in "((" or ",", so a comma or the closing
	// parenthesis now ends an empty entry.
	sep, lastComma := true, -1
	for i < len(src) {
		if j := skipComment(src, i); j != i {
			i = j
			continue
		}
		if j := skipBlank(src, i); j != i {
			i = j
			continue
		}
		switch src[i] {
		case '"', '\'':
			i = skipNonCode(src, i)
			sep = false
			continue
		case '(':
			depth++
		case ')':
			if depth--; depth == 1 {
				if sep && lastComma >= 0 {
					commas = append(commas, lastComma)
				}
				return commas
			}
		case ',':
			if depth == 2 {
				if sep {
					commas = append(commas, i)
				}
				sep, lastComma = true, i
				i++
				continue
			}
		}
		sep = false
		i++
	}
	return nil
}

// skipBlank skips blanks, line splices, line breaks and comments.
func skipBlank(src []byte, i int) int {
	for i < len(src) {
		switch {
		case src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r' || src[i] == '\f' || src[i] == '\v':
			i++
		case src[i] == '\\' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r'):
			i += 2
		default:
			if j := skipComment(src, i); j != i {
				i = j
				continue
			}
			return i
		}
	}
	return i
}

// skipNonCode skips a comment or a string or character literal at i.
func skipNonCode(src []byte, i int) int {
	if j := skipComment(src, i); j != i {
		return j
	}
	if c := src[i]; c == '"' || c == '\'' {
		for j := i + 1; j < len(src); j++ {
			switch src[j] {
			case '\\':
				j++
			case c, '\n':
				return j + 1
			}
		}
		return len(src)
	}
	return i
}

// skipComment skips a /* */ or // comment at i.
func skipComment(src []byte, i int) int {
	if i+1 >= len(src) || src[i] != '/' {
		return i
	}
	switch src[i+1] {
	case '*':
		if end := bytes.Index(src[i+2:], []byte("*/")); end >= 0 {
			return i + 2 + end + 2
		}
		return len(src)
	case '/':
		for i < len(src) && src[i] != '\n' {
			i++
		}
		return i
	}
	return i
}
