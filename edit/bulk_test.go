package edit

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
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

// Throttling halves the rate at once, and no further than a 64th of the
// cap however often it comes; each quiet second gives back a tenth of
// the cap; an answer without throttling changes nothing; Lowest keeps the
// lowest. (A clock of the test's own: no timing in it.)
func TestRatePaceBacksOffOnThrottling(t *testing.T) {
	now := time.Unix(1000, 0)
	p := &RatePace{PerSecond: 400, now: func() time.Time { return now }}
	if err := p.Wait(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	throttled := BulkOutcome{Sent: true, Result: Result{Throttled: 2}}
	p.Answered(BulkOutcome{Sent: true})
	if got := p.Rate(); got != 400 {
		t.Errorf("after an answer without throttling the rate is %v, want 400", got)
	}
	p.Answered(throttled)
	if got := p.Rate(); got != 200 {
		t.Errorf("after one throttled answer the rate is %v, want 200", got)
	}
	now = now.Add(time.Second)
	if got := p.Rate(); got != 240 {
		t.Errorf("a quiet second later the rate is %v, want 240 (a tenth of 400 back)", got)
	}
	for range 20 {
		p.Answered(throttled)
	}
	if got := p.Rate(); got != 400.0/64 {
		t.Errorf("after 20 throttled answers the rate is %v, want the floor %v", got, 400.0/64)
	}
	now = now.Add(time.Minute)
	if got, low := p.Rate(), p.Lowest(); got != 400 || low != 400.0/64 {
		t.Errorf("a quiet minute later the rate is %v (want 400), the lowest %v (want %v)", got, low, 400.0/64)
	}
	// A throttled answer takes back the credit of a slow stretch: the
	// next write reserves its units at the halved rate from now (1 WCU at
	// 200 per second is 5 ms).
	p.Answered(throttled)
	if err := p.Wait(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	if got := p.due.Sub(now); got != 5*time.Millisecond {
		t.Errorf("the write after the throttling reserved %v from now, want 5ms", got)
	}
}

// cancelAfter is a pace that cancels the change once n writes went out.
type cancelAfter struct {
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Answered(BulkOutcome) {}

func (c *cancelAfter) Wait(ctx context.Context, _ float64) error {
	if c.n == 0 {
		c.cancel()
		return ctx.Err()
	}
	c.n--
	return nil
}

// A bulk change stopped before its writes (Ctrl-C) sends nothing more:
// every item not sent is left and journalled failed (not applied), none
// in doubt, and the entry's units are 0 only because nothing was sent.
func TestBulkStoppedLeavesTheRest(t *testing.T) {
	j, err := OpenJournal(t.TempDir() + "/journal.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	keys := dynamo.Table{Name: "App", PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	var plans []*Plan
	for _, sk := range []string{"A", "B", "C"} {
		old := dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "P"}, "SK": &types.AttributeValueMemberS{Value: sk}}
		p, err := NewPlan(Change{Table: "App", Keys: keys, Old: old})
		if err != nil {
			t.Fatal(err)
		}
		plans = append(plans, p)
	}
	ctx, cancel := context.WithCancel(context.Background())
	w := &Writer{journal: j} // no api: a write sent would panic
	res, err := w.ApplyBulk(ctx, plans, &cancelAfter{cancel: cancel}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Items {
		if o.Sent || o.Result.State != StateFailed {
			t.Errorf("%v: sent %v, state %s; want left, failed", o.Plan.Old, o.Sent, o.Result.State)
		}
	}
	entries, _, err := j.Read()
	if err != nil || len(entries) != 1 || len(entries[0].Items) != 3 || entries[0].State != StateFailed || entries[0].Undoable() {
		t.Fatalf("journal: %v, %+v", err, entries)
	}
	for _, it := range entries[0].Items {
		if it.State != StateFailed {
			t.Errorf("item %s journalled %s, want failed", it.Key, it.State)
		}
	}
}
