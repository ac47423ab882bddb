package runtime

import (
	"strings"
	"testing"
)

func TestDidYouMean(t *testing.T) {
	names := []string{"do_nanosleep", "do_sys_open", "hrtimer_nanosleep", "vfs_read", "sched/sched_process_exec", "sched/sched_process_exit"}
	for _, tc := range []struct{ name, want string }{
		{"do_nanosleeep", " (did you mean do_nanosleep?)"},
		{"sched/sched_proces_exec", " (did you mean sched/sched_process_exec, sched/sched_process_exit?)"},
		{"vfs_raed", " (did you mean vfs_read?)"},
		{"something_else", ""},
		{"vfs_read", ""}, // itself is not a suggestion
	} {
		if got := didYouMean(tc.name, names); got != tc.want {
			t.Errorf("didYouMean(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	if d := editDistance("kitten", "sitting", 5); d != 3 {
		t.Errorf("editDistance(kitten, sitting) = %d, want 3", d)
	}
	if d := editDistance("abcdef", "uvwxyz", 2); d != 3 {
		t.Errorf("editDistance over the limit = %d, want limit+1 = 3", d)
	}
}

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
	generic := Hint(&VerifierReport{Reason: "R3 type=scalar expected=fp"})
	if !strings.Contains(generic, "the report above shows") {
		t.Errorf("without advice the generic hint stays: %q", generic)
	}
}
