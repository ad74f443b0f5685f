package main

// The timestamps, mixed and CUST#7 partitions, the comparison of a skip-scan
// with a full read, and the timing through the fault proxy.

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/bench/benchdata"
	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/keys"
)

const (
	timestampsPK = "User:X"
	mixedPK      = "DEVICE#1"
	demoPK       = "CUST#7"
)

func str(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// timestampItems are n chat messages under ISO-8601 sort keys, 7 minutes
// apart, as ChatSystemSchema.json keys them, and a meta item when asked.
func timestampItems(pk string, n int, meta bool) []dynamo.Item {
	t0 := time.Date(2023, 4, 1, 12, 0, 0, 1e6, time.UTC)
	body := strings.Repeat("x", 60)
	out := make([]dynamo.Item, 0, n+1)
	for i := range n {
		sk := t0.Add(time.Duration(i) * 7 * time.Minute).Format("2006-01-02T15:04:05.000Z")
		out = append(out, dynamo.Item{"PK": str(pk), "SK": str(sk), "body": str(body)})
	}
	if meta {
		out = append(out, dynamo.Item{"PK": str(pk), "SK": str("meta"), "createdBy": str("UserX")})
	}
	return out
}

// mixedItems is a device partition: n readings under timestamps and n items
// of three label types (ALERT#, CONFIG#, LOG#) around them.
func mixedItems(n int) []dynamo.Item {
	out := timestampItems(mixedPK, n, false)
	for i := range n {
		p := []string{"ALERT#", "CONFIG#", "LOG#"}[i%3]
		out = append(out, dynamo.Item{"PK": str(mixedPK), "SK": str(fmt.Sprintf("%s%07d", p, i)), "note": str(strings.Repeat("y", 60))})
	}
	return out
}

// cust7 is the demo's big customer, item for item.
func cust7() []dynamo.Item {
	var out []dynamo.Item
	for _, it := range dynamo.DemoItems() {
		if pk, ok := it["PK"].(*types.AttributeValueMemberS); ok && pk.Value == demoPK {
			out = append(out, it)
		}
	}
	return out
}

type result struct {
	fullReqs, skipReqs int
	fullRCU, skipRCU   float64
	types              int
	same               bool
}

func (r result) share() float64 { return r.skipRCU / r.fullRCU }

// compare reads the whole partition and groups it, then skip-scans it with
// no request cap (the bound is on what the whole walk costs).
func compare(ctx context.Context, c *dynamo.Client, table, pk string) (result, error) {
	sks, fullReqs, _, err := benchdata.ReadSortKeys(ctx, c, table, pk)
	if err != nil {
		return result{}, err
	}
	d, err := c.Discover(ctx, dynamo.DiscoverInput{Table: table, PK: pk, Budget: dynamo.Budget{MaxRequests: -1}})
	if err != nil {
		return result{}, err
	}
	full := keys.GroupSortKeys(sks, "S", d.Delimiter)
	for i := range full {
		full[i].Count = -1 // skip-scan does not count
	}
	return result{fullReqs: len(fullReqs), skipReqs: len(d.Requests), fullRCU: dynamo.TotalCapacity(fullReqs).Total,
		skipRCU: d.Capacity().Total, types: len(d.Groups), same: reflect.DeepEqual(d.Groups, full) && !d.Partial}, nil
}

// timed skip-scans a partition through the fault proxy, every request
// delayed by rtt, and reports the time in round trips.
func timed(ctx context.Context, endpoint, table, pk string, rtt time.Duration) error {
	tb := &procTB{}
	defer tb.cleanup()
	p := dynamotest.StartProxy(tb, endpoint)
	p.Inject(dynamotest.Rule{Fault: dynamotest.Delay(rtt)})
	c, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: p.URL, Region: "us-east-1", Timeout: time.Minute})
	if err != nil {
		return err
	}
	began := time.Now()
	d, err := c.Discover(ctx, dynamo.DiscoverInput{Table: table, PK: pk, Budget: dynamo.Budget{MaxRequests: -1}})
	took := time.Since(began)
	if err != nil {
		return err
	}
	var names []string
	for _, g := range d.Groups {
		names = append(names, g.Entity)
	}
	// The proxy also sees what Discover sends besides the walk (the table's
	// key schema), each a round trip of its own.
	fmt.Printf("  %s of %s: %d types (%s) in %d skip-scan requests (%d through the proxy), %.0f ms = %.1f round trips of %s\n",
		pk, table, len(d.Groups), strings.Join(names, ", "), len(d.Requests), len(p.Calls()), float64(took.Microseconds())/1000, took.Seconds()/rtt.Seconds(), rtt)
	fmt.Printf("= time to all entity types of %s, %s added per request: %.1f round trips, %.0f ms (%d requests, one after another)\n",
		pk, rtt, took.Seconds()/rtt.Seconds(), float64(took.Microseconds())/1000, len(p.Calls()))
	return nil
}

// procTB lets the bench, a program rather than a test, run the project's
// fault proxy: StartProxy only calls Helper and Cleanup. Any other method
// of testing.TB would panic on the nil embedded value, which is the point:
// the proxy's contract with a program is these two.
type procTB struct {
	testing.TB
	cleanups []func()
}

func (t *procTB) Helper()          {}
func (t *procTB) Cleanup(f func()) { t.cleanups = append(t.cleanups, f) }
func (t *procTB) cleanup() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}
