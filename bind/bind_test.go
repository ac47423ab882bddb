package bind

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"modernc.org/token"

	"github.com/bpfcc/bpfcc/diag"
	"github.com/bpfcc/bpfcc/frontend"
	"github.com/bpfcc/bpfcc/ir"
)

func TestParseConfigForms(t *testing.T) {
	ss, err := ParseConfig("  a: f\n\n;b:g:3 x y=z->w[2].v  ;; c : file.c:10 n=*p\t m=&q", ir.Pos{File: "h.c", Line: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 3 {
		t.Fatalf("got %d specs: %+v", len(ss), ss)
	}
	if ss[0].Handler != "a" || ss[0].Probe != "f" || len(ss[0].Args) != 0 {
		t.Errorf("spec 0 = %+v", ss[0])
	}
	if ss[1].Handler != "b" || ss[1].Probe != "g:3" || ss[1].Args["x"] != "x" || ss[1].Args["y"] != "z->w[2].v" {
		t.Errorf("spec 1 = %+v", ss[1])
	}
	if ss[2].Handler != "c" || ss[2].Probe != "file.c:10" || ss[2].Args["n"] != "*p" || ss[2].Args["m"] != "&q" {
		t.Errorf("spec 2 = %+v", ss[2])
	}
	if ss[1].Pos.File != "h.c" || ss[1].Pos.Line != 3 {
		t.Errorf("spec position not kept: %+v", ss[1].Pos)
	}
	for _, bad := range []string{"h: f x=", "h: f =", "h: f 9x=y", ": f", "h f"} {
		if _, err := ParseConfig(bad, ir.Pos{}); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// shape describes functions that all look like handlers (external, not
// inline, not called, context first) by their parameter names.
func shape(params map[string][]string, sections map[string]string, config ...string) *frontend.Shape {
	sh := &frontend.Shape{}
	var names []string
	for name := range params {
		names = append(names, name)
	}
	sort.Strings(names)
	for i, name := range names {
		sh.Funcs = append(sh.Funcs, frontend.Func{Name: name, Params: params[name], Section: sections[name], CtxFirst: true,
			Pos: token.Position{Filename: "h.c", Line: i + 1}})
	}
	for i, c := range config {
		sh.Config = append(sh.Config, frontend.Config{Text: c, Pos: token.Position{Filename: "h.c", Line: 100 + i}})
	}
	return sh
}

func TestSpecsCLIWins(t *testing.T) {
	sh := shape(map[string][]string{"prog": {"ctx", "a", "b"}}, nil, "prog: f:3 a=x b")
	all, dl := specs(sh, Options{Probes: []string{"prog=g%return"}, Binds: []string{"prog.a=y->z", "prog.c=w"}})
	if len(dl) > 0 {
		t.Fatal(dl)
	}
	s := all["prog"]
	if s.Probe != "g%return" || s.Args["a"] != "y->z" || s.Args["b"] != "b" {
		t.Errorf("merged spec = %+v", s)
	}
	_, dl = specs(sh, Options{Probes: []string{"prog"}, Binds: []string{"prog=x", "prog.a"}})
	if len(dl) != 3 {
		t.Errorf("want 3 diagnostics for malformed --probe/--bind, got %v", dl)
	}
}

func diagText(err error) string {
	var dl diag.List
	if errors.As(err, &dl) {
		var s []string
		for _, d := range dl {
			s = append(s, fmt.Sprintf("%s:%d: %s", d.File, d.Line, d.Msg))
		}
		return strings.Join(s, "\n")
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestResolveKernel(t *testing.T) {
	sh := shape(map[string][]string{"k1": {"ctx"}, "k2": {"ctx"}, "k3": {"ctx"}}, nil, "k1: do_sys_openat2; k2: vfs_read+0x10; k3: vfs_write%return")
	hs, err := Bind(sh, Options{})
	if err != nil {
		t.Fatal(diagText(err))
	}
	got := map[string]string{}
	for _, h := range hs {
		got[h.Name] = h.Sites[0].Section
	}
	want := map[string]string{"k1": "kprobe/do_sys_openat2", "k2": "kprobe/vfs_read+0x10", "k3": "kretprobe/vfs_write"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("sections = %v, want %v", got, want)
	}
	// Bound arguments on the kernel need vmlinux; lines need kernel DWARF.
	_, err = Bind(shape(map[string][]string{"k": {"ctx", "n"}}, nil, "k: vfs_read n"), Options{})
	if !strings.Contains(diagText(err), "vmlinux") {
		t.Errorf("kernel binding: %v", diagText(err))
	}
	_, err = Bind(shape(map[string][]string{"k": {"ctx"}}, nil, "k: fs/read_write.c:600"), Options{})
	if !strings.Contains(diagText(err), "FUNC") {
		t.Errorf("kernel line probe: %v", diagText(err))
	}
}

func TestResolveDiagnostics(t *testing.T) {
	// Bindings without a probe, and a probe naming a handler that does not exist.
	_, err := Bind(shape(map[string][]string{"prog": {"ctx", "a"}}, nil), Options{Binds: []string{"prog.a=x"}})
	if !strings.Contains(diagText(err), "no probe") {
		t.Errorf("bindings without probe: %q", diagText(err))
	}
	_, err = Bind(shape(map[string][]string{"prog": {"ctx"}}, nil, "other: f"), Options{})
	if !strings.Contains(diagText(err), `"other"`) || !strings.Contains(diagText(err), "h.c:100") {
		t.Errorf("unknown handler: %q", diagText(err))
	}
}

// buildTarget builds tests/dwarf/target.c with gcc -g -O2.
func buildTarget(t *testing.T) string {
	t.Helper()
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("gcc not installed")
		}
		t.Skip("gcc not installed")
	}
	src, _ := filepath.Abs(filepath.Join("..", "tests", "dwarf", "target.c"))
	out := filepath.Join(t.TempDir(), "target")
	if b, err := exec.Command(gcc, "-g", "-O2", "-no-pie", "-o", out, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, b)
	}
	return out
}

func TestResolveUserSites(t *testing.T) {
	bin := buildTarget(t)
	sh := shape(map[string][]string{"e": {"ctx", "a", "bb"}, "r": {"ctx", "ret"}}, nil, "e: params a bb=b; r: loop_sum%return ret=$retval")
	hs, err := Bind(sh, Options{Binary: bin, DefaultProbe: "params"})
	if err != nil {
		t.Fatal(diagText(err))
	}
	abs, _ := filepath.Abs(bin)
	got := map[string]HandlerSite{}
	for _, h := range hs {
		if len(h.Sites) != 1 {
			t.Fatalf("%s: %d sites", h.Name, len(h.Sites))
		}
		got[h.Name] = h.Sites[0]
	}
	if s := got["e"]; s.Section != "uprobe/"+abs+":params+0x0" || len(s.Bindings) != 2 || s.Bindings[1].Describe() != "b = rsi" {
		t.Errorf("e: section %q bindings %d", s.Section, len(s.Bindings))
	}
	if s := got["r"]; s.Section != "uretprobe/"+abs+":loop_sum" {
		t.Errorf("r: section %q", s.Section)
	}
	// DefaultProbe on a uretprobe-section handler becomes params%return,
	// where a and b are not visible: a diagnostic naming them, not a guess.
	_, err = Bind(shape(map[string][]string{"d": {"ctx", "a", "b"}}, map[string]string{"d": "uretprobe"}), Options{Binary: bin, DefaultProbe: "params"})
	if txt := diagText(err); !strings.Contains(txt, "params%return") || !strings.Contains(txt, `"a"`) {
		t.Errorf("uretprobe handler with DefaultProbe: %q", txt)
	}
}

// Former bugs, now asserted: a handler without parameters is diagnosed, a
// binding for a parameter the handler lacks is an error, and two config
// entries for one handler are an error.
func TestBindingMistakes(t *testing.T) {
	t.Run("NoParamsHandler", func(t *testing.T) {
		_, err := Bind(shape(map[string][]string{"prog": {}}, nil, "prog: /bin/true:main"), Options{})
		if err == nil || !strings.Contains(diagText(err), "pt_regs") {
			t.Errorf("err = %v, want the ctx-parameter diagnostic", err)
		}
	})
	t.Run("UnknownArgument", func(t *testing.T) {
		bin := buildTarget(t)
		_, err := Bind(shape(map[string][]string{"prog": {"ctx", "a"}}, nil, "prog: params a aa=b"), Options{Binary: bin})
		if err == nil || !strings.Contains(diagText(err), `no parameter "aa"`) {
			t.Errorf("err = %v, want a diagnostic naming aa", err)
		}
	})
	t.Run("DuplicateConfigEntry", func(t *testing.T) {
		bin := buildTarget(t)
		_, err := Bind(shape(map[string][]string{"prog": {"ctx", "a"}}, nil, "prog: params a", "prog: loop_sum a=n"), Options{Binary: bin})
		if err == nil || !strings.Contains(diagText(err), "more than one") {
			t.Errorf("err = %v, want a duplicate-entry diagnostic", err)
		}
	})
}

// A floating-point variable is refused once, by bind, naming the handler,
// the probe and the argument.
func TestFloatBindingRefused(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "fp.c")
	os.WriteFile(src, []byte("volatile double sink;\n__attribute__((noinline)) void fp(double d, int k)\n{\n\tsink = d * k;\n}\nint main(void) { fp(1.5, 2); return 0; }\n"), 0o644)
	bin := filepath.Join(dir, "fp")
	if b, err := exec.Command(gcc, "-g", "-O0", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, b)
	}
	_, err = Bind(shape(map[string][]string{"h": {"ctx", "k", "d"}}, nil, "h: fp:2 k d"), Options{Binary: bin})
	msg := diagText(err)
	if strings.Count(msg, "floating point") != 1 || !strings.Contains(msg, `handler "h"`) || !strings.Contains(msg, "fp+0x") || !strings.Contains(msg, `argument "d"`) {
		t.Errorf("float binding: %q", msg)
	}
}

// Static functions of one name in two compile units: the section names the
// site by file offset (a loader resolves "helper" to one of the two,
// cilium/ebpf to the last in the symbol table, so the probe would land in
// the other copy, possibly inside an instruction), and so does the
// entry-value helper's.
func TestAmbiguousFunctionAttachesByFileOffset(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("skipped: gcc not installed")
	}
	dir := t.TempDir()
	files := map[string]string{
		"main.c": "int fa(int); long fb(long, int);\nint main(int argc, char **argv) { return fa(argc) + (int)fb(argc, 2); }\n",
		"a.c":    "static __attribute__((noinline)) int helper(int x)\n{\n\treturn x * 2;\n}\nint fa(int x) { return helper(x) + 1; }\n",
		"b.c":    "__attribute__((noinline)) void sink(long x) { __asm__ volatile(\"\" : : \"r\"(x) : \"memory\"); }\nstatic __attribute__((noinline)) long helper(long y, int z)\n{\n\tsink(y * 3);\n\tsink(z);\n\treturn z + 1;\n}\nlong fb(long y, int z) { return helper(y, z) + 1; }\n",
	}
	args := []string{"-g", "-O2", "-o", filepath.Join(dir, "dup")}
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	if out, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	bin := filepath.Join(dir, "dup")
	sh := shape(map[string][]string{"h": {"ctx", "x"}, "u": {"ctx"}, "e": {"ctx", "y"}}, nil,
		"h: helper@a.c x; u: fa; e: helper@b.c:4 y")
	hs, err := Bind(sh, Options{Binary: bin})
	if err != nil {
		t.Fatal(diagText(err))
	}
	got := map[string]HandlerSite{}
	for _, h := range hs {
		got[h.Name] = h.Sites[0]
	}
	sec := regexp.MustCompile(`^uprobe(\.s)?/` + regexp.QuoteMeta(bin) + `:0x[0-9a-f]+$`)
	if s := got["h"].Section; !sec.MatchString(s) {
		t.Errorf("h: section %q, want uprobe/BIN:0xFILEOFFSET", s)
	}
	if s := got["u"].Section; !strings.HasSuffix(s, ":fa+0x0") {
		t.Errorf("u: section %q, want FUNC+0xOFF for a unique name", s)
	}
	if s := got["e"]; !sec.MatchString(s.Section) || s.EntrySection != "" && !sec.MatchString(s.EntrySection) {
		t.Errorf("e: section %q entry section %q, want uprobe/BIN:0xFILEOFFSET", s.Section, s.EntrySection)
	}
}

// A bare SEC("uprobe") with --load PROBE and no binary is an error that
// says to add -x, never a kprobe; a bare SEC("kprobe") stays a kprobe
// even when the command's binary is known.
func TestResolveUprobeNeedsBinary(t *testing.T) {
	sh := shape(map[string][]string{"u": {"ctx"}, "r": {"ctx"}}, map[string]string{"u": "uprobe", "r": "uretprobe"})
	_, err := Bind(sh, Options{DefaultProbe: "process"})
	if got := diagText(err); strings.Count(got, "add -x BINARY") != 2 || strings.Contains(got, "kprobe") {
		t.Errorf("uprobes without a binary: %q", got)
	}
	hs, err := Bind(shape(map[string][]string{"k": {"ctx"}}, map[string]string{"k": "kprobe"}), Options{DefaultProbe: "vfs_read", CommandBinary: "/bin/true"})
	if err != nil || len(hs) != 1 || hs[0].Sites[0].Section != "kprobe/vfs_read" {
		t.Errorf("kprobe with a command binary: %v %v", hs, diagText(err))
	}
}
