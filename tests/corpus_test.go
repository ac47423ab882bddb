package tests

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"github.com/bpfcc/bpfcc/internal/filecheck"
	"github.com/bpfcc/bpfcc/tests/internal/progrun"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// runKind says how a corpus program is exercised.
type runKind string

const (
	runXDP      runKind = "xdp"
	runSocket   runKind = "socket"
	runTC       runKind = "tc"
	runSyscall  runKind = "syscall"
	runLoadOnly runKind = "load-only"
)

// program is one parsed tests/testdata/NAME.c.
type program struct {
	Name   string // NAME
	Path   string // testdata/NAME.c, relative to the tests directory
	Source []byte

	Run    runKind
	Prog   string   // RUN: ... prog=NAME, or "" for the only runnable program
	CFlags []string // -D/-U/-I flags for both compilers
	Cases  []runCase
	ASM    []asmCheck
	// Checks are CHECK/CHECK-NEXT/... directives (package filecheck)
	// matched against the listing in order.
	Checks []filecheck.Directive
	// WholeListing (LISTING: whole REASON) opts the program into having its
	// whole -S listing compared with testdata/NAME.golden; REASON says why
	// the whole is the point.
	WholeListing string
	NonDet       map[string]bool
	NoBPFTool    string // CLANG-BPFTOOL: skip REASON
	NoLibbpf     string // BPFTOOL: skip REASON (bpfcc's object too)
	// NoClangCilium (CLANG-CILIUM: skip REASON) marks programs whose clang
	// object cilium/ebpf cannot parse or load, while bpfcc's object it can.
	NoClangCilium string
	CPU           int // CPU: vN, for both compilers (0: default, v3)
	ClangCPU      int // CLANG-CPU: vN, for clang only (it has no signed division below v4)
	// ClangRejects (CLANG-REJECTS: TEXT) marks C that bpfcc compiles and
	// clang-19 rejects with TEXT in its message; the clang tests check that.
	ClangRejects string
	// XFail (BPFCC-XFAIL: REASON) marks a program bpfcc compiles but the
	// kernel rejects: the tests assert that it still fails, so a fix shows.
	XFail string
}

// runCase is one BPF_PROG_TEST_RUN of a program and what it must observe.
type runCase struct {
	Line   int    // line of the PACKET directive, 0 for the implicit case
	Packet string // PACKET spec as written ("" = default for the run kind)
	Repeat uint32

	Retval    *uint32
	OutLen    *int
	Unchanged bool
	OutBytes  []packetBytes
	Maps      []mapExpect
	Vars      []varExpect
}

type packetBytes struct {
	Line   int
	Offset int
	Want   []byte
}

type mapExpect struct {
	Line   int
	Map    string
	Key    string // as written
	Value  string // as written; "absent" for a missing key
	Absent bool
}

type varExpect struct {
	Line  int
	Name  string
	Value string
}

// asmCheck is an ASM: directive: the listing must (or must not) contain Text.
type asmCheck struct {
	Line   int
	Text   string
	Negate bool
}

var directiveRE = regexp.MustCompile(`^\s*//\s*([A-Z][A-Z-]*):\s*(.*?)\s*$`)

// loadCorpus parses every tests/testdata/*.c.
func loadCorpus(t testing.TB) []*program {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "*.c"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no corpus programs in testdata/")
	}
	sort.Strings(paths)
	var progs []*program
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := parseProgram(p, src)
		if err != nil {
			t.Fatalf("%v", err)
		}
		progs = append(progs, prog)
	}
	return progs
}

