package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestRunArgsUsage: run options that would run forever or trace nothing
// are usage errors (exit 2) with a message naming the option.
func TestRunArgsUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--load", "p.c", "--duration", "-1s"}, `--duration "-1s": want a positive duration`},
		{[]string{"--load", "p.c", "--interval", "0s"}, `--interval "0s": want a positive duration`},
		{[]string{"--load", "p.c", "--interval", "often"}, `--interval "often": want a positive duration`},
		{[]string{"--load", "p.c", "--duration", "0"}, `--duration "0": want a positive duration`},
		{[]string{"--load", "p.c", "--duration", "soon"}, `--duration "soon": want a duration such as`},
		{[]string{"--load", "p.c", "-c", ""}, "-c needs a command to run"},
		{[]string{"--load", "p.c", "-c", "  "}, "-c needs a command to run"},
		{[]string{"--load", "p.c", "-c", "./t 'unterminated"}, "unterminated ' quote"},
		{[]string{"--load", "p.c", "-c", "./t | wc"}, `'|' needs a shell`},
		{[]string{"--load", "p.c", "-p", "-5"}, `-p "-5": want the id of a running process`},
		{[]string{"--load", "p.c", "-p", "abc"}, `-p "abc": want the id of a running process`},
		{[]string{"--load", "p.c", "-p", "0"}, `-p "0": want the id`},
		{[]string{"--load", "p.c", "-p", "42", "-c", "./t 3"}, "-p cannot be combined with a command"},
		{[]string{"--load", "p.c", "-p", "42", "--", "./t", "3"}, "-p cannot be combined with a command"},
		{[]string{"--load", "p.c", "--"}, "'--' needs a command"},
	} {
		var so, se bytes.Buffer
		code := run(tc.args, &so, &se)
		if code != exitUsage || !strings.Contains(se.String(), tc.want) || strings.Contains(se.String(), "strconv") {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and %q", tc.args, code, se.String(), exitUsage, tc.want)
		}
	}
	c, err := parseArgs([]string{"--load", "p.c", "-c", `./t 'a b' "c \"d\"" e\ f`})
	if err != nil || !slices.Equal(c.command, []string{"./t", "a b", `c "d"`, "e f"}) {
		t.Errorf("-c split: %q, %v", c.command, err)
	}
}

// TestOutputIsInput: -o naming the input file is refused, as gcc does, and
// the source is left as it was (it was replaced by the object).
func TestOutputIsInput(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "x.c")
	text := "int x;\n"
	os.WriteFile(src, []byte(text), 0o644)
	link := filepath.Join(dir, "y.c")
	os.Symlink(src, link)
	for _, args := range [][]string{
		{src, "-o", src},
		{src, "-o" + src},
		{src, "-o", filepath.Join(dir, ".", "x.c")},
		{src, "-o", link},
		{"-S", src, "-o", src},
	} {
		var so, se bytes.Buffer
		code := run(args, &so, &se)
		if code != exitUsage || !strings.Contains(se.String(), "is the same as output file") {
			t.Errorf("%q: exit %d, %q", args, code, se.String())
		}
		if b, _ := os.ReadFile(src); string(b) != text {
			t.Fatalf("%q overwrote the source: %q", args, b)
		}
	}
	var so, se bytes.Buffer
	if code := run([]string{src, "-o", filepath.Join(dir, "x.o")}, &so, &se); code != exitOK {
		t.Errorf("a different -o: exit %d %s", code, se.String())
	}
}

