// Command pp preprocesses a file like bpfcc would (dev aid).
package main

import (
	"fmt"
	"os"

	"github.com/bpfcc/bpfcc/frontend"
)

func main() {
	if err := frontend.Preprocess(os.Args[1], frontend.Options{}, os.Stdout); err != nil {
		fmt.Println(err)
	}
}
