package randgen

import "testing"

// TestGenerate checks that generation is deterministic and that every
// program runs in the model without undefined behaviour.
func TestGenerate(t *testing.T) {
	for seed := int64(1); seed <= 300; seed++ {
		p := Generate(seed, Options{})
		if _, err := p.Expected(); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, p.Source())
		}
		if Generate(seed, Options{}).Source() != p.Source() {
			t.Fatalf("seed %d: generation is not deterministic", seed)
		}
	}
}
