package bpfcc

import (
	"strings"
	"testing"

	"github.com/cilium/ebpf"
)

// A legacy map definition is read by position, as loaders read it:
// iproute2's struct bpf_elf_map names its words size_key, size_value,
// max_elem and flags; its pinning = PIN_GLOBAL_NS becomes pinning by
// name; words with no BTF place are reported, and a definition without
// flags has none. gobpf's "maps/NAME" sections are legacy maps too.
func TestLegacyMapByPosition(t *testing.T) {
	src := `
#include <linux/bpf.h>
struct bpf_elf_map { __u32 type, size_key, size_value, max_elem, flags, id, pinning, inner_id, inner_idx; };
struct bpf_elf_map __attribute__((section("maps"), used)) elf = {
	.type = BPF_MAP_TYPE_HASH, .size_key = 4, .size_value = 8, .max_elem = 16, .flags = BPF_F_NO_PREALLOC, .pinning = 2,
};
struct bpf_elf_map __attribute__((section("maps"), used)) inner = {
	.type = BPF_MAP_TYPE_ARRAY, .size_key = 4, .size_value = 4, .max_elem = 1, .id = 7, .inner_idx = 1,
};
struct four { unsigned int type, key_size, value_size, max_entries; };
struct four __attribute__((section("maps/def4"), used)) def4 = { BPF_MAP_TYPE_ARRAY, 4, 2, 3 };
static void *(*lookup)(void *map, const void *key) = (void *)BPF_FUNC_map_lookup_elem;
__attribute__((section("socket"), used)) int prog(void *ctx)
{
	int k = 0;
	return !!lookup(&elf, &k) + !!lookup(&inner, &k) + !!lookup(&def4, &k);
}
char _license[] __attribute__((section("license"), used)) = "GPL";
`
	res, err := Compile("legacy.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]ebpf.MapSpec{
		"elf":   {Type: ebpf.Hash, KeySize: 4, ValueSize: 8, MaxEntries: 16, Flags: 1, Pinning: ebpf.PinByName},
		"inner": {Type: ebpf.Array, KeySize: 4, ValueSize: 4, MaxEntries: 1},
		"def4":  {Type: ebpf.Array, KeySize: 4, ValueSize: 2, MaxEntries: 3},
	}
	for name, w := range want {
		m := res.Spec.Maps[name]
		if m == nil {
			t.Errorf("no map %s", name)
			continue
		}
		if m.Type != w.Type || m.KeySize != w.KeySize || m.ValueSize != w.ValueSize || m.MaxEntries != w.MaxEntries || m.Flags != w.Flags || m.Pinning != w.Pinning {
			t.Errorf("map %s: type %v key %d value %d max %d flags %#x pinning %v, want type %v key %d value %d max %d flags %#x pinning %v",
				name, m.Type, m.KeySize, m.ValueSize, m.MaxEntries, m.Flags, m.Pinning, w.Type, w.KeySize, w.ValueSize, w.MaxEntries, w.Flags, w.Pinning)
		}
	}
	var warned []string
	for _, w := range res.Warnings {
		if strings.Contains(w.Msg, "cannot be kept") {
			warned = append(warned, w.Msg)
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], `"inner": id = 7 (no map's inner_id names it), inner_idx = 1`) {
		t.Errorf("warnings about dropped words: %q, want one for inner's id and inner_idx", warned)
	}
}

// iproute2's maps of maps: the outer map's inner_id names the inner map's
// id; the inner map's definition becomes the outer one's values, and it is
// put in the outer map at its inner_idx (not at NO_PREPOPULATE, -1).
func TestLegacyMapInMap(t *testing.T) {
	src := `
#include <linux/bpf.h>
struct bpf_elf_map { __u32 type, size_key, size_value, max_elem, flags, id, pinning, inner_id, inner_idx; };
struct bpf_elf_map __attribute__((section("maps"), used)) inner = {
	.type = BPF_MAP_TYPE_HASH, .size_key = 4, .size_value = 8, .max_elem = 4, .id = 42, .inner_idx = 2, .pinning = 2,
};
struct bpf_elf_map __attribute__((section("maps"), used)) spare = {
	.type = BPF_MAP_TYPE_HASH, .size_key = 4, .size_value = 8, .max_elem = 4, .id = 42, .inner_idx = -1,
};
struct bpf_elf_map __attribute__((section("maps"), used)) outer = {
	.type = BPF_MAP_TYPE_ARRAY_OF_MAPS, .size_key = 4, .size_value = 4, .max_elem = 4, .inner_id = 42,
};
static void *(*lookup)(void *map, const void *key) = (void *)BPF_FUNC_map_lookup_elem;
__attribute__((section("socket"), used)) int prog(void *ctx)
{
	int k = 2;
	void *m = lookup(&outer, &k);
	return m && lookup(m, &k);
}
char _license[] __attribute__((section("license"), used)) = "GPL";
`
	res, err := Compile("mim.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range res.Warnings {
		t.Errorf("warning: %s", w.Msg)
	}
	outer := res.Spec.Maps["outer"]
	if outer == nil || outer.InnerMap == nil {
		t.Fatalf("outer map %+v has no inner map", outer)
	}
	// The template has no pinning (libbpf and cilium/ebpf refuse a pinned
	// inner definition); the inner map itself keeps it.
	if in := outer.InnerMap; in.Type != ebpf.Hash || in.KeySize != 4 || in.ValueSize != 8 || in.MaxEntries != 4 || in.Pinning != ebpf.PinNone {
		t.Errorf("inner map template: %+v", in)
	}
	if p := res.Spec.Maps["inner"].Pinning; p != ebpf.PinByName {
		t.Errorf("inner map pinning %v, want by name", p)
	}
	if len(outer.Contents) != 1 || outer.Contents[0].Key != uint32(2) || outer.Contents[0].Value != "inner" {
		t.Errorf("outer map contents %+v, want inner at 2", outer.Contents)
	}
}
