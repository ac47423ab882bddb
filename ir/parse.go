package ir

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrUnsupported marks IR text the parser cannot rebuild: inline asm and
// CO-RE relocations print only as summaries.
var ErrUnsupported = errors.New("not representable as IR text")

// Parse reads a module as Module.String prints it: an optional header
// ("module", "license", "version", "map", "global" lines), then
// functions. It is the printer's inverse for what the printer shows;
// what it does not show (positions, scopes, BTF, map definitions, CO-RE
// relocations, asm) stays zero, and asm and core instructions are errors
// wrapping ErrUnsupported. Lines starting with "#" are comments.
func Parse(text string) (*Module, error) {
	p := &parser{m: &Module{}}
	lines := strings.Split(text, "\n")
	for p.ln = 0; p.ln < len(lines); p.ln++ {
		line := strings.TrimSpace(lines[p.ln])
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "func ") {
			f, err := p.funcAt(lines)
			if err != nil {
				return nil, err
			}
			p.m.Funcs = append(p.m.Funcs, f)
			continue
		}
		if err := p.header(line); err != nil {
			return nil, p.errorf("%v", err)
		}
	}
	return p.m, nil
}

// ParseFunc reads one function as Func.String prints it.
func ParseFunc(text string) (*Func, error) {
	m, err := Parse(text)
	if err != nil {
		return nil, err
	}
	if len(m.Funcs) != 1 {
		return nil, fmt.Errorf("want one function, got %d", len(m.Funcs))
	}
	return m.Funcs[0], nil
}

type parser struct {
	m  *Module
	ln int // the current line, from 0

	// per function
	f      *Func
	blocks map[int]*Block
	slots  map[int]*Slot
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("line %d: %w", p.ln+1, fmt.Errorf(format, args...))
}

// header reads one module-level line.
func (p *parser) header(line string) error {
	t := &toks{s: line}
	switch kw := t.word(); kw {
	case "module":
		p.m.File = t.quoted()
	case "license":
		p.m.License = t.quoted()
	case "version":
		p.m.Version, p.m.HasVersion = uint32(t.int()), true
	case "map":
		mp := &Map{Name: t.word()}
		mp.Static = t.take("static")
		for t.more() && t.err == nil {
			w := t.word()
			off, sym, ok := strings.Cut(w, "]=")
			if !ok || !strings.HasPrefix(off, "[") {
				return fmt.Errorf("map %s: bad initialiser %q", mp.Name, w)
			}
			n, err := strconv.Atoi(off[1:])
			if err != nil {
				return fmt.Errorf("map %s: bad initialiser %q", mp.Name, w)
			}
			mp.Inner = append(mp.Inner, MapInit{Off: n, Sym: sym})
		}
		p.m.Maps = append(p.m.Maps, mp)
	case "output":
		name := t.word()
		t.word() // the type's name: BTF is not rebuilt
		if p.m.Output == nil {
			p.m.Output = map[string]btfType{}
		}
		p.m.Output[name] = nil
	case "global":
		g, err := global(t)
		if err != nil {
			return err
		}
		p.m.Globals = append(p.m.Globals, g)
	default:
		return fmt.Errorf("unknown line %q", kw)
	}
	if t.more() && t.err == nil {
		return fmt.Errorf("unexpected %q", t.rest())
	}
	return t.err
}

func global(t *toks) (*Global, error) {
	g := &Global{Name: t.word()}
	g.Static = t.take("static")
	t.expect("section")
	g.Section = t.quoted()
	t.expect("size")
	g.Size = int(t.int())
	t.expect("align")
	g.Align = int(t.int())
	if t.take("init") {
		b, err := hex.DecodeString(t.word())
		if err != nil {
			return nil, fmt.Errorf("global %s: bad init: %v", g.Name, err)
		}
		g.Init = b
	}
	for t.more() && t.err == nil {
		switch w := t.word(); {
		case strings.HasPrefix(w, "addr@"):
			off, target, ok := strings.Cut(strings.TrimPrefix(w, "addr@"), "=")
			i := strings.LastIndexAny(target, "+-")
			n, err := strconv.Atoi(off)
			if !ok || i <= 0 || err != nil {
				return nil, fmt.Errorf("global %s: bad relocation %q", g.Name, w)
			}
			add, err := strconv.ParseInt(target[i:], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("global %s: bad relocation %q", g.Name, w)
			}
			g.Relocs = append(g.Relocs, DataReloc{Off: n, Sym: target[:i], Addend: add})
		case w == "hidden":
			g.Hidden = true
		case w == "const":
			g.Const = true
		case w == "extern":
			g.Extern = true
		case w == "weak":
			g.Weak = true
		default:
			return nil, fmt.Errorf("global %s: unexpected %q", g.Name, w)
		}
	}
	return g, t.err
}

