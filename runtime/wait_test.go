package runtime

import (
	"context"
	"os"
	"testing"
	"time"
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