// TestLoadHelperStaysHelper: with --load PROBE, a static noinline helper
// with two parameters (one named like a parameter of the probed function)
// stays a helper: the run succeeds and counts every call (it was rewritten
// into a DWARF-bound program that the verifier rejected). -v prints .bss by
// variable name.
func TestLoadHelperStaysHelper(t *testing.T) {
	e := needLoad(t)
	src := filepath.Join(t.TempDir(), "helper.c")
	os.WriteFile(src, []byte(`#include <bpfcc.h>
__u64 total;
static __attribute__((noinline)) int add(__u64 *p, long size)
{
	__sync_fetch_and_add(p, 1);
	return 0;
}
SEC("uprobe")
int h(struct pt_regs *ctx)
{
	return add(&total, PT_REGS_PARM1(ctx));
}
char LICENSE[] SEC("license") = "GPL";
`), 0o644)
	r := e.mustRun(t, "--load", "process", src, "-x", e.target, "-v", "-c", e.target+" 3")
	if !strings.Contains(r.stdout, ".bss:\n  total = 3\n") {
		t.Errorf("want .bss total = 3:\n%v", r)
	}
}

// TestLoadRingbufLost: records a full BPFCC_OUTPUT ring buffer refuses are
// counted and reported like perf losses (they were not reported at all):
// events printed + lost = calls, with both bpfcc_output and bpfcc_reserve.
func TestLoadRingbufLost(t *testing.T) {
	e := needLoad(t)
	src := filepath.Join(t.TempDir(), "flood.c")
	os.WriteFile(src, []byte(`#define BPFCC_OUTPUT_BYTES 4096
#include <bpfcc.h>
struct big { __u64 seq; char pad[400]; };
BPFCC_OUTPUT(big, struct big);
BPFCC_OUTPUT(res, struct big);
__u64 seq;
SEC("uprobe")
int flood(struct pt_regs *ctx)
{
	struct big b = {};
	b.seq = __sync_fetch_and_add(&seq, 1);
	bpfcc_output(big, &b);
	struct big *p = bpfcc_reserve(res);
	if (p) {
		p->seq = b.seq;
		bpf_ringbuf_submit(p, 0);
	}
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
`), 0o644)
	const calls = 3000
	for _, json := range []bool{false, true} {
		args := []string{"--load", "process", src, "-x", e.target, "-c", fmt.Sprintf("%s %d", e.target, calls)}
		if json {
			args = append(args, "--json")
		}
		r := e.mustRun(t, args...)
		for _, m := range []string{"big", "res"} {
			var events, lost int
			if json {
				events = strings.Count(r.stdout, `"map":"`+m+`","type":"event"`)
				if s := regexp.MustCompile(`\{"count":(\d+),"map":"` + m + `","type":"lost"\}`).FindStringSubmatch(r.stdout); s != nil {
					lost, _ = strconv.Atoi(s[1])
				}
			} else {
				events = strings.Count(r.stdout, "\n"+m+": seq=")
				if strings.HasPrefix(r.stdout, m+": seq=") {
					events++
				}
				if s := regexp.MustCompile(m + `: (\d+) events lost`).FindStringSubmatch(r.stderr); s != nil {
					lost, _ = strconv.Atoi(s[1])
				}
			}
			t.Logf("json=%v %s: %d events, %d lost", json, m, events, lost)
			if lost == 0 || events+lost != calls {
				t.Errorf("json=%v %s: %d events + %d lost, want %d with some lost\n%s", json, m, events, lost, calls, r.stderr)
			}
		}
		if strings.Contains(r.stdout, "bpfcc_lost") {
			t.Errorf("the drop counters are printed as maps")
		}
	}
}

// TestCommandBeforeLoad: -c before --load is the command to trace, not
// cc's "compile only".
func TestCommandBeforeLoad(t *testing.T) {
	c, err := parseArgs([]string{"-c", "./demo 3", "--load", "process", "p.c", "-x", "./demo"})
	if err != nil {
		t.Fatal(err)
	}
	if !c.load || !slices.Equal(c.command, []string{"./demo", "3"}) || c.probe != "process" || c.input != "p.c" {
		t.Errorf("config = load %v, command %q, probe %q, input %q; want --load of p.c at process tracing ./demo 3", c.load, c.command, c.probe, c.input)
	}
	// Without --load, -c still means compile only.
	if c, err := parseArgs([]string{"-c", "p.c"}); err != nil || c.load || c.input != "p.c" || c.command != nil {
		t.Errorf("-c p.c: %+v, %v", c, err)
	}
}
