package realworld

import (
	"bytes"
	"flag"
	"os"
	"runtime"
	"sync"
	"testing"
)

var baseline = flag.String("baseline", "", "a bpfcc binary built from another commit: TestRealWorldIdentical checks that it writes byte-identical objects")

// TestRealWorldIdentical compiles every file bpfcc compiles again with the
// -baseline binary and reports each object that differs: how a change
// meant to keep code generation as it was (a refactoring) is checked over
// the suite. Without -baseline it is skipped.
func TestRealWorldIdentical(t *testing.T) {
	if *baseline == "" {
		t.Skip("no -baseline binary")
	}
	s := compiledSuite(t)
	jobs := make(chan *fileResult)
	var mu sync.Mutex
	var wg sync.WaitGroup
	same := 0
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range jobs {
				obj := r.Bpfcc.Object + ".baseline"
				base := run(*baseline, bpfccFlags(r.src, obj), obj)
				want, err1 := os.ReadFile(obj)
				got, err2 := os.ReadFile(r.Bpfcc.Object)
				mu.Lock()
				switch {
				case !base.OK:
					t.Errorf("%s: the baseline fails: %s", r.ID, base.FirstError)
				case err1 != nil || err2 != nil:
					t.Errorf("%s: %v %v", r.ID, err1, err2)
				case !bytes.Equal(got, want):
					t.Errorf("%s: object differs from the baseline's", r.ID)
				default:
					same++
				}
				mu.Unlock()
			}
		}()
	}
	for _, r := range s.results {
		if r.Bpfcc.OK {
			jobs <- r
		}
	}
	close(jobs)
	wg.Wait()
	t.Logf("%d objects identical to the baseline's", same)
}
