package runtime

import (
	"bytes"
	"fmt"
	"strconv"
	"testing"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/btf"
)

type (
	specT = *ebpf.CollectionSpec
	typeT = btf.Type
)

// btfSpecWith returns a BTF spec holding types, as an object's .BTF would.
func btfSpecWith(t *testing.T, types ...btf.Type) *btf.Spec {
	t.Helper()
	b, err := btf.NewBuilder(types, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := b.Marshal(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := btf.LoadSpecFromReader(bytesReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

func fmtSscan(s string, v *int) (int, error) { return fmt.Sscan(s, v) }

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
