package dwarfvars

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// C++ and Go names in probes: '::' is part of a name, never the line
// separator; a parameter list picks an overload; FILE.go:LINE is a file.
func TestParseProbeQualified(t *testing.T) {
	for spec, want := range map[string]Probe{
		"Counter::add":                    {Kind: ProbeFunc, Func: "Counter::add"},
		"ns::scale":                       {Kind: ProbeFunc, Func: "ns::scale"},
		"ns::C::add:3":                    {Kind: ProbeFuncLine, Func: "ns::C::add", Line: 3},
		"ns::C::add+0x10":                 {Kind: ProbeFuncOffset, Func: "ns::C::add", Offset: 16},
		"ns::C::add%return":               {Kind: ProbeFunc, Func: "ns::C::add", Return: true},
		"/bin/x:ns::C::add:2":             {Kind: ProbeFuncLine, Func: "ns::C::add", Line: 2, Binary: "/bin/x"},
		"C::add(long)":                    {Kind: ProbeFunc, Func: "C::add(long)"},
		"ns::f(const ns::T &, long):4":    {Kind: ProbeFuncLine, Func: "ns::f(const ns::T &, long)", Line: 4},
		"C::~C":                           {Kind: ProbeFunc, Func: "C::~C"},
		"main.go:14":                      {Kind: ProbeFileLine, File: "main.go", Line: 14},
		"main.compute":                    {Kind: ProbeFunc, Func: "main.compute"},
		"main.(*Acc).Add":                 {Kind: ProbeFunc, Func: "main.(*Acc).Add"},
		"main.(*Acc).Add+0x4":             {Kind: ProbeFuncOffset, Func: "main.(*Acc).Add", Offset: 4},
		"helper@a.cc:3":                   {Kind: ProbeFuncLine, Func: "helper", Src: "a.cc", Line: 3},
		"ns::helper@dir/a.cc%return":      {Kind: ProbeFunc, Func: "ns::helper", Src: "dir/a.cc", Return: true},
		"/opt/app:main.(*Acc).Add%return": {Kind: ProbeFunc, Func: "main.(*Acc).Add", Return: true, Binary: "/opt/app"},
	} {
		p, err := ParseProbe(spec)
		if err != nil {
			t.Errorf("%s: %v", spec, err)
			continue
		}
		want.Spec = spec
		if p != want {
			t.Errorf("%s: %+v, want %+v", spec, p, want)
		}
	}
	for _, bad := range []string{"C:::add", "::f", "ns::", "C::add(long", "C::add)x(", "f:x", "a b"} {
		if p, err := ParseProbe(bad); err == nil {
			t.Errorf("%s: parsed as %+v", bad, p)
		}
	}
}

func TestNormParams(t *testing.T) {
	for in, want := range map[string]string{
		"long int":                        "long",
		"const geo::Counter &, long":      "constCounter&,long",
		"const class Counter &, long int": "constCounter&,long",
		"void":                            "",
		"int, int":                        "int,int",
		"long unsigned int":               "unsignedlong",
	} {
		if got := normParams(in); got != want {
			t.Errorf("normParams(%q) = %q, want %q", in, got, want)
		}
	}
}

// Overloads: a name without a parameter list lists the candidates; a
// parameter list picks one (as a user writes it: qualified types, blanks,
// gcc's "long int"); this->member reaches a base class; a reference
// parameter is seen through; a namespaced global binds by its qualified
// name; sites print the qualified name, section names keep the symbol.
func TestCXXProbes(t *testing.T) {
	src := map[string]string{"t.cc": `namespace geo {
long g_calls = 7;
struct Base { int id; long weight; };
class Counter : public Base {
public:
	long total;
	Counter(int i) : total(0) { id = i; weight = i; }
	__attribute__((noinline)) long add(long v);
	__attribute__((noinline)) long add(int a, int b);
};
long Counter::add(long v) { total += v * weight; g_calls++; return total; }
long Counter::add(int a, int b) { total += a - b; return total; }
__attribute__((noinline)) long scale(const Counter &c, long f) { return c.total * f; }
}
int main(int argc, char **) { geo::Counter c(argc); return (int)(c.add(1L) + c.add(2, 3) + geo::scale(c, 2)); }
`}
	for _, cc := range []string{"g++", "clang++-19"} {
		b := open(t, buildFiles(t, cc, []string{"-g", "-O2"}, src, "t.cc"))
		_, err := b.Resolve(mustProbe(t, "geo::Counter::add"))
		var oe *OverloadError
		if !errors.As(err, &oe) || !strings.Contains(err.Error(), "geo::Counter::add(long)") || !strings.Contains(err.Error(), "geo::Counter::add(int, int)") {
			t.Errorf("%s: overloaded add without parameters: %v", cc, err)
		}
		if _, err := b.Resolve(mustProbe(t, "Counter::add(char)")); !errors.As(err, &oe) {
			t.Errorf("%s: add(char): %v", cc, err)
		}
		for probe, exprs := range map[string][]string{
			"geo::Counter::add(long int)":            {"this->total", "this->id", "this->weight", "v", "geo::g_calls", "total", "weight"},
			"Counter::add(int,int)":                  {"a", "b", "this->total"},
			"geo::scale(const geo::Counter &, long)": {"c.total", "c.id", "f"},
			"scale":                                  {"c.weight"},
		} {
			sites, err := b.Resolve(mustProbe(t, probe))
			if err != nil || len(sites) != 1 {
				t.Errorf("%s: %s: %v %v", cc, probe, sites, err)
				continue
			}
			s := sites[0]
			if !strings.HasPrefix(s.Func, "_ZN3geo") || !strings.HasPrefix(s.String(), "geo::") {
				t.Errorf("%s: %s: site %s (symbol %s)", cc, probe, s, s.Func)
			}
			for _, x := range exprs {
				e, err := ParseExpr(x)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := b.Bind(s, e); err != nil {
					t.Errorf("%s: %s: %s: %v", cc, probe, x, err)
				}
			}
		}
	}
}

// FUNC%return on a Go function is refused with the reason; pkg.Func and
// FILE.go:LINE probes resolve.
func TestGoReturnRefused(t *testing.T) {
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goCmd); err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	src := "package main\n\n//go:noinline\nfunc work(n int) int {\n\tr := n * 3\n\treturn r + 1\n}\n\nfunc main() { println(work(4)) }\n"
	for name, text := range map[string]string{"main.go": src, "go.mod": "module w\n\ngo 1.21\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(goCmd, "build", "-o", "w", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	b := open(t, filepath.Join(dir, "w"))
	_, err := b.Resolve(mustProbe(t, "main.work%return"))
	var ge *GoReturnError
	if !errors.As(err, &ge) || !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "Go") {
		t.Errorf("return probe on a Go function: %v", err)
	}
	for _, p := range []string{"main.work", "main.go:6"} {
		if sites, err := b.Resolve(mustProbe(t, p)); err != nil || len(sites) == 0 {
			t.Errorf("%s: %v %v", p, sites, err)
		}
	}
}
