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

// cancelAfter is a pace that cancels the change once n writes went out.
type cancelAfter struct {
	n      int
	cancel context.CancelFunc
}

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
