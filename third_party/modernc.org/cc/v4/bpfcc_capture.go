// bpfcc: this file is bpfcc's addition (see README.bpfcc.md).

package cc // import "modernc.org/cc/v4"

// Captured is what the preprocessor hands the parser for a sequence of
// sources, and the state it ends in: bpfcc's header cache stores it so that
// a later translation unit with the same headers skips preprocessing them.
type Captured struct {
	// tokens are the tokens the parser would read, without white space,
	// in chunks: one slice grown by doubling copied and faulted in its
	// megabytes again at every step. See Len and Token.
	tokens [][]Token
	n      int
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

const captureChunk = 4096

func (r *Captured) add(t Token) {
	if r.n%captureChunk == 0 {
		r.tokens = append(r.tokens, make([]Token, 0, captureChunk))
	}
	k := len(r.tokens) - 1
	r.tokens[k] = append(r.tokens[k], t)
	r.n++
}

// Len returns the number of tokens captured.
func (r *Captured) Len() int { return r.n }

// Token returns the i-th token captured.
func (r *Captured) Token(i int) Token { return r.tokens[i/captureChunk][i%captureChunk] }

// CapturedPragma is a pragma run at a point of the captured tokens.
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
		r.Pragmas = append(r.Pragmas, CapturedPragma{At: r.n, Toks: toks})
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
			r.add(t)
		}
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	r.Macros, r.Counter, r.PackStack, r.Pack = cpp.macros, cpp.counter, len(cpp.packStack), cpp.pack
	return r, nil
}

// captureMark records the state at Config.CaptureMark and stops
// recording.
func (c *cpp) captureMark() {
	r := c.capture
	r.Macros = make(map[string]*Macro, len(c.macros))
	for k, v := range c.macros {
		r.Macros[k] = v
	}
	r.Counter, r.PackStack, r.Pack = c.counter, len(c.packStack), c.pack
	c.capture = nil
	if h := c.cfg.CaptureHook; h != nil {
		h()
	}
}
