package lower

import (
	"slices"
	"testing"

	"github.com/cilium/ebpf/btf"
)

// A member's btf_decl_tag after its declarator (`__contains`) and a
// btf_type_tag on a pointer's target (`__kptr`) reach the BTF as clang
// emits them: the kernel reads both from a map value's type.
func TestMemberAndPointerTags(t *testing.T) {
	m, err := lowerSource(t, `
struct node { int key; };
struct root { long opaque[2]; };
struct value {
	struct node __attribute__((btf_type_tag("kptr"))) *n;
	struct node *plain;
	struct root r __attribute__((btf_decl_tag("contains:node:key")));
};
struct value v;
struct node w;
int f(void *ctx) { return v.n != 0; }
`)
	if err != nil {
		t.Fatal(err)
	}
	var st *btf.Struct
	var node btf.Type
	for _, g := range m.Globals {
		switch g.Name {
		case "v":
			st, _ = g.BTF.(*btf.Struct)
		case "w":
			node = g.BTF
		}
	}
	if st == nil || node == nil {
		t.Fatalf("globals v and w not found with struct BTF")
	}
	tag, ok := st.Members[0].Type.(*btf.Pointer).Target.(*btf.TypeTag)
	if !ok || tag.Value != "kptr" || tag.Type != node {
		t.Errorf("member n: pointer target %v, want TYPE_TAG kptr of the one struct node", st.Members[0].Type.(*btf.Pointer).Target)
	}
	if target := st.Members[1].Type.(*btf.Pointer).Target; target != node {
		t.Errorf("member plain: pointer target %v, want struct node", target)
	}
	if got := st.Members[2].Tags; !slices.Equal(got, []string{"contains:node:key"}) {
		t.Errorf("member r: tags %q, want contains:node:key", got)
	}
}

// A section attribute among the specifiers of a pointer variable
// (`SEC(".bss.A") static struct s __kptr *p`, which cc moves to the
// pointed-to type) is the variable's: a kptr in ".bss" would make the
// kernel refuse the mmapable .bss map.
func TestPointerVariableSection(t *testing.T) {
	m, err := lowerSource(t, `
struct node { int key; };
__attribute__((section(".bss.A"))) static struct node __attribute__((btf_type_tag("kptr"))) *p;
int f(void *ctx) { return p != 0; }
`)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range m.Globals {
		if g.Name == "p" && g.Section != ".bss.A" {
			t.Errorf("p: section %q, want .bss.A", g.Section)
		}
	}
}
