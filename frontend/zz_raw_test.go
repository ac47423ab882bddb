package frontend

import (
	"os"
	"testing"

	"modernc.org/cc/v4"
)

func TestZZRaw(t *testing.T) {
	for _, p := range []string{"/tmp/e/semi.c", "/tmp/e/undecl.c", "/tmp/e/inc.c", "/tmp/e/mism.c", "/tmp/e/misc.c"} {
		src, _ := os.ReadFile(p)
		cfg, _ := newConfig(Options{})
		_, err := translate(cfg, []cc.Source{{Name: "<predefined>", Value: predefined(Options{})}, {Name: "<builtin>", Value: cc.Builtin}, {Name: p, Value: src}})
		t.Logf("%s:\n%q", p, err.Error())
	}
}
