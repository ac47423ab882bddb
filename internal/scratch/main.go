// Command scratch loads an object and test-runs each program (dev aid).
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/cilium/ebpf"
)

func main() {
	spec, err := ebpf.LoadCollectionSpec(os.Args[1])
	if err != nil {
		fmt.Println("spec:", err)
		os.Exit(1)
	}
	coll, err := ebpf.NewCollectionWithOptions(spec, ebpf.CollectionOptions{})
	if err != nil {
		var ve *ebpf.VerifierError
		if errors.As(err, &ve) {
			fmt.Printf("verifier: %+v\n", ve)
		} else {
			fmt.Println("load:", err)
		}
		os.Exit(1)
	}
	defer coll.Close()
	for name, p := range coll.Programs {
		pkt := make([]byte, 64)
		ret, err := p.Run(&ebpf.RunOptions{Data: pkt})
		fmt.Printf("%s: ret=%d err=%v\n", name, ret, err)
	}
}
