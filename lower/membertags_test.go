package lower

import (
	"slices"
	"testing"

	"github.com/cilium/ebpf/btf"
)

// A btf_decl_tag after a struct member's declarator becomes the member's
// tag (clang's DECL_TAG with component_idx); after several declarators,
// the last one's only; nested struct definitions count too.
func TestMemberDeclTags(t *testing.T) {
	m, err := lowerSource(t, `
#define TAG(s) __attribute__((btf_decl_tag(s)))
struct inner { int x TAG("in"); };
struct key {
	int pid;
	long where TAG("bpfcc:stackid");
	unsigned long long frames[4] TAG("bpfcc:ustack") TAG("two");
	int a, b TAG("last");
	struct { int y TAG("nested"); } n;
	struct inner i;
};
struct {
	int (*type)[1];
	struct key *key;
	int *value;
	int (*max_entries)[4];
} m __attribute__((section(".maps")));
`)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Maps) != 1 {
		t.Fatalf("%d maps", len(m.Maps))
	}
	var key *btf.Struct
	for _, mb := range m.Maps[0].BTF.Members {
		if mb.Name == "key" {
			key, _ = btf.UnderlyingType(mb.Type.(*btf.Pointer).Target).(*btf.Struct)
		}
	}
	if key == nil {
		t.Fatal("no key struct")
	}
	want := map[string][]string{"where": {"bpfcc:stackid"}, "frames": {"bpfcc:ustack", "two"}, "b": {"last"}}
	for _, mb := range key.Members {
		if !slices.Equal(mb.Tags, want[mb.Name]) {
			t.Errorf("member %s: tags %q, want %q", mb.Name, mb.Tags, want[mb.Name])
		}
		var sub *btf.Struct
		sub, _ = btf.UnderlyingType(mb.Type).(*btf.Struct)
		if sub != nil {
			w := map[string]string{"n": "nested", "i": "in"}[mb.Name]
			if len(sub.Members) != 1 || !slices.Equal(sub.Members[0].Tags, []string{w}) {
				t.Errorf("member %s: inner tags %v, want %q", mb.Name, sub.Members, w)
			}
		}
	}
}
