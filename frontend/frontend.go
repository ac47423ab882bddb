// Package frontend preprocesses, parses and type-checks C for the BPF target
// with modernc.org/cc/v4, without running a host compiler.
package frontend

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"modernc.org/cc/v4"
	"modernc.org/token"

	"github.com/bpfcc/bpfcc/diag"
	"github.com/bpfcc/bpfcc/frontend/hcache"
	"github.com/bpfcc/bpfcc/include"
)

// Options configure preprocessing.
type Options struct {
	// Source, when non-nil, replaces the file's contents.
	Source []byte
	// IncludeDirs are the -I and -isystem directories, in search order.
	IncludeDirs []string
	// AfterDirs are -idirafter directories, searched after the system
	// ones; NoStdInc (-nostdinc) leaves the system directories out.
	AfterDirs []string
	NoStdInc  bool
	Defines   []string // NAME or NAME=VALUE
	Undefines []string
	// Std is the -std= language standard ("" for the default, gnu17).
	Std string
	// Includes are -include files, read before the main file as if it
	// began with #include "FILE" (a relative FILE from the working
	// directory first, as clang); they turn the preamble cache off.
	Includes []string
	// CPU is the -mcpu version, exposed as __BPF_CPU_VERSION__.
	CPU int
	// TargetHeader, when set, gives the text of <bpfcc/target.h> for the
	// main file's source (the traced binary's types, see
	// dwarfvars.TargetHeader); it is called once, when the header is
	// included.
	TargetHeader func(src []byte) []byte
	// Cache, when set, is the header cache (see package hcache); nil
	// caches nothing. The result never depends on it.
	Cache *hcache.Cache
	// Files, when set, receives the files the compile read: the main
	// file, then the headers found, in the order first read, each once
	// (not bpfcc's embedded headers), for a make dependency file (-MD).
	Files *[]string
}

// Unit is a type-checked translation unit.
type Unit struct {
	File   string
	AST    *cc.AST
	Source []byte
	lines  []string
	// accessRegions are the preserve_access_index pragma regions.
	accessRegions []accessRegion
	// splitBitFields are the bit-fields translated split in two, see
	// wideBitFields.
	splitBitFields map[token.Position]string
	// loops are the labelled loop-pragma sites, see LoopUnroll.
	loops *loopSites
	// lateAsserts are the assertions lower decides, see
	// translateLateAsserts.
	lateAsserts map[*cc.StaticAssertDeclaration]lateAssert
	// fromPreamble: cc read the cached preamble (preamble.go).
	fromPreamble bool
}

// Line returns source line n (1-based) of the main file, or "".
func (u *Unit) Line(n int) string {
	if u.lines == nil {
		u.lines = strings.Split(string(u.Source), "\n")
	}
	if n < 1 || n > len(u.lines) {
		return ""
	}
	return strings.TrimRight(u.lines[n-1], "\r")
}

