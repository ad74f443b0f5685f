package dynamo_test

import (
	"context"
	"encoding/json"
	"fmt"

	"strings"
	"sync"
	"testing"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
)

// tapped connects a client through a Tap (DynamoDB Local's raw answers)
// and, in front of it, a fault proxy; it describes the table first so that
// only the reads under test follow.
func tapped(t *testing.T, table string) (*dynamo.Client, *dynamotest.Tap, *dynamotest.Proxy, *[]dynamo.Request) {
	t.Helper()
	tap := dynamotest.StartTap(t, dynamotest.Endpoint(t))
	p := dynamotest.StartProxy(t, tap.URL)
	c, err := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: p.URL, Region: "us-east-1", SchemaCacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.DescribeTable(context.Background(), table); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var log []dynamo.Request
	c.OnRequest(func(r dynamo.Request) { mu.Lock(); log = append(log, r); mu.Unlock() })
	return c, tap, p, &log
}

// sameAsAnswered checks each logged request's count and capacity against
// what DynamoDB Local answered on the wire, one for one.
func sameAsAnswered(t *testing.T, reqs []dynamo.Request, xs []dynamotest.Exchange) {
	t.Helper()
	if len(reqs) != len(xs) {
		t.Fatalf("%d requests logged, %d answered: %v", len(reqs), len(xs), xs)
	}
	for i, r := range reqs {
		if int(r.Count) != xs[i].Count || r.Capacity.Total != xs[i].Capacity || r.More != xs[i].More {
			t.Errorf("request %d logged Count %d, %v RCU, more %v; DynamoDB answered %v", i+1, r.Count, r.Capacity.Total, r.More, xs[i])
		}
	}
}

// answeredSortKeys lists the sort keys of the items in a Query answer.
func answeredSortKeys(t *testing.T, x dynamotest.Exchange) []string {
	t.Helper()
	var out struct {
		Items []map[string]map[string]string
	}
	if err := json.Unmarshal(x.Response, &out); err != nil {
		t.Fatalf("answer %v: %v", x, err)
	}
	var sks []string
	for _, it := range out.Items {
		sks = append(sks, it["SK"]["S"])
	}
	return sks
}

// A partition bigger than the first page: the walk goes on after the
// page's last key and never reads again an item the page holds; the types
// are those of a full read.
func TestDiscoverStartsAfterTheFirstPage(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	var sks []string
	for i := range 30 {
		sks = append(sks, fmt.Sprintf("ADDR#%02d", i))
	}
	for i := range 150 {
		sks = append(sks, fmt.Sprintf("ORDER#%03d", i))
	}
	sks = append(sks, "2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z", "PROFILE", "TICKET#1", "TICKET#2")
	for _, sk := range sks {
		put(t, api, table, dynamo.Item{"PK": s("P"), "SK": s(sk)})
	}
	c, tap, _, _ := tapped(t, table)
	ctx := context.Background()
	// One way, no item is read twice; from both ends at once, at most two
	// (each half's last jump may land on a key the other read), and at most
	// one request more than one way.
	oneWay := map[string]int{}
	for _, both := range []bool{false, true} {
		for _, reverse := range []bool{false, true} {
			for _, limit := range []int32{0, 10, 40} { // 0: Discover reads the first page itself
				want := fullRead(t, c, table, "", "P", "SK", "#", reverse)
				for i := range want {
					want[i].Count = -1
				}
				in := dynamo.DiscoverInput{Table: table, PK: "P", Reverse: reverse, OneWay: !both}
				run := fmt.Sprintf("reverse=%v limit=%d", reverse, limit)
				if limit > 0 {
					p, err := c.Query(ctx, dynamo.QueryInput{Table: table, PK: "P", Reverse: reverse, Limit: limit})
					if err != nil {
						t.Fatal(err)
					}
					in.First = &p
				}
				before := len(tap.Exchanges("Query"))
				d, err := c.Discover(ctx, in)
				if err != nil {
					t.Fatal(err)
				}
				if !sameTypes(d.Groups, want) || d.Partial {
					t.Errorf("reverse=%v limit=%d:\n skip-scan %+v\n full read %+v", reverse, limit, d.Groups, want)
				}
				xs := tap.Exchanges("Query")[before:]
				sameAsAnswered(t, d.Requests, xs)
				seen := map[string]bool{}
				var twice []string
				for _, x := range xs {
					for _, sk := range answeredSortKeys(t, x) {
						if seen[sk] {
							twice = append(twice, sk)
						}
						seen[sk] = true
					}
				}
				again := 0
				if in.First != nil {
					for _, it := range in.First.Items {
						if sk := itemcodec.KeyString(it["SK"]); seen[sk] {
							again++
							twice = append(twice, sk)
						}
					}
				}
				if !both {
					oneWay[run] = len(xs)
					if len(twice) > 0 {
						t.Errorf("%s, one way: %q read twice", run, twice)
					}
				} else if len(twice) > 2 || again > 1 || len(xs) > oneWay[run]+1 {
					t.Errorf("%s, both ends: %q read twice (%d of the first page), %d requests against %d one way", run, twice, again, len(xs), oneWay[run])
				}
				if in.First != nil {
					if xs[0].Limit != 1 {
						t.Errorf("reverse=%v limit=%d: the walk began with %v, not a Limit 1 step past the page", reverse, limit, xs[0])
					}
				}
			}
		}
	}
}

