package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The command uses the header cache unless --no-cache or BPFCC_CACHE=off.
func TestCacheFlag(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/x")
	t.Setenv("BPFCC_CACHE", "")
	for _, tc := range []struct {
		args []string
		env  string
		want string
	}{
		{[]string{"p.c"}, "", "/x/bpfcc"},
		{[]string{"--no-cache", "p.c"}, "", ""},
		{[]string{"p.c"}, "off", ""},
	} {
		t.Setenv("BPFCC_CACHE", tc.env)
		c, err := parseArgs(tc.args)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.compileOptions().CacheDir; got != tc.want {
			t.Errorf("%q BPFCC_CACHE=%q: CacheDir %q, want %q", tc.args, tc.env, got, tc.want)
		}
	}
}

// -d=cache says what the header cache did: the first compile of a file
// makes its preamble's entry, the second reads it.
func TestCacheDebug(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", dir)
	t.Setenv("BPFCC_CACHE", "")
	src := filepath.Join(dir, "p.c")
	os.WriteFile(src, []byte("#include <linux/bpf.h>\n#include <bpf/bpf_helpers.h>\nSEC(\"xdp\") int p(void *ctx) { return 2; }\nchar LICENSE[] SEC(\"license\") = \"GPL\";\n"), 0o644)
	for _, want := range []string{"made and stored", "read from the cache"} {
		var out, errb bytes.Buffer
		if code := run([]string{"-d=cache", src, "-o", filepath.Join(dir, "p.o")}, &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		if got := errb.String(); got != "bpfcc: preamble: "+want+"\n" {
			t.Errorf("-d=cache printed %q, want %q", got, want)
		}
	}
}
