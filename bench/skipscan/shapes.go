package main

// The timestamps, mixed and CUST#7 partitions, and the measure of a
// skip-scan against a full read, through the fault proxy.

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

// shape is one partition the bench measures.
type shape struct {
	name, table, pk string
}

// walk is one skip-scan's figures.
type walk struct {
	requests, trips int
	rcu             float64 // as AWS would charge it (see awsRCU)
	took            time.Duration
	groups          []keys.Group
	delim           string
	sent            []string // the requests, for comparing runs
}

// awsRCU is what AWS would charge for the requests: DynamoDB Local charges
// nothing for a query that finds nothing, AWS 0.5 RCU (1 strongly
// consistent).
func awsRCU(rs []dynamo.Request) float64 {
	total := 0.0
	for _, r := range rs {
		c := r.Capacity.Total
		if c == 0 && r.Count == 0 {
			c = 0.5
		}
		total += c
	}
	return total
}

// measure reads the whole partition, then skip-scans it three times from
// both ends and once one way through the fault proxy, every request
// delayed by rtt, prints the figures and returns the bounds that failed.
func measure(ctx context.Context, c *dynamo.Client, endpoint string, sh shape, rtt time.Duration) ([]string, error) {
	sks, fullReqs, _, err := benchdata.ReadSortKeys(ctx, c, sh.table, sh.pk)
	if err != nil {
		return nil, err
	}
	fullRCU := awsRCU(fullReqs)
	var runs []walk
	for range 3 {
		w, err := timed(ctx, endpoint, sh, rtt, false)
		if err != nil {
			return nil, err
		}
		runs = append(runs, w)
	}
	one, err := timed(ctx, endpoint, sh, rtt, true)
	if err != nil {
		return nil, err
	}
	w := runs[0]
	full := keys.GroupSortKeys(sks, "S", w.delim)
	types := len(full)
	var failed []string
	check := func(ok bool, what string) string {
		if ok {
			return "ok"
		}
		failed = append(failed, sh.name+": "+what)
		return "FAIL"
	}
	same := true
	for _, r := range runs[1:] {
		same = same && r.requests == w.requests && r.rcu == w.rcu && r.trips == w.trips && reflect.DeepEqual(r.sent, w.sent) && reflect.DeepEqual(r.groups, w.groups)
	}
	share := w.rcu / fullRCU
	var names []string
	for _, g := range w.groups {
		names = append(names, g.Entity)
	}
	fmt.Printf("%s (%s, %d items): %d types (%s)\n", sh.name, sh.pk, len(sks), len(w.groups), strings.Join(names, ", "))
	fmt.Printf("  full read: %d requests, %.1f RCU\n", len(fullReqs), fullRCU)
	for i, r := range runs {
		fmt.Printf("  skip-scan run %d: %d requests, %.1f RCU, %d round trips at %s, %.0f ms\n", i+1, r.requests, r.rcu, r.trips, rtt, float64(r.took.Microseconds())/1000)
	}
	fmt.Printf("  one way, for comparison: %d requests, %.1f RCU, %d round trips, %.0f ms\n", one.requests, one.rcu, one.trips, float64(one.took.Microseconds())/1000)
	fmt.Printf("= skip-scan %s: %.2f%% of the full read's RCU (%.1f of %.1f; bound 1%%) %s\n", sh.name, 100*share, w.rcu, fullRCU, check(share <= 0.01, "RCU share"))
	fmt.Printf("= skip-scan %s: %d requests for %d types (bound types + 2 = %d) %s\n", sh.name, w.requests, types, types+2, check(w.requests <= types+2, "requests"))
	fmt.Printf("= skip-scan %s: %d round trips at %s (bound types/2 + 2 = %g; one way %d) %s\n", sh.name, w.trips, rtt, float64(types)/2+2, one.trips, check(float64(w.trips) <= float64(types)/2+2, "round trips"))
	fmt.Printf("= skip-scan %s: the same requests, RCU and types on 3 runs in a row %s\n", sh.name, check(same, "runs differ"))
	fmt.Printf("= skip-scan %s: the full read's types %s\n", sh.name, check(benchdata.SameTypes(w.groups, full) && benchdata.SameTypes(one.groups, full), "types"))
	return failed, nil
}

// timed skip-scans a partition through a fault proxy of its own, every
// request delayed by rtt, from both ends at once (as groups does) or one
// way (each request after the last), with the key schema read first so
// that only the walk's queries are timed.
func timed(ctx context.Context, endpoint string, sh shape, rtt time.Duration, oneWay bool) (walk, error) {
	tb := &procTB{}
	defer tb.cleanup()
	p := dynamotest.StartProxy(tb, endpoint)
	c, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: p.URL, Region: "us-east-1", Timeout: time.Minute})
	if err != nil {
		return walk{}, err
	}
	if _, err := c.TableKeys(ctx, sh.table); err != nil {
		return walk{}, err
	}
	p.Inject(dynamotest.Rule{Fault: dynamotest.Delay(rtt)})
	before := len(p.Calls())
	began := time.Now()
	d, err := c.Discover(ctx, dynamo.DiscoverInput{Table: sh.table, PK: sh.pk, OneWay: oneWay})
	took := time.Since(began)
	if err != nil {
		return walk{}, err
	}
	if d.Partial {
		return walk{}, fmt.Errorf("the skip-scan stopped at its budget after %d requests", len(d.Requests))
	}
	w := walk{requests: len(d.Requests), trips: dynamotest.InSequence(p.Calls()[before:]), rcu: awsRCU(d.Requests), took: took, groups: d.Groups, delim: d.Delimiter}
	for _, q := range d.Requests {
		w.sent = append(w.sent, fmt.Sprintf("%s fwd=%v limit=%d count=%d %.1f", q.KeyCondition, q.Forward, q.Limit, q.Count, q.Capacity.Total))
	}
	return w, nil
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
