package dwarfvars

import "testing"

// The probe's own line is not offered as where the variable is available:
// at that line it is available at other instructions only.
func TestOptimizedOutAvailableHere(t *testing.T) {
	for _, tc := range []struct {
		e    OptimizedOutError
		want string
	}{
		{OptimizedOutError{Lines: []int{12, 15, 29}, Line: 29}, "lines 12, 15, and other instructions of line 29 (this probe's line)"},
		{OptimizedOutError{Lines: []int{29}, Line: 29}, "other instructions of line 29 (this probe's line)"},
		{OptimizedOutError{Lines: []int{12, 29}, Line: 29}, "line 12, and other instructions of line 29 (this probe's line)"},
		{OptimizedOutError{Lines: []int{29}, Line: 29, Here: []string{"tokenize+0x45", "tokenize+0x52"}}, "other instructions of line 29 (this probe's line): probe tokenize+0x45 or tokenize+0x52 to read it there"},
		{OptimizedOutError{Lines: []int{12, 15}, Line: 29}, "lines 12, 15"},
		{OptimizedOutError{Lines: []int{12, 15}}, "lines 12, 15"},
		{OptimizedOutError{Lines: []int{12}, OtherLines: []string{"stdlib.h:364"}, Line: 20}, "line 12 (and stdlib.h:364)"},
	} {
		if got := tc.e.available(); got != tc.want {
			t.Errorf("available(%v at line %d) = %q, want %q", tc.e.Lines, tc.e.Line, got, tc.want)
		}
	}
}
