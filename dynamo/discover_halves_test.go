package dynamo_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"dynascope/demodata"
	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
	"dynascope/keys"
	"dynascope/keys/keystest"
)

// halvesPartitions loads the partitions the property is checked on into
// one table: every partition of the CLI's key-shape fixtures, the demo's
// CUST#7 (4,001 items) and four of its ordinary customers, and random
// shapes built from the pieces keys' FuzzSkipScan seeds are made of
// (prefixes of each other, exact labels beside prefix types, values,
// several delimiters, multi-byte text). It returns the partition keys.
func halvesPartitions(t *testing.T) (string, []string) {
	t.Helper()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	var items []dynamo.Item
	var pks []string
	add := func(pk, sk string) {
		if !slices.Contains(pks, pk) {
			pks = append(pks, pk)
		}
		items = append(items, dynamo.Item{"PK": s(pk), "SK": s(sk)})
	}
	shapes, err := keystest.Keys(keystest.KeyShapes)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range shapes {
		add(k.PK, k.SK)
	}
	demo := []string{"CUST#7", "CUST#42", "CUST#1195", "CUST#1094", "ORDER#A17"}
	for _, it := range demodata.Items() {
		if pk := itemcodec.KeyString(it["PK"]); slices.Contains(demo, pk) {
			add(pk, itemcodec.KeyString(it["SK"]))
		}
	}
	pieces := []string{"ORDER", "ORDER#", "ORDERS#", "ORDER$", "ORDER|", "order/", "PROFILE", "PROFILE#", "PROFILEX",
		"A", "A#", "A$B", "#", "##", "#METADATA#", "METADATA", "METADATA#v", "2025-01-", "1", "9", "Ä#", "日本#", "z#", "a:b", "a::b", "seat::", "~"}
	r := rand.New(rand.NewPCG(25, 6))
	for p := range 12 {
		pk := fmt.Sprintf("RAND#%02d", p)
		for range 4 + r.IntN(40) {
			sk := pieces[r.IntN(len(pieces))]
			if r.IntN(3) > 0 {
				sk += fmt.Sprint(r.IntN(50))
			}
			add(pk, sk)
		}
	}
	batchPut(t, api, table, dedupe(items))
	return table, pks
}

// dedupe drops repeated keys, which one BatchWriteItem refuses.
func dedupe(items []dynamo.Item) []dynamo.Item {
	seen := map[string]bool{}
	var out []dynamo.Item
	for _, it := range items {
		k := itemcodec.KeyString(it["PK"]) + "\x00" + itemcodec.KeyString(it["SK"])
		if !seen[k] {
			seen[k] = true
			out = append(out, it)
		}
	}
	return out
}

