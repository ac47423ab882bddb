package main

import "testing"

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
