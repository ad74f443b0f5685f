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
	"dynascope/demodata"
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
	for _, it := range demodata.Items() {
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
// delayed by rtt, one way (each request after the last: the walk before
// its halves ran at once) and from both ends at once, and reports each in
// round trips and wall time. The two must find the same types.
func timed(ctx context.Context, endpoint, table, pk string, rtt time.Duration) error {
	tb := &procTB{}
	defer tb.cleanup()
	p := dynamotest.StartProxy(tb, endpoint)
	c, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: p.URL, Region: "us-east-1", Timeout: time.Minute})
	if err != nil {
		return err
	}
	// The key schema first, so that both walks send only their queries.
	if _, err := c.TableKeys(ctx, table); err != nil {
		return err
	}
	p.Inject(dynamotest.Rule{Fault: dynamotest.Delay(rtt)})
	var groups [2][]keys.Group
	for i, oneWay := range []bool{true, false} {
		before := len(p.Calls())
		began := time.Now()
		d, err := c.Discover(ctx, dynamo.DiscoverInput{Table: table, PK: pk, OneWay: oneWay, Budget: dynamo.Budget{MaxRequests: -1}})
		took := time.Since(began)
		if err != nil {
			return err
		}
		groups[i] = d.Groups
		calls := p.Calls()[before:]
		var names []string
		for _, g := range d.Groups {
			names = append(names, g.Entity)
		}
		how := "one way, one request after another (before)"
		if !oneWay {
			how = "from both ends at once (after)"
		}
		// Round trips waited through one after another, from the proxy's
		// record; the wall time adds DynamoDB Local's own time per request,
		// which grows when two queries share its two cores.
		trips := dynamotest.InSequence(calls)
		fmt.Printf("  %s of %s, %s: %d types (%s) in %d requests, %.1f RCU, at most %d at once: %d round trips in sequence, %.0f ms (%.1f x %s)\n",
			pk, table, how, len(d.Groups), strings.Join(names, ", "), len(calls), d.Capacity().Total, dynamotest.MostAtOnce(calls),
			trips, float64(took.Microseconds())/1000, took.Seconds()/rtt.Seconds(), rtt)
		fmt.Printf("= time to all entity types of %s, %s added per request, %s: %d round trips in sequence, %.0f ms (%d requests, %.1f RCU)\n",
			pk, rtt, how, trips, float64(took.Microseconds())/1000, len(calls), d.Capacity().Total)
	}
	if !reflect.DeepEqual(groups[0], groups[1]) {
		return fmt.Errorf("%s: from both ends found %+v, one way %+v", pk, groups[1], groups[0])
	}
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
