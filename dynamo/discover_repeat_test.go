package dynamo_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/demodata"
	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
)

// repeatPartitions loads the demo's CUST#7 (4,000 orders and a profile)
// and a partition of four types like the 52,500-item one, smaller:
// events under timestamps, jobs, users under zero-padded ids and one META.
func repeatPartitions(t *testing.T) string {
	t.Helper()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	var items []dynamo.Item
	for _, it := range demodata.Items() {
		if itemcodec.KeyString(it["PK"]) == "CUST#7" {
			items = append(items, it)
		}
	}
	t0 := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	pad := strings.Repeat("p", 80)
	for i := range 900 {
		items = append(items, dynamo.Item{"PK": s("TENANT#9"), "SK": s(t0.Add(time.Duration(i) * time.Minute).Format(time.RFC3339)), "body": s(pad)})
	}
	for i := range 250 {
		items = append(items, dynamo.Item{"PK": s("TENANT#9"), "SK": s(fmt.Sprintf("JOB#%05d", i)), "body": s(pad)})
		items = append(items, dynamo.Item{"PK": s("TENANT#9"), "SK": s(fmt.Sprintf("USER#%06d", i*7)), "body": s(pad)})
	}
	items = append(items, dynamo.Item{"PK": s("TENANT#9"), "SK": s("META"), "plan": s("pro")})
	batchPut(t, api, table, items)
	return table
}

// The same table, budget and flags give the same requests, RCU and types
// on every run, whichever half's answers come back first: each case runs
// three times through a proxy that delays the requests by a pattern of its
// own per run (so the two halves are the faster one in turn), each on a
// new client with the same schema cache; as groups sends it (Discover reads
// the first page) and as the UI does (the first page given, a budget of a
// tenth of its cost), and under budgets that stop the walk.
func TestDiscoverSameEveryRun(t *testing.T) {
	t.Parallel()
	table := repeatPartitions(t)
	ep := dynamotest.Endpoint(t)
	cache := t.TempDir()
	ctx := context.Background()
	type run struct {
		requests []string
		rcu      float64
		groups   string
	}
	budgets := []dynamo.Budget{{}, {MaxRequests: 3}, {MaxRequests: 4}, {MaxRCU: 1.5}, {MaxRequests: -1}}
	for _, pk := range []string{"CUST#7", "TENANT#9"} {
		for _, ui := range []bool{false, true} {
			for _, b := range budgets {
				name := fmt.Sprintf("%s ui=%v budget=%+v", pk, ui, b)
				var runs []run
				for r := range 3 {
					p := dynamotest.StartProxy(t, ep)
					c, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: p.URL, Region: "us-east-1", SchemaCacheDir: cache})
					if err != nil {
						t.Fatal(err)
					}
					// The keys from the schema cache, warmed once (a cold cache
					// sizes groups' first page by DescribeTable's sizes: see
					// firstPageLimit).
					if _, err := c.TableKeys(ctx, table); err != nil {
						t.Fatal(err)
					}
					for k := 1; k <= 40; k++ {
						ms := (k*7 + r*13) % 5 * 12
						p.Inject(dynamotest.Rule{Op: "Query", From: k, Count: 1, Fault: dynamotest.Delay(time.Duration(ms) * time.Millisecond)})
					}
					in := dynamo.DiscoverInput{Table: table, PK: pk, Budget: b}
					if ui {
						first, err := c.Query(ctx, dynamo.QueryInput{Table: table, PK: pk})
						if err != nil {
							t.Fatal(err)
						}
						in.First = &first
						if in.Budget.MaxRCU == 0 {
							in.Budget.MaxRCU = dynamo.SkipScanShareOfPage * first.Request.Capacity.Total
						}
					}
					d, err := c.Discover(ctx, in)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					var got run
					for _, q := range d.Requests {
						got.requests = append(got.requests, fmt.Sprintf("%s fwd=%v limit=%d count=%d %.1f RCU", q.KeyCondition, q.Forward, q.Limit, q.Count, q.Capacity.Total))
					}
					got.rcu = d.Capacity().Total
					got.groups = fmt.Sprintf("%+v partial=%v continue=%+v until=%+v", d.Groups, d.Partial, d.Continue, d.Until)
					runs = append(runs, got)
				}
				for r := 1; r < len(runs); r++ {
					if !reflect.DeepEqual(runs[r], runs[0]) {
						t.Errorf("%s: run %d differs from run 1:\n run 1: %.1f RCU %s\n  %s\n run %d: %.1f RCU %s\n  %s", name, r+1,
							runs[0].rcu, runs[0].groups, strings.Join(runs[0].requests, "\n  "), r+1, runs[r].rcu, runs[r].groups, strings.Join(runs[r].requests, "\n  "))
					}
				}
			}
		}
	}
}

// A first page that ends inside the value group: the walk jumps past it
// at once (the main half to meta, the partner from the far end, to meta
// too, which closes the walk) and looks the value group's last key up
// last, one request, since its BETWEEN and its name need it: 300
// timestamps and a meta item are the first page and 3 requests in 2
// rounds.
func TestDiscoverLooksUpTheFirstPagesTypeEnd(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	t0 := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	var items []dynamo.Item
	for i := range 300 {
		items = append(items, dynamo.Item{"PK": s("ROOM#1"), "SK": s(t0.Add(time.Duration(i) * time.Minute).Format(time.RFC3339)), "body": s("hello")})
	}
	items = append(items, dynamo.Item{"PK": s("ROOM#1"), "SK": s("meta")})
	batchPut(t, api, table, items)
	c, _ := connect(t)
	d, err := c.Discover(context.Background(), dynamo.DiscoverInput{Table: table, PK: "ROOM#1"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, q := range d.Requests[1:] {
		got = append(got, fmt.Sprintf("%s fwd=%v", strings.TrimPrefix(q.KeyCondition, `PK = "ROOM#1" AND `), q.Forward))
	}
	want := []string{`SK >= ":" fwd=true`, `SK > "2024-05-01T00:19:00Z" fwd=false`, `SK < ":" fwd=false`}
	if len(d.Requests) == 0 || d.Requests[0].Count >= 300 || !reflect.DeepEqual(got, want) || len(d.Groups) != 2 || d.Groups[0].Last != items[299]["SK"].(*types.AttributeValueMemberS).Value {
		t.Errorf("requests after the first page (%d items):\n got  %q\n want %q\ngroups %+v", d.Requests[0].Count, got, want, d.Groups)
	}
}
