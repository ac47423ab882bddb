package frontend

import (
	"io"
	"os"
	"testing"
	"time"
)

func TestZZProbe(t *testing.T) {
	src, _ := os.ReadFile(os.Getenv("PROBE"))
	for _, stage := range []string{"pp", "parse"} {
		start := time.Now()
		ok := bounded(5*time.Second, func() {
			var err error
			if stage == "pp" {
				err = Preprocess("p.c", Options{Source: src}, io.Discard)
			} else {
				_, err = Parse("p.c", Options{Source: src})
			}
			t.Logf("%s: %v", stage, err)
		})
		t.Logf("%s ok=%v %v", stage, ok, time.Since(start))
	}
}
