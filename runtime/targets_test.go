package runtime

import (
	"strings"
	"testing"
)

// A verifier report carries advice for the reasons people meet most.
func TestVerifierAdvice(t *testing.T) {
	for reason, want := range map[string]string{
		"R0 invalid mem access 'map_value_or_null'":                             "check the pointer before using it (if (!v) return 0;)",
		"The sequence of 8193 jumps is too complex.":                            "the verifier follows every path and gave up",
		"R1 unbounded memory access, make sure to bounds check any such access": "check it against the size before the access",
		"invalid indirect read from stack R2 off -16+0 size 16":                 "not fully initialised",
		"back-edge from insn 12 to 5":                                           "give it a constant bound, or use bpf_loop()",
		"R3 type=scalar expected=fp":                                            "",
	} {
		r := &VerifierReport{Reason: reason}
		if got := r.Advice(); want == "" && got != "" || !strings.Contains(got, want) {
			t.Errorf("advice for %q = %q, want %q", reason, got, want)
		}
	}
	// The log's statistics line, in every log, decides nothing: the
	// reason's own advice wins (it gave every rejection the
	// "gave up" advice).
	for reason, want := range map[string]string{
		"R2 min value is negative, either use unsigned or 'var &= const'":                     "check it against the size before the access",
		"math between map_value pointer and register with unbounded min value is not allowed": "check it against the size before the access",
		"R3 type=scalar expected=fp": "",
	} {
		r := &VerifierReport{Reason: reason, Log: []string{"0: (b7) r0 = 0", reason, "processed 47 insns (limit 1000000) max_states_per_insn 0 total_states 1 peak_states 1 mark_read 0"}}
		if got := r.Advice(); want == "" && got != "" || !strings.Contains(got, want) {
			t.Errorf("advice for %q with the log's statistics = %q, want %q", reason, got, want)
		}
	}
	generic := Hint(&VerifierReport{Reason: "R3 type=scalar expected=fp"})
	if !strings.Contains(generic, "the report above shows") {
		t.Errorf("without advice the generic hint stays: %q", generic)
	}
}
