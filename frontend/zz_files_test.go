package frontend

import (
	"fmt"
	"testing"
	"time"
)

func TestZZFiles(t *testing.T) {
	Parse(xdpProgram, Options{})
	l := filesRead; filesRead = nil; defer func(){filesRead=nil}()
	filesRead = l
	total := 0
	var tr time.Duration
	for _, name := range filesRead {
		b, err := newSourceFS().Open(name)
		if err != nil { fmt.Println("MISS", name); continue }
		st, _ := b.Stat()
		total += int(st.Size())
		fmt.Println(name, st.Size())
	}
	_ = tr
	fmt.Println("total", total)
}
func init() { _ = 0 }
