package dynamo

import (
	"context"
	"fmt"
	"testing"
	"time"

	"dynascope/dynamo/dynamotest"
)

// A traffic write DynamoDB hands back unprocessed (a throttled batch) is not
// counted and is sent again: every write counted is one DynamoDB took.
func TestDemoTrafficSendsUnprocessedAgain(t *testing.T) {
	t.Parallel()
	sdk := dynamotest.SDK(t)
	table := seedTable(t, sdk, gsiSpec(""))
	api := &flakyWrites{Client: sdk, drop: 1, faulty: 2} // the first two writes come back unprocessed
	ctx, cancel := context.WithTimeout(testCtx(t), 600*time.Millisecond)
	defer cancel()
	write := func(step int) Item { return Item{"PK": strAttr("T"), "SK": strAttr(fmt.Sprint(step))} }
	n, err := DemoTraffic(ctx, api, table, 20*time.Millisecond, write)
	if err != nil {
		t.Fatal(err)
	}
	api.mu.Lock()
	calls, dropped := api.calls, api.dropped
	api.mu.Unlock()
	if dropped != 2 || n < 1 || n != calls-dropped && n != calls-dropped-1 {
		// The last call may be cut by the deadline after it was sent.
		t.Errorf("counted %d writes of %d calls, %d handed back", n, calls, dropped)
	}
	if got := countItems(t, sdk, table); got == 0 {
		t.Error("nothing reached the table")
	}
}
