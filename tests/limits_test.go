package tests

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc"
	bdiag "github.com/bpfcc/bpfcc/diag"
	"github.com/bpfcc/bpfcc/frontend"
)

// Each test below drives one limit bpfcc enforces and pins its message. A
// limit is only useful if the user can tell which one was hit and where.

const limitPrologue = "#include <linux/bpf.h>\n#include <bpf/bpf_helpers.h>\n"
const limitLicense = "char LICENSE[] SEC(\"license\") = \"GPL\";\n"

// rejectSource compiles src as limit.c and returns its diagnostics; it fails
// t unless compilation fails with a diagnostic list.
func rejectSource(t *testing.T, src string) bdiag.List {
	t.Helper()
	res, err := bpfcc.Compile("limit.c", bpfcc.Options{Source: []byte(src)})
	if err == nil {
		t.Fatalf("compiled (%d-byte object); want an error", len(res.Object))
	}
	var dl bdiag.List
	if !errors.As(err, &dl) || errors.Is(err, bpfcc.ErrInternal) {
		t.Fatalf("want diagnostics, got %T: %v", err, err)
	}
	return dl
}

// wantDiagAt requires an error at line:col (col 0: any) containing every
// text; line 0 means a diagnostic about the whole file.
func wantDiagAt(t *testing.T, dl bdiag.List, line, col int, texts ...string) {
	t.Helper()
	for _, d := range dl {
		if d.Severity != bdiag.Error || d.File != "limit.c" || d.Line != line || (col != 0 && d.Col != col) {
			continue
		}
		ok := true
		for _, s := range texts {
			ok = ok && strings.Contains(d.Msg, s)
		}
		if ok {
			return
		}
	}
	t.Errorf("no error at limit.c:%d:%d containing %q; got:\n%v", line, col, texts, dl.Error())
}

func TestLimitMacroExpansion(t *testing.T) {
	if testing.Short() {
		t.Skip("expands 50M tokens before giving up")
	}
	var b strings.Builder
	b.WriteString("#define m0 1+\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "#define m%d m%d m%d\n", i, i-1, i-1)
	}
	b.WriteString("int x = m40 1;\n") // line 42: 2^40 tokens
	dl := rejectSource(t, b.String())
	wantDiagAt(t, dl, 42, 9, "macro expansion limit exceeded", fmt.Sprint(frontend.ExpansionLimit))
	if len(dl) != 1 {
		t.Errorf("want one diagnostic, got:\n%v", dl.Error())
	}
}

func TestLimitSourceSize(t *testing.T) {
	src := "int x;\n" + strings.Repeat(" ", frontend.MaxSourceSize)
	dl := rejectSource(t, src)
	wantDiagAt(t, dl, 0, 0, fmt.Sprintf("source is %d bytes, over the %d-byte limit", len(src), frontend.MaxSourceSize))
}

func TestLimitStackFrame(t *testing.T) {
	src := limitPrologue + `
SEC("socket")
int big_stack(struct __sk_buff *skb)
{
	volatile char buf[600];

	buf[0] = skb->len;
	buf[599] = buf[0];
	return buf[599];
}
` + limitLicense
	wantDiagAt(t, rejectSource(t, src), 5, 5, `function "big_stack"`, "stack frame of 600 bytes", "512-byte limit")
}

func TestLimitStackFrameSubprog(t *testing.T) {
	src := limitPrologue + `
static __attribute__((noinline)) int helper(int x)
{
	volatile char buf[513];

	buf[0] = x;
	buf[512] = buf[0];
	return buf[512];
}

SEC("socket")
int caller(struct __sk_buff *skb)
{
	return helper(skb->len);
}
` + limitLicense
	wantDiagAt(t, rejectSource(t, src), 4, 0, `function "helper"`, "stack frame of 520 bytes", "512-byte limit") // 513 rounded up to 8
}

func TestLimitCallArguments(t *testing.T) {
	src := limitPrologue + `
static __attribute__((noinline)) int five(int a, int b, int c, int d, int e)
{
	return a + b + c + d + e;
}

SEC("socket")
int too_many(struct __sk_buff *skb)
{
	return five(skb->len, 1, 2, 3, 4, 5);
}
` + limitLicense
	wantDiagAt(t, rejectSource(t, src), 12, 9, "call to function five passes 6 arguments", "at most 5")
}

func TestLimitParameters(t *testing.T) {
	src := limitPrologue + `
static __attribute__((noinline)) int six(int a, int b, int c, int d, int e, int f)
{
	return a + b + c + d + e + f;
}

SEC("socket")
int too_many(struct __sk_buff *skb)
{
	return six(skb->len, 1, 2, 3, 4, 5);
}
` + limitLicense
	wantDiagAt(t, rejectSource(t, src), 4, 0, `function "six" has 6 parameters`, "at most 5")
}

// TestLimitErrorCount: a file with many errors reports the first
// diag.MaxErrors of them and says how many more there were.
func TestLimitErrorCount(t *testing.T) {
	var b strings.Builder
	n := bdiag.MaxErrors + 10
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "int f%d(void) { return undeclared%d; }\n", i, i)
	}
	dl := rejectSource(t, b.String())
	if got := len(dl.Errors()); got != bdiag.MaxErrors {
		t.Errorf("%d errors reported, want %d", got, bdiag.MaxErrors)
	}
	wantDiagAt(t, dl, 1, 0, "use of undeclared identifier 'undeclared0'")
	last := dl[len(dl)-1]
	if last.Severity != bdiag.Note || !strings.Contains(last.Msg, "10 more not shown") {
		t.Errorf("last diagnostic %v, want a note counting the rest", last)
	}
}

// A forward branch over more than 32767 instructions: below -mcpu=v4 a
// positioned error, on v4 a gotol the kernel runs, with the value C gives.
func TestLimitLongJump(t *testing.T) {
	const n = 17000 // two instructions each
	var b strings.Builder
	b.WriteString("// RUN: socket\n// CPU: v4\n")
	h := uint32(7)
	var body strings.Builder
	for i := 0; i < n; i++ {
		k := uint32(i*2654435761) & 0xffff
		fmt.Fprintf(&body, "\t\th = (h ^ %d) * 31;\n", k)
		h = (h ^ k) * 31
	}
	fmt.Fprintf(&b, "// EXPECT: retval=%d\n", h)
	b.WriteString(limitPrologue + "__u32 seed = 7;\n\nSEC(\"socket\")\nint long_jump(struct __sk_buff *skb)\n{\n\t__u32 h = seed;\n\n\tif (seed < 1000) {\n")
	b.WriteString(body.String() + "\t}\n\treturn h;\n}\n" + limitLicense)
	src := b.String()

	// At the jump: the if statement whose branch spans the body.
	wantDiagAt(t, rejectSource(t, strings.Replace(src, "// CPU: v4\n", "", 1)), 12, 2,
		`function "long_jump" is too large`, "-mcpu=v4 (gotol)")

	path := filepath.Join(t.TempDir(), "long_jump.c")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := parseProgram(path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res, err := compileBPFCC(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Listing, "gotol") {
		t.Fatalf("no gotol in the listing of a %d-instruction function", 2*n)
	}
	requireKernel(t)
	obs, err := runProgram(p, res.Spec)
	if err != nil {
		t.Fatal(err)
	}
	reportErrors(t, checkObservations(p, res.Spec, obs))
}
