package realworld

import (
	"bytes"
	"os"
	"runtime"
	"sort"
	"sync"
	"testing"
)

// TestRealWorldHeaderCache compiles a deterministic sample of the files
// bpfcc compiles (every tenth by ID, and every file under -only) again
// without the header cache (--no-cache) and with it warm, and holds both
// objects to the suite's own (compiled with the run's cache, cold or warm
// as the order of compiles had it).
func TestRealWorldHeaderCache(t *testing.T) {
	s := compiledSuite(t)
	var sample []*fileResult
	for _, r := range s.results {
		if r.Bpfcc.OK {
			sample = append(sample, r)
		}
	}
	sort.Slice(sample, func(i, j int) bool { return sample[i].ID < sample[j].ID })
	if *only == "" {
		var every []*fileResult
		for i := 0; i < len(sample); i += 10 {
			every = append(every, sample[i])
		}
		sample = every
	}
	jobs := make(chan *fileResult)
	var mu sync.Mutex
	var wg sync.WaitGroup
	same := 0
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range jobs {
				want, err := os.ReadFile(r.Bpfcc.Object)
				if err != nil {
					t.Error(err)
					continue
				}
				ok := true
				for _, mode := range []string{"no cache", "warm cache"} {
					obj := r.Bpfcc.Object + ".hcache"
					args := bpfccFlags(r.src, obj)
					if mode == "no cache" {
						args = append([]string{"--no-cache"}, args...)
					}
					res := run(bpfccBin, args, obj)
					got, err := os.ReadFile(obj)
					mu.Lock()
					switch {
					case !res.OK:
						t.Errorf("%s: fails with %s: %s", r.ID, mode, res.FirstError)
						ok = false
					case err != nil:
						t.Errorf("%s: %v", r.ID, err)
						ok = false
					case !bytes.Equal(got, want):
						t.Errorf("%s: the object with %s differs from the suite's", r.ID, mode)
						ok = false
					}
					mu.Unlock()
				}
				if ok {
					mu.Lock()
					same++
					mu.Unlock()
				}
			}
		}()
	}
	for _, r := range sample {
		jobs <- r
	}
	close(jobs)
	wg.Wait()
	t.Logf("%d of %d sampled objects identical with and without the header cache", same, len(sample))
}
