// Go target of the DWARF tests (built by tests/dwarf_lang_test.go, normal
// and with -gcflags=all='-N -l'): a method on a pointer receiver, strings
// and slices bound by member, file:line probes.
package main

import (
	"fmt"
	"os"
	"strconv"
)

type Acc struct {
	Name  string
	Total int64
	Hits  int
}

//go:noinline
func (a *Acc) Add(v int64) int64 {
	a.Total += v * 3 /* @go_add */
	a.Hits++
	return a.Total
}

//go:noinline
func compute(n int, s string, xs []int) int {
	r := n * 2
	r += len(s) + len(xs) /* @go_compute */
	return r
}

func main() {
	n := 2
	if len(os.Args) > 1 {
		n, _ = strconv.Atoi(os.Args[1])
	}
	a := &Acc{Name: "acc"}
	t := 0
	for i := 0; i < n; i++ {
		t += compute(i, "hello", []int{1, 2, i})
		a.Add(int64(i))
	}
	fmt.Println(t, a.Total)
}
