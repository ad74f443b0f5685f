package edit

import (
	"context"
	"testing"
	"time"
)

// The pace never lets units out faster than its rate: 41 writes of 2 WCU
// at 400 WCU per second take at least the 80 WCU before the last one over
// 400 per second. (Only the lower bound is tested: an upper bound would
// be a timed test on a shared machine.)
func TestRatePaceHoldsTheRate(t *testing.T) {
	p := &RatePace{PerSecond: 400}
	start := time.Now()
	for range 41 {
		if err := p.Wait(context.Background(), 2); err != nil {
			t.Fatal(err)
		}
	}
	if got, least := time.Since(start), 200*time.Millisecond; got < least {
		t.Errorf("41 writes of 2 WCU at 400 WCU/s took %v, want at least %v", got, least)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := p.Wait(ctx, 1000); err == nil {
		t.Error("a cancelled wait went on")
	}
	if err := (&RatePace{}).Wait(context.Background(), 1); err == nil {
		t.Error("a pace of 0 WCU per second let a write out")
	}
}
