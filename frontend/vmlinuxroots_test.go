package frontend

import (
	"regexp"
	"slices"
	"testing"
)

// A helper declaration's identifiers are roots only when the helper is;
// comments never are, string literals do not hide code after them.
func TestScanHeaderDefersHelpers(t *testing.T) {
	hdr := []byte(`/* struct in_comment */
// struct line_comment
static long (* const bpf_used)(struct used_arg *a) = (void *) 1;
static long (*bpf_unused)(struct unused_arg *a,
	typedef_arg n, struct by_value v) = (void *) 2;
#define CALLS_IT(x) bpf_by_macro(x)
static void *(* const bpf_by_macro)(struct macro_arg *a) = (void *) 3;
static int plain(struct plain_arg *p) { return 0; }
const char *s = "http://x"; int after_string;
`)
	roots := map[string]bool{}
	helpers := scanHeader(hdr, roots)
	roots["bpf_used"] = true // as the program's call makes it
	addHelperRoots(helpers, roots)
	for _, want := range []string{"used_arg", "macro_arg", "plain_arg", "after_string", "CALLS_IT", "typedef_arg", "by_value"} {
		if !roots[want] {
			t.Errorf("%s is not a root", want)
		}
	}
	for _, gone := range []string{"unused_arg", "in_comment", "line_comment", "bpf_unused"} {
		if roots[gone] {
			t.Errorf("%s is a root", gone)
		}
	}
	var names []string
	for _, h := range helpers {
		names = append(names, h.name)
	}
	if !slices.Equal(names, []string{"bpf_used", "bpf_unused", "bpf_by_macro"}) {
		t.Errorf("helpers %q", names)
	}
}

// TestScanHeaderSkipsNonReferences: a forward declaration (`struct
// tcp_sock;`, as bpf_helper_defs.h opens with one per record) and a
// helper parameter's name (`*xfrm_state`) name no record the program
// needs whole; the records a definition or a used helper's parameter
// names still are roots.
func TestScanHeaderSkipsNonReferences(t *testing.T) {
	hdr := []byte(`struct tcp_sock;
union fwd_union;
struct defined { struct member_rec *m; };
static long (* const bpf_used)(struct bpf_xfrm_state *xfrm_state, __u32 size, void *) = (void *) 66;
static inline int peek(struct peeked *p) { return p->field; }
`)
	roots := map[string]bool{}
	helpers := scanHeader(hdr, roots)
	roots["bpf_used"] = true
	addHelperRoots(helpers, roots)
	for _, want := range []string{"defined", "member_rec", "bpf_xfrm_state", "__u32", "peeked", "field"} {
		if !roots[want] {
			t.Errorf("%s is not a root", want)
		}
	}
	for _, gone := range []string{"tcp_sock", "fwd_union", "xfrm_state", "size"} {
		if roots[gone] {
			t.Errorf("%s is a root", gone)
		}
	}
}

func TestScanIncludesMatchesRegexp(t *testing.T) {
	re := regexp.MustCompile(`(?m)^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]`)
	inputs := []string{
		"#include <a.h>\n#include \"b.h\"\n",
		"  #  include\t<c/d.h> // x\n#include_next <e.h>\n#includ <f.h>\n",
		"x #include <g.h>\n#include <>\n#include \"h.h>\n#include <unterminated\n",
		"#include <spans\nlines> #include <same-line.h>\n#include <after.h>",
		"#define X\n\t#include \"i.h\"\r\n#import <j.h>\n#include<k.h>",
		"", "#", "#include", "#include <", "\n\n#include \"l.h\"",
	}
	for _, in := range inputs {
		var want, got []string
		for _, m := range re.FindAllSubmatch([]byte(in), -1) {
			want = append(want, string(m[1])+string(m[2]))
		}
		scanIncludes([]byte(in), func(delim byte, name []byte) {
			got = append(got, string(delim)+string(name))
		})
		if !slices.Equal(got, want) {
			t.Errorf("scanIncludes(%q) = %q, the regexp finds %q", in, got, want)
		}
	}
}