// Parse preprocesses, parses and type-checks the file at path.
func Parse(path string, opts Options) (*Unit, error) {
	if err := CheckStd(opts.Std); err != nil {
		return nil, diag.List{{File: path, Msg: err.Error()}}
	}
	src := opts.Source
	if src == nil {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, diag.List{{File: path, Msg: fmt.Sprintf("cannot read source: %v", errnoText(err))}}
		}
		src = b
	}
	if len(src) > MaxSourceSize {
		return nil, diag.List{{File: path, Msg: fmt.Sprintf("source is %d bytes, over the %d-byte limit", len(src), MaxSourceSize)}}
	}
	if d := checkEOF(path, src); d != nil {
		return nil, diag.List{*d}
	}
	if d := checkSelfInclude(path, src); d != nil {
		return nil, diag.List{*d}
	}
	if d := prescan(path, src); d != nil {
		return nil, diag.List{*d}
	}
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, diag.List{{File: path, Msg: err.Error()}}
	}
	prag := newPragmas()
	cfg.PragmaHandler = prag.handle
	loops := &loopSites{}
	cfg.PragmaLabel = loops.label
	main, regions := hideAccessAttribute(path, dropEmptyAttributes(rewriteFnArray(rewriteU8(endLine(src)))))
	mainText := rewriteLocalLabels(rewriteNamedVariadics(main))
	if len(opts.Includes) > 0 {
		// The cached preamble would be read without them.
		opts.Cache = nil
	}
	sources := append([]cc.Source{
		{Name: "<predefined>", Value: predefined(opts)},
		{Name: "<builtin>", Value: cc.Builtin},
		{Name: "<builtin-macros>", Value: include.BuiltinMacros}},
		append(commandLineIncludes(opts.Includes),
			cc.Source{Name: path, Value: mainText})...)
	headerRegions := []accessRegion{}
	pruned := false
	sfs := cfg.FS.(sourceFS)
	sfs.regions = &headerRegions
	if opts.TargetHeader != nil {
		sfs.target = onceTarget(opts.TargetHeader, src)
	}
	sfs.cache = opts.Cache
	var read, hitFiles []string // the headers read, the cached preamble's
	if opts.Files != nil {
		sfs.files = &read
		defer func() { *opts.Files = filesRead(path, append(slices.Clone(opts.Includes), hitFiles...), read) }()
	}
	if PruneVmlinux {
		sfs.vmlinux = &vmlinuxRoots{path: path, src: src, dirs: opts.search().System(), read: sfs.read}
		for _, s := range commandLineIncludes(opts.Includes) {
			sfs.vmlinux.pre = []byte(s.Value.(string))
		}
		sfs.pruned = &pruned
	}
	cfg.FS = sfs
	missed := false    // the reduced file failed
	var firstErr error // the whole file's, when it was compiled with the mark
	hit, text, miss := lookupPreamble(cfg, path, mainText, opts)
	if hit != nil {
		for _, d := range hit.deps {
			if !d.absent {
				hitFiles = append(hitFiles, d.name)
			}
		}
		// The cached headers reduced to what the file reaches; on any
		// error, the whole file again below, for its diagnostics.
		prag = newPragmas()
		for _, f := range hit.once {
			prag.seen[f] = -1 // read whole in the preamble
		}
		cfg.PragmaHandler = prag.handle
		ast, err := translate(cfg, []cc.Source{sources[0], {Name: path, Value: text}})
		if err == nil {
			regions = append(append(append(regions, hit.regions...), headerRegions...), prag.finish()...)
			return &Unit{File: path, AST: ast, Source: src, accessRegions: regions, loops: loops, fromPreamble: true}, nil
		}
		missed = true
	}
	if miss != nil {
		// The whole file, with the preamble's end marked: cc records
		// there what the entry needs (cc.Config.CaptureMark).
		log := &depLog{vmlinuxFirst: miss.first != ""}
		c := *cfg
		s := sfs
		s.deps = log
		c.FS = s
		at := &cc.Captured{}
		var st captureState
		sites := len(loops.sites)
		c.CaptureMark, c.CaptureAt = preambleMark, at
		c.CaptureHook = func() {
			st = captureState{deps: slices.Clone(log.deps), regions: slices.Clone(headerRegions), loopSites: len(loops.sites) - sites,
				veto: log.veto, vmlinux: log.vmlinux, typedefs: log.typedefs}
		}
		prag = newPragmas()
		c.PragmaHandler = prag.handle
		ast, err := translate(&c, append(sources[:3:3], cc.Source{Name: path, Value: miss.marked(mainText, path)}))
		if err == nil {
			miss.store(opts.Cache, path, at, st)
			regions = append(append(regions, headerRegions...), prag.finish()...)
			return &Unit{File: path, AST: ast, Source: src, accessRegions: regions, loops: loops}, nil
		}
		// The rewrites below, without the mark; no entry this time. The
		// marked file is the file: its error is the first try's.
		firstErr = err
	}
	// attempt translates, then retries the constructs cc refuses but bpfcc
	// can rewrite; each try starts with no regions or pragmas collected.
	attempt := func() (ast *cc.AST, err error, split map[token.Position]string, late map[*cc.StaticAssertDeclaration]lateAssert) {
		fresh := func() {
			headerRegions = headerRegions[:0]
			prag = newPragmas()
			cfg.PragmaHandler = prag.handle
		}
		fresh()
		if firstErr != nil {
			ast, err, firstErr = nil, firstErr, nil
		} else {
			ast, err = translate(cfg, sources)
		}
		if missed && err == nil {
			// The whole file compiles where the reduced one did not, and
			// not by a rewrite below that the reduced file never had.
			preambleStats.missed.Add(1)
		}
		if err != nil {
			if at, ok := wideBitFields(err); ok {
				fresh()
				if ast2, ok := translateSplit(cfg, sources, path, at); ok {
					ast, err, split = ast2, nil, at
				}
			}
		}
		if err != nil && strings.Contains(err.Error(), fnAttrsError) {
			fresh()
			if ast2, ok := translateMovedAttrs(cfg, sources, path); ok {
				ast, err = ast2, nil
			}
		}
		if err != nil && onlyAssertFailures(err) {
			fresh()
			if ast2, l, ok := translateLateAsserts(cfg, sources); ok {
				ast, err, late = ast2, nil, l
			}
		}
		return ast, err, split, late
	}
	ast, err, split, late := attempt()
	if err != nil && pruned {
		// What pruning removed was needed after all: the whole header.
		// Not before the rewrites above had their try: a file they
		// recover would otherwise parse all of vmlinux.h up to four times.
		sfs.vmlinux, sfs.pruned = nil, nil
		cfg.FS = sfs
		ast, err, split, late = attempt()
	}
	if err != nil {
		var fe frontEndFailure
		if errors.As(err, &fe) {
			// cc crashed or looped without saying where: point at the end
			// of the input, where its known failures are.
			line, col := endOfInput(src)
			return nil, diag.List{{File: path, Line: line, Col: col, Msg: fe.Error()}}
		}
		return nil, convertErrors(path, src, err)
	}
	regions = append(append(regions, headerRegions...), prag.finish()...)
	return &Unit{File: path, AST: ast, Source: src, accessRegions: regions, splitBitFields: split, loops: loops, lateAsserts: late}, nil
}