// parseProgram reads the directives of one corpus file.
func parseProgram(path string, src []byte) (*program, error) {
	p := &program{
		Name:   strings.TrimSuffix(filepath.Base(path), ".c"),
		Path:   path,
		Source: src,
		NonDet: map[string]bool{},
	}
	var cur *runCase
	caseFor := func() *runCase {
		if cur == nil {
			p.Cases = append(p.Cases, runCase{Repeat: 1})
			cur = &p.Cases[len(p.Cases)-1]
		}
		return cur
	}
	sc := bufio.NewScanner(bytes.NewReader(src))
	for line := 1; sc.Scan(); line++ {
		m := directiveRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		key, arg := m[1], m[2]
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s: %s", path, line, key, fmt.Sprintf(format, args...))
		}
		switch key {
		case "RUN":
			if p.Run != "" {
				return nil, bad("duplicate RUN")
			}
			f := strings.Fields(arg)
			if len(f) == 0 {
				return nil, bad("empty")
			}
			switch k := runKind(f[0]); k {
			case runXDP, runSocket, runTC, runSyscall, runLoadOnly:
				p.Run = k
			default:
				return nil, bad("unknown run kind %q", f[0])
			}
			for _, kv := range f[1:] {
				v, ok := strings.CutPrefix(kv, "prog=")
				if !ok {
					return nil, bad("unknown option %q", kv)
				}
				p.Prog = v
			}
		case "CFLAGS":
			for _, f := range strings.Fields(arg) {
				if !strings.HasPrefix(f, "-D") && !strings.HasPrefix(f, "-U") && !strings.HasPrefix(f, "-I") {
					return nil, bad("only -D, -U and -I are supported, got %q", f)
				}
				p.CFlags = append(p.CFlags, f)
			}
		case "PACKET":
			spec, repeat, err := splitRepeat(arg)
			if err != nil {
				return nil, bad("%v", err)
			}
			if _, err := progrun.BuildPacket(spec); err != nil {
				return nil, bad("%v", err)
			}
			p.Cases = append(p.Cases, runCase{Line: line, Packet: spec, Repeat: repeat})
			cur = &p.Cases[len(p.Cases)-1]
		case "EXPECT":
			c := caseFor()
			for _, kv := range strings.Fields(arg) {
				k, v, ok := strings.Cut(kv, "=")
				if !ok {
					return nil, bad("want key=value, got %q", kv)
				}
				switch k {
				case "retval":
					n, err := parseValue(v)
					if err != nil {
						return nil, bad("%v", err)
					}
					r := uint32(n)
					c.Retval = &r
				case "len":
					n, err := strconv.Atoi(v)
					if err != nil {
						return nil, bad("%v", err)
					}
					c.OutLen = &n
				case "packet":
					if v != "unchanged" {
						return nil, bad("packet=%s: only packet=unchanged is known", v)
					}
					c.Unchanged = true
				default:
					return nil, bad("unknown key %q", k)
				}
			}
		case "EXPECT-PACKET":
			f := strings.Fields(arg)
			if len(f) != 2 {
				return nil, bad("want OFFSET HEXBYTES")
			}
			off, err := strconv.Atoi(f[0])
			if err != nil {
				return nil, bad("%v", err)
			}
			want, err := hex.DecodeString(f[1])
			if err != nil {
				return nil, bad("%v", err)
			}
			c := caseFor()
			c.OutBytes = append(c.OutBytes, packetBytes{Line: line, Offset: off, Want: want})
		case "EXPECT-MAP":
			f := strings.Fields(arg)
			if len(f) != 3 || !strings.HasPrefix(f[1], "key=") || !strings.HasPrefix(f[2], "value=") {
				return nil, bad("want MAP key=K value=V")
			}
			me := mapExpect{Line: line, Map: f[0], Key: f[1][4:], Value: f[2][6:]}
			me.Absent = me.Value == "absent"
			c := caseFor()
			c.Maps = append(c.Maps, me)
		case "EXPECT-VAR":
			name, v, ok := strings.Cut(arg, "=")
			if !ok {
				return nil, bad("want NAME=VALUE")
			}
			c := caseFor()
			c.Vars = append(c.Vars, varExpect{Line: line, Name: strings.TrimSpace(name), Value: strings.TrimSpace(v)})
		case "ASM":
			a := asmCheck{Line: line}
			s := arg
			if strings.HasPrefix(s, "-") {
				a.Negate = true
				s = s[1:]
			}
			txt, err := strconv.Unquote(s)
			if err != nil {
				return nil, bad("want a quoted string, got %s", arg)
			}
			a.Text = txt
			p.ASM = append(p.ASM, a)
		case "CPU", "CLANG-CPU":
			v, ok := strings.CutPrefix(arg, "v")
			n, err := strconv.Atoi(v)
			if !ok || err != nil || n < 1 || n > 4 {
				return nil, bad("want v1..v4")
			}
			if key == "CPU" {
				p.CPU = n
			} else {
				p.ClangCPU = n
			}
		case "NONDET":
			for _, n := range strings.Fields(arg) {
				p.NonDet[n] = true
			}
		case "CLANG-BPFTOOL":
			reason, ok := strings.CutPrefix(arg, "skip ")
			if !ok {
				return nil, bad("want skip REASON")
			}
			p.NoBPFTool = reason
		case "BPFTOOL":
			reason, ok := strings.CutPrefix(arg, "skip ")
			if !ok {
				return nil, bad("want skip REASON")
			}
			p.NoLibbpf = reason
		case "CLANG-CILIUM":
			reason, ok := strings.CutPrefix(arg, "skip ")
			if !ok {
				return nil, bad("want skip REASON")
			}
			p.NoClangCilium = reason
		case "LISTING":
			reason, ok := strings.CutPrefix(arg, "whole ")
			if !ok || strings.TrimSpace(reason) == "" {
				return nil, bad("want whole REASON (why the whole listing is the point)")
			}
			p.WholeListing = strings.TrimSpace(reason)
		case "BPFCC-XFAIL":
			p.XFail = arg
		case "CLANG-REJECTS":
			p.ClangRejects = arg
		case "CHECK", "CHECK-NEXT", "CHECK-SAME", "CHECK-NOT", "CHECK-EMPTY":
			ds, err := filecheck.Parse(strings.Repeat("\n", line-1) + sc.Text())
			if err != nil {
				return nil, bad("%v", err)
			}
			p.Checks = append(p.Checks, ds...)
		case "ERROR", "TODO", "NOTE":
			// Not for corpus programs, or free text.
		default:
			return nil, bad("unknown directive")
		}
	}
	if p.Run == "" {
		return nil, fmt.Errorf("%s: no RUN directive", path)
	}
	if p.Run == runLoadOnly {
		if len(p.Cases) > 0 {
			return nil, fmt.Errorf("%s: load-only program has PACKET or EXPECT lines", path)
		}
		return p, nil
	}
	if len(p.Cases) == 0 {
		return nil, fmt.Errorf("%s: runnable program states no EXPECT", path)
	}
	for i := range p.Cases {
		c := &p.Cases[i]
		if c.Retval == nil {
			return nil, fmt.Errorf("%s:%d: run states no EXPECT: retval", path, c.Line)
		}
		if c.Packet == "" {
			c.Packet = defaultPacket(p.Run)
		}
		if p.Run == runSyscall && c.Packet != "none" {
			return nil, fmt.Errorf("%s:%d: syscall programs take PACKET: none", path, c.Line)
		}
		if p.Run != runSyscall && c.Packet == "none" {
			return nil, fmt.Errorf("%s:%d: %s programs need a packet", path, c.Line, p.Run)
		}
	}
	return p, nil
}

