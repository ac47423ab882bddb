package bind

import (
	"testing"

	"github.com/bpfcc/bpfcc/ir"
)

func TestParseConfig(t *testing.T) {
	ss, err := ParseConfig("prog: func:12 vara=localvara cnt=st->count\n other: /bin/x:main+0x10 n ; third: f%return", ir.Pos{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 3 {
		t.Fatalf("got %d specs", len(ss))
	}
	if ss[0].Handler != "prog" || ss[0].Probe != "func:12" || ss[0].Args["vara"] != "localvara" || ss[0].Args["cnt"] != "st->count" {
		t.Errorf("spec 0 = %+v", ss[0])
	}
	if ss[1].Probe != "/bin/x:main+0x10" || ss[1].Args["n"] != "n" {
		t.Errorf("spec 1 = %+v", ss[1])
	}
	if ss[2].Handler != "third" || ss[2].Probe != "f%return" {
		t.Errorf("spec 2 = %+v", ss[2])
	}
	for _, bad := range []string{"noprobe:", "1bad: f", "h: f =x", "justtext"} {
		if _, err := ParseConfig(bad, ir.Pos{}); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestProbeFromSection(t *testing.T) {
	for sec, want := range map[string]string{
		"uprobe//bin/app:work":       "/bin/app:work",
		"uprobe.s//bin/app:work+0x4": "/bin/app:work+0x4",
		"uretprobe//bin/app:work":    "/bin/app:work%return",
		"uprobe":                     "",
		"kprobe/do_sys_open":         "",
		"xdp":                        "",
	} {
		if got := probeFromSection(sec); got != want {
			t.Errorf("probeFromSection(%q) = %q, want %q", sec, got, want)
		}
	}
}

// A C++ probe's parameter list may contain blanks; it stays one probe.
func TestParseConfigCXXProbe(t *testing.T) {
	ss, err := ParseConfig("h: geo::scale(const geo::Counter &, long) x=c.total g=geo::g_calls", ir.Pos{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 1 || ss[0].Probe != "geo::scale(const geo::Counter &, long)" || ss[0].Args["x"] != "c.total" || ss[0].Args["g"] != "geo::g_calls" {
		t.Errorf("specs = %+v", ss)
	}
}
