package tests

import (
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc"
)

// `return;` in a function returning a value is an error from C99 on, as
// in clang 16+, and allowed under -std=c89 and its like (clang warns).
func TestReturnWithoutValueByStd(t *testing.T) {
	const src = `#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
int flag;
SEC("socket")
int prog(struct __sk_buff *skb)
{
	if (!flag)
		return;
	return 1;
}
char LICENSE[] SEC("license") = "GPL";
`
	for _, c := range []struct {
		std   string
		error bool
	}{{"", true}, {"gnu11", true}, {"gnu89", false}, {"gnu90", false}} {
		_, err := bpfcc.Compile("ret.c", bpfcc.Options{Source: []byte(src), Std: c.std})
		switch {
		case c.error && (err == nil || !strings.Contains(err.Error(), "should return a value")):
			t.Errorf("-std=%q: %v, want the return-mismatch error", c.std, err)
		case !c.error && err != nil:
			t.Errorf("-std=%q: %v, want it compiled", c.std, err)
		}
	}
}