func defaultPacket(k runKind) string {
	if k == runSyscall {
		return "none"
	}
	return "ipv4-tcp"
}

// splitRepeat takes a trailing repeat=N off a PACKET spec.
func splitRepeat(arg string) (string, uint32, error) {
	f := strings.Fields(arg)
	repeat := uint32(1)
	var rest []string
	for _, kv := range f {
		if v, ok := strings.CutPrefix(kv, "repeat="); ok {
			n, err := strconv.ParseUint(v, 0, 32)
			if err != nil || n == 0 {
				return "", 0, fmt.Errorf("bad repeat %q", v)
			}
			repeat = uint32(n)
			continue
		}
		rest = append(rest, kv)
	}
	return strings.Join(rest, " "), repeat, nil
}

// namedValues are the symbolic return codes EXPECT lines may use.
var namedValues = map[string]int64{
	"XDP_ABORTED": 0, "XDP_DROP": 1, "XDP_PASS": 2, "XDP_TX": 3, "XDP_REDIRECT": 4,
	"TC_ACT_UNSPEC": -1, "TC_ACT_OK": 0, "TC_ACT_RECLASSIFY": 1, "TC_ACT_SHOT": 2,
	"TC_ACT_PIPE": 3, "TC_ACT_STOLEN": 4, "TC_ACT_QUEUED": 5, "TC_ACT_REPEAT": 6,
	"TC_ACT_REDIRECT": 7,
}

// parseValue parses a decimal, 0x hex, negative or named integer.
func parseValue(s string) (int64, error) {
	if v, ok := namedValues[s]; ok {
		return v, nil
	}
	if strings.HasPrefix(s, "-") {
		return strconv.ParseInt(s, 0, 64)
	}
	u, err := strconv.ParseUint(s, 0, 64)
	return int64(u), err
}

// encodeValue turns a key or value as written in an EXPECT line into size
// little-endian bytes: an integer (which must fit), or hex:BYTES.
func encodeValue(s string, size int) ([]byte, error) {
	if h, ok := strings.CutPrefix(s, "hex:"); ok {
		b, err := hex.DecodeString(h)
		if err != nil {
			return nil, err
		}
		if len(b) != size {
			return nil, fmt.Errorf("%s is %d bytes, want %d", s, len(b), size)
		}
		return b, nil
	}
	if size > 8 {
		return nil, fmt.Errorf("%d-byte value needs the hex: form", size)
	}
	v, err := parseValue(s)
	if err != nil {
		return nil, err
	}
	if size < 8 {
		lo, hi := -(int64(1) << (8*size - 1)), int64(1)<<(8*size)-1
		if v < lo || v > hi {
			return nil, fmt.Errorf("%s does not fit in %d bytes", s, size)
		}
	}
	b := make([]byte, size)
	for i := range b {
		b[i] = byte(uint64(v) >> (8 * i))
	}
	return b, nil
}

// decodeLE reads up to 8 little-endian bytes as an unsigned integer.
func decodeLE(b []byte) uint64 {
	var v uint64
	for i := len(b) - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}
