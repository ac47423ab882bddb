package tests

import (
	"bytes"
	"debug/elf"
	"testing"

	"github.com/bpfcc/bpfcc"
)

// TestDeadStringLiterals: a string literal only an inlined-away call read
// leaves no .rodata behind (clang's objects have none: scx's scx_bpf_error
// hands its format to an empty checker, and bpfcc's objects got a .rodata
// map clang's lack), while one the code still reads stays.
func TestDeadStringLiterals(t *testing.T) {
	const src = `#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
static inline void chk(const char *fmt, ...) {}
SEC("xdp")
int p(struct xdp_md *c)
{
	chk("dead string literal %d", 1);
#ifdef LIVE
	bpf_printk("live %d", 2);
#endif
	return XDP_PASS;
}
char _license[] SEC("license") = "GPL";
`
	rodata := func(defines []string) []byte {
		res, err := bpfcc.Compile("dead.c", bpfcc.Options{Source: []byte(src), Defines: defines})
		if err != nil {
			t.Fatal(err)
		}
		f, err := elf.NewFile(bytes.NewReader(res.Object))
		if err != nil {
			t.Fatal(err)
		}
		s := f.Section(".rodata")
		if s == nil {
			return nil
		}
		data, err := s.Data()
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	if data := rodata(nil); data != nil {
		t.Errorf(".rodata holds %q; want no .rodata section", data)
	}
	if data := rodata([]string{"LIVE"}); !bytes.Contains(data, []byte("live %d")) || bytes.Contains(data, []byte("dead")) {
		t.Errorf(".rodata holds %q; want the live format only", data)
	}
}