// translateSplit translates sources again with the too-wide bit-fields at
// split in two (see wideBitFields); ok is false when that cannot be done
// or cc still refuses the file.
func translateSplit(cfg *cc.Config, sources []cc.Source, path string, at map[token.Position]string) (*cc.AST, bool) {
	var text []byte
	last := len(sources) - 1 // the main file comes after the predefined sources
	switch v := sources[last].Value.(type) {
	case []byte:
		text = v
	case string:
		text = []byte(v)
	}
	main, ok := splitWideBitFields(path, text, at)
	if !ok {
		return nil, false
	}
	sources = append(sources[:last:last], cc.Source{Name: path, Value: main})
	sfs := cfg.FS.(sourceFS)
	sfs.split = at
	c := *cfg
	c.FS = sfs
	ast, err := translate(&c, sources)
	return ast, err == nil
}

// MaxSourceSize bounds the main file's size.
const MaxSourceSize = 16 << 20

// frontEndFailure is a crash or hang of cc itself on malformed input.
type frontEndFailure string

func (e frontEndFailure) Error() string { return string(e) }

// TranslateTimeout is the last resort against modernc.org/cc/v4 looping
// forever on input the deterministic limits do not catch (headers that
// include each other twice without guards); the goroutine is abandoned
// then. Every limit a user meets on legitimate or merely large input counts
// work instead (ExpansionLimit, MaxNesting, MaxSourceSize, checkEOF), so
// the same input gets the same diagnostic on any machine; this bound sits
// far above the slowest legitimate compile (a few seconds) so that it never
// decides a diagnostic under load.
var TranslateTimeout = 3 * time.Minute

