package suggest

import "testing"

func TestDidYouMean(t *testing.T) {
	names := []string{"work", "do_nanosleep", "do_sys_open", "hrtimer_nanosleep", "vfs_read", "sched/sched_process_exec", "sched/sched_process_exit"}
	for _, tc := range []struct{ name, want string }{
		{"do_nanosleeep", " (did you mean do_nanosleep?)"},
		{"sched/sched_proces_exec", " (did you mean sched/sched_process_exec, sched/sched_process_exit?)"},
		{"vfs_raed", " (did you mean vfs_read?)"},
		{"something_else", ""},
		{"vfs_read", ""}, // itself is not a suggestion
		// Two letters swapped are one edit: a four-letter name allows one.
		{"wrok", " (did you mean work?)"},
	} {
		if got := DidYouMean(tc.name, names); got != tc.want {
			t.Errorf("DidYouMean(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	if d := distance("kitten", "sitting", 5); d != 3 {
		t.Errorf("distance(kitten, sitting) = %d, want 3", d)
	}
	if d := distance("ca", "abc", 5); d != 3 {
		t.Errorf("distance(ca, abc) = %d, want 3 (a swap is not a free move)", d)
	}
	if d := distance("abcdef", "uvwxyz", 2); d != 3 {
		t.Errorf("editDistance over the limit = %d, want limit+1 = 3", d)
	}
}

// A candidate within the limit but far behind the nearest is left out.
func TestDidYouMeanNearestOnly(t *testing.T) {
	helpers := []string{"bpf_map_lookup_elem", "bpf_map_pop_elem", "bpf_map_peek_elem"}
	if d := distance("bpf_map_lookup_elm", "bpf_map_pop_elem", 6); d > 6 {
		t.Fatalf("bpf_map_pop_elem at %d is not within the limit; the case shows nothing", d)
	}
	if got, want := DidYouMean("bpf_map_lookup_elm", helpers), " (did you mean bpf_map_lookup_elem?)"; got != want {
		t.Errorf("DidYouMean = %q, want %q", got, want)
	}
}
