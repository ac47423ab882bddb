package runtime

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"github.com/cilium/ebpf"
)

// waitLoop prints at every --interval tick until the run ends, and not
// after: two ticks, then the command's exit.
func TestWaitLoopTicks(t *testing.T) {
	tick := make(chan time.Time)
	done := make(chan struct{})
	var got []time.Time
	finished := make(chan struct{})
	go func() {
		waitLoop(context.Background(), make(chan os.Signal), nil, done, tick, func(at time.Time) { got = append(got, at) })
		close(finished)
	}()
	t0 := time.Unix(100, 0)
	tick <- t0
	tick <- t0.Add(time.Second)
	close(done)
	<-finished
	if len(got) != 2 || !got[0].Equal(t0) || !got[1].Equal(t0.Add(time.Second)) {
		t.Errorf("printed at %v, want the two ticks", got)
	}
	// No interval: a nil tick channel never fires; the signal ends it.
	sig := make(chan os.Signal, 1)
	sig <- os.Interrupt
	waitLoop(context.Background(), sig, nil, nil, nil, func(time.Time) { t.Error("printed without --interval") })
}

// Each --interval print is headed by the time, as text or as a JSON
// line of its own, and is not counted as a result.
func TestPrintIntervalHeader(t *testing.T) {
	at := time.Date(2026, 12, 7, 17, 4, 5, 6, time.UTC)
	for _, tc := range []struct {
		json bool
		want string
	}{
		{false, "17:04:05\n"},
		{true, `{"interval":"2026-12-07T17:04:05.000000006Z"}` + "\n"},
	} {
		var buf bytes.Buffer
		s := &session{spec: &ebpf.CollectionSpec{}, coll: &ebpf.Collection{}, opts: &Options{}, out: &printer{out: &buf, errw: &buf, json: tc.json}}
		s.printInterval(at)
		if buf.String() != tc.want || s.out.results() != 0 {
			t.Errorf("json %v: printed %q (%d results), want %q and none", tc.json, buf.String(), s.out.results(), tc.want)
		}
	}
}
