package runtime

import "testing"

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
