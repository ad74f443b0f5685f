package dynamo

import (
	"context"
	"fmt"
	"strings"
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

// 35.2 for the demo's traffic: an answer naming as unprocessed an item the
// write never sent stops the traffic in one sentence; the foreign item is
// never written.
func TestDemoTrafficRefusesAForeignUnprocessedItem(t *testing.T) {
	t.Parallel()
	sdk := dynamotest.SDK(t)
	table := seedTable(t, sdk, gsiSpec(""))
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	p.Inject(dynamotest.Rule{Op: "BatchWriteItem", Count: 1, Fault: dynamotest.ForeignUnprocessed(`{"PK":{"S":"FOREIGN"},"SK":{"S":"X"}}`)})
	ctx, cancel := context.WithTimeout(testCtx(t), 10*time.Second)
	defer cancel()
	write := func(step int) Item { return Item{"PK": strAttr("T"), "SK": strAttr(fmt.Sprint(step))} }
	n, err := DemoTraffic(ctx, sdkVia(p.URL), table, 20*time.Millisecond, write)
	if err == nil || !strings.HasSuffix(err.Error(), "the answer names as unprocessed an item never sent; not written") || n != 0 {
		t.Fatalf("DemoTraffic: %d, %v", n, err)
	}
	if p.Count("BatchWriteItem") != 1 {
		t.Errorf("%d BatchWriteItem sent; want the one", p.Count("BatchWriteItem"))
	}
	if got := countItems(t, sdk, table); got != 1 {
		t.Errorf("the table holds %d items; want the one sent, not the foreign one", got)
	}
}
