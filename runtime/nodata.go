package runtime

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// report ends a run: with -v the process filter's counts, and when the
// run printed no result, a line saying so with the likely reason.
func (s *session) report() {
	var traced, other, full uint64
	var err error
	if s.filter != nil {
		traced, other, full, err = s.filter.counts()
		if err != nil {
			s.out.diag("process filter: reading its counters: %v", err)
		}
		if s.opts.Verbose && err == nil {
			s.out.diag("process filter: %d probe hits in the traced processes, %d in other processes (ignored)", traced, other)
		}
		if full > 0 {
			s.out.diag("process filter: %d processes started by the traced ones were not followed: the PID set (%d entries) was full", full, pidSetSize)
		}
	}
	if s.out.results() > 0 {
		return
	}
	s.out.diag("nothing collected: %s", s.emptyReason(traced, other, err == nil))
}

// emptyReason says why a run that printed nothing may have done so.
func (s *session) emptyReason(traced, other uint64, counted bool) string {
	var points []string
	for _, pl := range s.plans {
		if pl.point.kind == kindUprobe {
			points = append(points, pl.point.String())
		}
	}
	probes := strings.Join(points, ", ")
	switch {
	case s.filter != nil && counted && traced == 0 && other == 0:
		reason := fmt.Sprintf("the probes never fired: no process reached %s during the run", probes)
		if s.cmd == nil {
			reason += s.unmapped()
		}
		return reason
	case s.filter != nil && counted && traced == 0:
		return fmt.Sprintf("the probes fired %d times, all in processes outside the traced ones (PID %d and the processes it started)", other, s.filter.root)
	case s.filter != nil && counted:
		return fmt.Sprintf("the probes fired %d times in the traced processes, but the programs stored nothing in a map and sent no output", traced)
	case len(points) > 0 && (s.opts.PID != 0 || s.cmd != nil):
		return fmt.Sprintf("the programs stored nothing in a map and sent no output: did the traced process reach %s? (only that process was traced, not its children)", probes)
	case len(points) > 0:
		return fmt.Sprintf("the programs stored nothing in a map and sent no output: did any process reach %s?", probes)
	}
	return "the programs stored nothing in a map and sent no output during the run"
}

// unmapped names the uprobe binaries the -p process does not map, which
// it reaches only by starting a process that runs them.
func (s *session) unmapped() string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/maps", s.opts.PID))
	if err != nil {
		return ""
	}
	var missing []string
	seen := map[string]bool{}
	for _, pl := range s.plans {
		if pl.point.kind != kindUprobe || seen[pl.point.binary] {
			continue
		}
		seen[pl.point.binary] = true
		path, err := resolveBinary(pl.point.binary)
		if err == nil {
			if real, err := filepath.EvalSymlinks(path); err == nil {
				path = real
			}
		}
		if err == nil && !strings.Contains(string(b), " "+path+"\n") {
			missing = append(missing, path)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return fmt.Sprintf("; process %d does not map %s (see /proc/%d/maps), and no process it started ran it", s.opts.PID, strings.Join(missing, ", "), s.opts.PID)
}
