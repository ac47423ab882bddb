// bpfcc: this file is bpfcc's addition (see README.bpfcc.md).

package cc // import "modernc.org/cc/v4"

// Captured is what the preprocessor hands the parser for a sequence of
// sources, and the state it ends in: bpfcc's header cache stores it so that
// a later translation unit with the same headers skips preprocessing them.
type Captured struct {
	// Tokens are the tokens the parser would read, without white space.
	Tokens []Token
	// Pragmas are the pragma directives and _Pragma operators run while
	// preprocessing, in order, each with the number of tokens before it.
	Pragmas []CapturedPragma
	// Macros are the macros defined at the end.
	Macros map[string]*Macro
	// Counter is the value __COUNTER__ would expand to next.
	Counter int
	// PackStack is the depth of '#pragma pack(push)' at the end, and Pack
	// the packing in effect.
	PackStack, Pack int
}

// CapturedPragma is a pragma run at a point of Captured.Tokens.
type CapturedPragma struct {
	At   int     // Tokens before it.
	Toks []Token // After "pragma".
}

// Capture preprocesses sources as Translate does, without parsing, and
// returns the tokens and the preprocessor's final state. cfg.PragmaHandler,
// if any, sees every pragma as in Translate.
func Capture(cfg *Config, sources []Source) (*Captured, error) {
	r := &Captured{}
	c := *cfg
	h := cfg.PragmaHandler
	c.PragmaHandler = func(toks []Token) error {
		r.Pragmas = append(r.Pragmas, CapturedPragma{At: len(r.Tokens), Toks: toks})
		if h != nil {
			return h(toks)
		}
		return nil
	}
	cpp, err := newCPP(&c, nil, sources, nil)
	if err != nil {
		return nil, err
	}
	var errs errors
	cpp.eh = func(msg string, args ...interface{}) { errs.add(errorf(msg, args...)) }
	for cpp.rune() != eof {
		t := cpp.shift()
		if t.Ch != ' ' && t.Ch != '\n' {
			r.Tokens = append(r.Tokens, t)
		}
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	r.Macros, r.Counter, r.PackStack, r.Pack = cpp.macros, cpp.counter, len(cpp.packStack), cpp.pack
	return r, nil
}