// The property the two halves must keep: walking from both ends at once
// finds what walking one way finds (the same types, the same ends where
// both read them, the same completeness), for every partition, both
// directions and first pages of several sizes (so the walk starts inside a
// type, at its end, or after it), sending at most one request more; and a
// budget the one-way walk fits in with one request more is one the walk
// from both ends fits in.
func TestDiscoverFromBothEndsEqualsOneWay(t *testing.T) {
	t.Parallel()
	table, pks := halvesPartitions(t)
	c, _ := connect(t)
	ctx := context.Background()
	var mu sync.Mutex
	walked := 0 // runs where the walk had a partner (more than a page)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for _, pk := range pks {
		for _, reverse := range []bool{false, true} {
			for _, limit := range []int32{1, 2, 5} {
				wg.Go(func() {
					sem <- struct{}{}
					defer func() { <-sem }()
					run := fmt.Sprintf("%s reverse=%v first page %d", pk, reverse, limit)
					p, err := c.Query(ctx, dynamo.QueryInput{Table: table, PK: pk, Reverse: reverse, Limit: limit})
					if err != nil {
						t.Error(err)
						return
					}
					discover := func(oneWay bool, b dynamo.Budget) (dynamo.Discovery, []keys.Group) {
						var arrived []keys.Group
						var amu sync.Mutex
						in := dynamo.DiscoverInput{Table: table, PK: pk, Reverse: reverse, First: &p, OneWay: oneWay, Budget: b,
							OnGroup: func(g keys.Group) { amu.Lock(); arrived = append(arrived, g); amu.Unlock() }}
						d, err := c.Discover(ctx, in)
						if err != nil {
							t.Errorf("%s, one way %v: %v", run, oneWay, err)
						}
						return d, arrived
					}
					one, _ := discover(true, dynamo.Budget{MaxRequests: -1})
					both, arrived := discover(false, dynamo.Budget{MaxRequests: -1})
					if !sameTypes(both.Groups, one.Groups) || both.Partial || one.Partial || both.Delimiter != one.Delimiter {
						t.Errorf("%s:\n both ends %+v (partial %v)\n one way   %+v (partial %v)", run, both.Groups, both.Partial, one.Groups, one.Partial)
					}
					if len(both.Requests) > len(one.Requests)+1 {
						t.Errorf("%s: %d requests from both ends, %d one way", run, len(both.Requests), len(one.Requests))
					}
					// Every type the walk found arrived as it did, with an end
					// read, both of a value group (before folding).
					for _, g := range arrived {
						if g.First == "" && g.Last == "" || g.Kind == keys.KindValue && (g.First == "" || g.Last == "") ||
							g.First != "" && g.Last != "" && g.First > g.Last != reverse && g.First != g.Last {
							t.Errorf("%s: arrived %+v", run, g)
						}
					}
					if len(one.Requests) == 0 {
						return // the first page held the partition
					}
					mu.Lock()
					walked++
					mu.Unlock()
					capped, _ := discover(false, dynamo.Budget{MaxRequests: len(one.Requests) + 1})
					if capped.Partial || !sameTypes(capped.Groups, one.Groups) {
						t.Errorf("%s: within the one-way walk's %d requests and one, from both ends: partial %v, %+v", run, len(one.Requests), capped.Partial, capped.Groups)
					}
					for _, cap := range slices.Compact([]int{1, len(one.Requests) / 2, len(one.Requests) - 1}) {
						if cap < 1 {
							continue
						}
						d, _ := discover(false, dynamo.Budget{MaxRequests: cap})
						if len(d.Requests) > cap || !d.Partial && !sameTypes(d.Groups, one.Groups) {
							t.Errorf("%s, budget %d: %d requests, partial %v, %+v", run, cap, len(d.Requests), d.Partial, d.Groups)
						}
					}
				})
			}
		}
	}
	wg.Wait()
	if walked < len(pks) {
		t.Errorf("only %d runs walked past the first page", walked)
	}
}

// The halves are in flight at once: through a proxy that adds 40 ms to
// every request, CUST#7's types (after a first page inside its orders)
// take fewer round trips from both ends than one way.
func TestDiscoverFromBothEndsOverlaps(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	var items []dynamo.Item
	for _, it := range demodata.Items() {
		if itemcodec.KeyString(it["PK"]) == "CUST#7" {
			items = append(items, it)
		}
	}
	batchPut(t, api, table, items)
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	c, err := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: p.URL, Region: "us-east-1", SchemaCacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.DescribeTable(context.Background(), table); err != nil {
		t.Fatal(err)
	}
	p.Inject(dynamotest.Rule{Fault: dynamotest.Delay(40 * time.Millisecond)})
	// The most requests in flight at once, from the proxy's own record of
	// when each arrived and was answered.
	inFlight := func(oneWay bool) (int, int) {
		before := len(p.Calls())
		d, err := c.Discover(context.Background(), dynamo.DiscoverInput{Table: table, PK: "CUST#7", OneWay: oneWay, Budget: dynamo.Budget{MaxRequests: -1}})
		if err != nil {
			t.Fatal(err)
		}
		return dynamotest.MostAtOnce(p.Calls()[before:]), len(d.Requests)
	}
	oneAtOnce, oneReqs := inFlight(true)
	bothAtOnce, bothReqs := inFlight(false)
	if oneAtOnce != 1 || bothAtOnce != 2 || bothReqs > oneReqs+1 {
		t.Errorf("one way: %d requests, at most %d at once; both ends: %d requests, at most %d at once", oneReqs, oneAtOnce, bothReqs, bothAtOnce)
	}
}