// --count reads the partition once, page by page, and groups that read:
// every count is DynamoDB's, whatever the skip-scan budget.
func TestDiscoverCountIsOneWholeRead(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	big := strings.Repeat("x", 20_000) // 60 items of 20 KB: more than one 1 MB page
	for i := range 60 {
		put(t, api, table, dynamo.Item{"PK": s("P"), "SK": s(fmt.Sprintf("ORDER|%02d", i)), "pad": s(big)})
	}
	for i := range 30 {
		put(t, api, table, dynamo.Item{"PK": s("P"), "SK": s(fmt.Sprintf("T%c%c", 'A'+i/26, 'A'+i%26))}) // 30 exact types (T01 … would be numbered ids, one group)
	}
	c, tap, _, _ := tapped(t, table)
	d, err := c.Discover(context.Background(), dynamo.DiscoverInput{Table: table, PK: "P", Count: true, Budget: dynamo.Budget{MaxRequests: 1}})
	if err != nil {
		t.Fatal(err)
	}
	xs := tap.Exchanges("Query")
	if len(xs) != 2 {
		t.Errorf("%d requests, want the 2 pages of the partition: %v", len(xs), xs)
	}
	sameAsAnswered(t, d.Requests, xs)
	if len(d.Groups) != 31 || d.Partial {
		t.Fatalf("%d groups, partial %v", len(d.Groups), d.Partial)
	}
	total := 0
	for _, g := range d.Groups {
		if g.Count < 1 {
			t.Errorf("group %s has count %d", g.Entity, g.Count)
		}
		total += g.Count
	}
	if total != 90 {
		t.Errorf("counted %d items, want 90", total)
	}
}

// An empty first answer with a LastEvaluatedKey is not the end: the walk
// reads on and finds every type; a budget too small to do so ends it as
// partial, never as complete.
func TestDiscoverEmptyPageWithKeyGoesOn(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	pad := strings.Repeat("x", 10_000) // 120 items of 10 KB: the whole read is two pages
	for i := range 120 {
		put(t, api, table, dynamo.Item{"PK": s("P"), "SK": s(fmt.Sprintf("ORDER#%03d", i)), "pad": s(pad)})
	}
	put(t, api, table, dynamo.Item{"PK": s("P"), "SK": s("PROFILE")})
	c, _, p, _ := tapped(t, table)
	ctx := context.Background()
	for _, count := range []bool{false, true} {
		p.Inject(dynamotest.Rule{Op: "Query", From: 1, Count: 1, Fault: dynamotest.EmptyPageWithKey})
		d, err := c.Discover(ctx, dynamo.DiscoverInput{Table: table, PK: "P", Count: count})
		p.ClearFaults()
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Groups) != 2 || d.Groups[0].Entity != "ORDER" || d.Groups[1].Entity != "PROFILE" || d.Partial {
			t.Errorf("count=%v: groups %+v partial %v", count, d.Groups, d.Partial)
		}
		// The empty page's items never arrived: those after its key are
		// counted, each type to its end.
		if count && (d.Groups[0].Count < 1 || d.Groups[0].Count >= 120 || d.Groups[1].Count != 1) {
			t.Errorf("counts %d, %d", d.Groups[0].Count, d.Groups[1].Count)
		}
	}
	p.Inject(dynamotest.Rule{Op: "Query", From: 1, Count: 1, Fault: dynamotest.EmptyPageWithKey})
	d, err := c.Discover(ctx, dynamo.DiscoverInput{Table: table, PK: "P", Budget: dynamo.Budget{MaxRequests: 1}})
	p.ClearFaults()
	if err != nil || !d.Partial || len(d.Groups) != 0 {
		t.Errorf("a budget of 1 after an empty page: %v partial %v groups %+v", err, d.Partial, d.Groups)
	}
}