// translate runs cc.Translate, turning a panic inside cc into an error
// and a hang into a timeout.
func translate(cfg *cc.Config, sources []cc.Source) (*cc.AST, error) {
	type result struct {
		ast *cc.AST
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{nil, frontEndFailure(fmt.Sprintf("the C front end (modernc.org/cc/v4) crashed on this input (%v); check the syntax of the code before this point", r))}
			}
		}()
		ast, err := cc.Translate(cfg, sources)
		done <- result{ast, err}
	}()
	select {
	case r := <-done:
		return r.ast, r.err
	case <-time.After(TranslateTimeout):
		return nil, frontEndFailure(fmt.Sprintf("the C front end did not finish in %v: look for headers that include each other, an unterminated declaration, or statements nested thousands deep", TranslateTimeout))
	}
}

func errnoText(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

// Preprocess writes the preprocessed source of path to w (bpfcc -E).
func Preprocess(path string, opts Options, w io.Writer) error {
	cfg, err := newConfig(opts)
	if err != nil {
		return err
	}
	keepComments(cfg)
	cfg.PragmaHandler = newPragmas().handle
	src := opts.Source
	if src == nil {
		if src, err = os.ReadFile(path); err != nil {
			return diag.List{{File: path, Msg: fmt.Sprintf("cannot read source: %v", errnoText(err))}}
		}
	}
	if d := checkSelfInclude(path, src); d != nil {
		return diag.List{*d}
	}
	if sfs, ok := cfg.FS.(sourceFS); ok && opts.TargetHeader != nil {
		sfs.target = onceTarget(opts.TargetHeader, src)
		cfg.FS = sfs
	}
	sources := append([]cc.Source{{Name: "<predefined>", Value: predefined(opts)}, {Name: "<builtin>", Value: cc.Builtin}, {Name: "<builtin-macros>", Value: include.BuiltinMacros}},
		append(commandLineIncludes(opts.Includes), cc.Source{Name: path, Value: rewriteLocalLabels(rewriteNamedVariadics(endLine(src)))})...)
	// Preprocess into a buffer under the same watchdog as Translate: an
	// include cycle among headers without guards never ends in cc.
	var buf bytes.Buffer
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("the C preprocessor failed on this input (%v)", r)
			}
		}()
		done <- cc.Preprocess(cfg, sources, &buf)
	}()
	select {
	case err := <-done:
		if err != nil {
			return convertErrors(path, src, err)
		}
	case <-time.After(TranslateTimeout):
		return diag.List{{File: path, Msg: fmt.Sprintf("preprocessing did not finish in %v: look for headers that include each other without include guards", TranslateTimeout)}}
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// search is the include search opts describe.
func (opts Options) search() include.Search {
	return include.Search{Dirs: opts.IncludeDirs, After: opts.AfterDirs, NoStd: opts.NoStdInc}
}

// commandLineIncludes is the source of the -include files: an #include
// line each, as clang adds them to its predefines (none without any).
func commandLineIncludes(files []string) []cc.Source {
	if len(files) == 0 {
		return nil
	}
	var b strings.Builder
	for _, f := range files {
		if !filepath.IsAbs(f) {
			if abs, err := filepath.Abs(f); err == nil {
				if _, err := os.Stat(abs); err == nil {
					f = abs
				}
			}
		}
		fmt.Fprintf(&b, "#include \"%s\"\n", strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(f))
	}
	return []cc.Source{{Name: "<command line>", Value: b.String()}}
}

// filesRead is Options.Files: the main file, then the cached preamble's
// headers and those read, each once.
func filesRead(path string, cached, read []string) []string {
	files := []string{path}
	seen := map[string]bool{path: true}
	for _, f := range append(cached, read...) {
		if !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	return files
}