// funcAt reads the function starting at lines[p.ln], leaving p.ln on its
// closing brace.
func (p *parser) funcAt(lines []string) (*Func, error) {
	f := &Func{}
	p.f, p.blocks, p.slots = f, map[int]*Block{}, map[int]*Slot{}
	if err := p.funcHeader(strings.TrimSpace(lines[p.ln])); err != nil {
		return nil, p.errorf("%v", err)
	}
	var cur *Block
	var note []string
	maxReg := Reg(0)
	for _, r := range f.Params {
		maxReg = max(maxReg, r)
	}
	for p.ln++; p.ln < len(lines); p.ln++ {
		raw := lines[p.ln]
		line := strings.TrimSpace(raw)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case line == "}":
			if note != nil {
				return nil, p.errorf("note %q before no instruction", strings.Join(note, "\n"))
			}
			for id, b := range p.blocks {
				if b.Instrs == nil && !p.defined(b) {
					return nil, fmt.Errorf("function %s: block b%d used and not defined", f.Name, id)
				}
			}
			f.NextReg = maxReg + 1
			return f, nil
		case strings.HasPrefix(line, "slot "):
			if err := p.slot(line); err != nil {
				return nil, p.errorf("%v", err)
			}
		case strings.HasPrefix(line, ";"):
			note = append(note, strings.TrimPrefix(strings.TrimPrefix(strings.TrimLeft(raw, " \t"), ";"), " "))
		case strings.HasSuffix(line, ":") && !strings.HasPrefix(raw, "  "):
			id, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(line, "b"), ":"))
			if err != nil || !strings.HasPrefix(line, "b") {
				return nil, p.errorf("bad block label %q", line)
			}
			cur = p.block(id)
			if p.defined(cur) {
				return nil, p.errorf("block b%d defined twice", id)
			}
			f.Blocks = append(f.Blocks, cur)
		default:
			if cur == nil {
				return nil, p.errorf("instruction before the first block label")
			}
			in, err := p.instr(line)
			if err != nil {
				return nil, p.errorf("%q: %w", line, err)
			}
			in.Note, note = strings.Join(note, "\n"), nil
			cur.Instrs = append(cur.Instrs, in)
			for _, r := range []Reg{in.Dst, in.A.Reg, in.B.Reg, in.C.Reg} {
				maxReg = max(maxReg, r)
			}
			for _, a := range in.Args {
				maxReg = max(maxReg, a.Reg)
			}
		}
	}
	return nil, fmt.Errorf("function %s: no closing brace", f.Name)
}

func (p *parser) defined(b *Block) bool {
	for _, d := range p.f.Blocks {
		if d == b {
			return true
		}
	}
	return false
}

func (p *parser) funcHeader(line string) error {
	t := &toks{s: strings.TrimPrefix(line, "func ")}
	name, rest, ok := strings.Cut(t.s, "(")
	params, rest2, ok2 := strings.Cut(rest, ")")
	if !ok || !ok2 {
		return fmt.Errorf("bad function header %q", line)
	}
	f := p.f
	f.Name = strings.TrimSpace(name)
	for _, ps := range strings.Split(params, ",") {
		if ps = strings.TrimSpace(ps); ps == "" {
			continue
		}
		r, err := parseReg(ps)
		if err != nil {
			return err
		}
		f.Params = append(f.Params, r)
	}
	t = &toks{s: rest2}
	for t.more() && t.err == nil {
		switch w := t.word(); w {
		case "section":
			f.Section = t.quoted()
		case "static":
			f.Static = true
		case "hidden":
			f.Hidden = true
		case "weak":
			f.Weak = true
		case "returns":
			f.Returns = true
		case "inline":
			f.Inline = true
		case "noinline":
			f.NoInline = true
		case "naked":
			f.Naked = true
		case "{":
			if t.more() {
				return fmt.Errorf("unexpected %q after {", t.rest())
			}
			return nil
		default:
			return fmt.Errorf("unexpected %q in function header", w)
		}
	}
	if t.err != nil {
		return t.err
	}
	return fmt.Errorf("function header without {")
}

func (p *parser) slot(line string) error {
	t := &toks{s: strings.TrimPrefix(line, "slot ")}
	id, err := parseNumbered(t.word(), "s")
	if err != nil {
		return err
	}
	s := p.slotRef(id)
	if p.contains(s) {
		return fmt.Errorf("slot s%d declared twice", id)
	}
	s.Name = t.quoted()
	t.expect("size")
	s.Size = int(t.int())
	t.expect("align")
	s.Align = int(t.int())
	s.Volatile = t.take("volatile")
	if t.take("scalar") {
		s.Scalar = int(t.int())
	}
	if t.more() && t.err == nil {
		return fmt.Errorf("unexpected %q", t.rest())
	}
	p.f.Slots = append(p.f.Slots, s)
	return t.err
}

func (p *parser) contains(s *Slot) bool {
	for _, d := range p.f.Slots {
		if d == s {
			return true
		}
	}
	return false
}

func (p *parser) block(id int) *Block {
	b := p.blocks[id]
	if b == nil {
		b = &Block{ID: id}
		p.blocks[id] = b
	}
	return b
}

func (p *parser) slotRef(id int) *Slot {
	s := p.slots[id]
	if s == nil {
		s = &Slot{ID: id}
		p.slots[id] = s
	}
	return s
}

func parseReg(s string) (Reg, error) {
	n, err := parseNumbered(s, "r")
	return Reg(n), err
}

// parseNumbered reads "<prefix>N".
func parseNumbered(s, prefix string) (int, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(s, prefix))
	if err != nil || !strings.HasPrefix(s, prefix) || n < 0 {
		return 0, fmt.Errorf("want %sN, got %q", prefix, s)
	}
	return n, nil
}
