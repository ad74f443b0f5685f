package dynamo_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/filterexpr"
)

// fItem is one loaded item as plain Go values: the filters' expected
// results are computed from these, not from anything dynascope decodes.
type fItem struct {
	sk      string
	status  string // "" when the item has none
	total   float64
	tags    []string
	nums    []int
	flag    bool
	null    bool   // note is NULL
	city    string // "" when there is no address
	skus    []string
	name    string
	hasNote bool
}

func filterItems() []fItem {
	var out []fItem
	for i := range 40 {
		it := fItem{sk: fmt.Sprintf("ITEM#%02d", i), total: float64(i*37%2000) + float64(i%4)*0.25, flag: i%2 == 1, name: "name-" + strconv.Itoa(i)}
		if i%7 != 0 {
			it.status = []string{"OPEN", "SHIPPED", "CLOSED"}[i%3]
		}
		if i%2 == 0 {
			it.tags = append(it.tags, "red")
		}
		if i%3 == 0 {
			it.tags = append(it.tags, "blue")
		}
		it.nums = []int{i % 4}
		if i%6 != i%4 {
			it.nums = append(it.nums, i%6)
		}
		it.hasNote = i%9 == 0 || i%5 == 0
		it.null = i%9 == 0
		if i%4 != 3 {
			it.city = []string{"Oakland", "Berlin", "Lima"}[i%3]
		}
		for j := range i % 3 {
			it.skus = append(it.skus, "S"+strconv.Itoa((i+j)%5))
		}
		out = append(out, it)
	}
	return out
}

func (f fItem) item(pk string) dynamo.Item {
	it := dynamo.Item{"PK": s(pk), "SK": s(f.sk), "total": n(strconv.FormatFloat(f.total, 'f', -1, 64)),
		"flag": &types.AttributeValueMemberBOOL{Value: f.flag}, "name": s(f.name)}
	if f.status != "" {
		it["status"] = s(f.status)
	}
	if len(f.tags) > 0 {
		it["tags"] = &types.AttributeValueMemberSS{Value: f.tags}
	}
	var ns []string
	for _, x := range f.nums {
		ns = append(ns, strconv.Itoa(x))
	}
	it["nums"] = &types.AttributeValueMemberNS{Value: ns}
	if f.hasNote {
		if f.null {
			it["note"] = &types.AttributeValueMemberNULL{Value: true}
		} else {
			it["note"] = s("n")
		}
	}
	if f.city != "" {
		it["address"] = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"city": s(f.city), "zip": n("94607")}}
	}
	var lines []types.AttributeValue
	for _, sku := range f.skus {
		lines = append(lines, &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"sku": s(sku)}})
	}
	it["lines"] = &types.AttributeValueMemberL{Value: lines}
	return it
}

// filterCases pair a filter with the same question asked in Go. DynamoDB's
// rules: a comparison with a missing attribute is false, except <>, which
// is NOT (=) and so true.
var filterCases = []struct {
	filter string
	keep   func(fItem) bool
}{
	{`status = "OPEN"`, func(f fItem) bool { return f.status == "OPEN" }},
	{`status <> "OPEN"`, func(f fItem) bool { return f.status != "OPEN" }},
	{`total < 500`, func(f fItem) bool { return f.total < 500 }},
	{`total <= 370.25`, func(f fItem) bool { return f.total <= 370.25 }},
	{`total > 1000`, func(f fItem) bool { return f.total > 1000 }},
	{`total >= 1036.5`, func(f fItem) bool { return f.total >= 1036.5 }},
	{`1000 < total`, func(f fItem) bool { return f.total > 1000 }},
	{`total BETWEEN 100 AND 700`, func(f fItem) bool { return f.total >= 100 && f.total <= 700 }},
	{`status IN ("OPEN", "CLOSED")`, func(f fItem) bool { return f.status == "OPEN" || f.status == "CLOSED" }},
	{`begins_with(name, "name-1")`, func(f fItem) bool { return strings.HasPrefix(f.name, "name-1") }},
	{`contains(tags, "blue")`, func(f fItem) bool { return slices.Contains(f.tags, "blue") }},
	{`contains(name, "-2")`, func(f fItem) bool { return strings.Contains(f.name, "-2") }},
	{`contains(nums, 3)`, func(f fItem) bool { return slices.Contains(f.nums, 3) }},
	{`attribute_exists(status)`, func(f fItem) bool { return f.status != "" }},
	{`attribute_not_exists(note)`, func(f fItem) bool { return !f.hasNote }},
	{`attribute_type(note, "NULL")`, func(f fItem) bool { return f.null }},
	{`attribute_type(note, "S")`, func(f fItem) bool { return f.hasNote && !f.null }},
	{`size(lines) >= 2`, func(f fItem) bool { return len(f.skus) >= 2 }},
	{`size(name) = 7`, func(f fItem) bool { return len(f.name) == 7 }},
	{`size(tags) = 2`, func(f fItem) bool { return len(f.tags) == 2 }},
	{`address.city = "Berlin"`, func(f fItem) bool { return f.city == "Berlin" }},
	{`attribute_not_exists(address.city)`, func(f fItem) bool { return f.city == "" }},
	{`lines[0].sku = "S1"`, func(f fItem) bool { return len(f.skus) > 0 && f.skus[0] == "S1" }},
	{`lines[1].sku IN ("S0", "S2")`, func(f fItem) bool { return len(f.skus) > 1 && (f.skus[1] == "S0" || f.skus[1] == "S2") }},
	{`flag = true`, func(f fItem) bool { return f.flag }},
	{`NOT flag = true`, func(f fItem) bool { return !f.flag }},
	{`status = "OPEN" AND total > 500 OR flag = false`, func(f fItem) bool { return f.status == "OPEN" && f.total > 500 || !f.flag }},
	{`status = "OPEN" AND (total > 500 OR flag = false)`, func(f fItem) bool { return f.status == "OPEN" && (f.total > 500 || !f.flag) }},
	{`NOT (attribute_exists(address) OR contains(tags, "red"))`, func(f fItem) bool { return f.city == "" && !slices.Contains(f.tags, "red") }},
}

// Every operator, on Query and on Scan, against the same question answered
// in Go from the data loaded; counts and RCU against DynamoDB's raw answers.
func TestFilterOperatorsAgainstDynamoDBLocal(t *testing.T) {
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	data := filterItems()
	for _, f := range data {
		put(t, api, table, f.item("P"))
	}
	put(t, api, table, dynamo.Item{"PK": s("OTHER"), "SK": s("X"), "status": s("OPEN"), "total": n("5000")})
	tap := dynamotest.StartTap(t, dynamotest.Endpoint(t))
	c, err := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: tap.URL, Region: "us-east-1", NoSchemaCache: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range filterCases {
		var want []string
		for _, f := range data {
			if tc.keep(f) {
				want = append(want, f.sk)
			}
		}
		// Limit 7 makes several pages, so the filter meets paging.
		var got []string
		var reqs []dynamo.Request
		q := dynamo.QueryInput{Table: table, PK: "P", Filter: tc.filter, Limit: 7}
		for {
			p, err := c.Query(ctx, q)
			if err != nil {
				t.Fatalf("%s: %v", tc.filter, err)
			}
			for _, it := range p.Items {
				got = append(got, it["SK"].(*types.AttributeValueMemberS).Value)
			}
			reqs = append(reqs, p.Request)
			if p.Request.Filter == "" {
				t.Errorf("%s: the request does not record its filter", tc.filter)
			}
			if p.LastEvaluatedKey == nil {
				break
			}
			q.StartKey = p.LastEvaluatedKey
		}
		if !slices.Equal(got, want) {
			t.Errorf("query %s: got %v, want %v", tc.filter, got, want)
		}
		checkAgainstTap(t, tc.filter, reqs, tap.Exchanges("Query"))

		// The same filter on a Scan: the other partition's item is read
		// (scanned, charged) and kept only when it matches.
		res, err := c.Scan(ctx, dynamo.ScanInput{Table: table, Filter: tc.filter, Segments: 2, Limit: 9})
		if err != nil {
			t.Fatalf("scan %s: %v", tc.filter, err)
		}
		if res.Scanned != len(data)+1 || res.Stop != dynamo.StopComplete {
			t.Errorf("scan %s: scanned %d of %d, stop %s", tc.filter, res.Scanned, len(data)+1, res.Stop)
		}
		checkAgainstTap(t, "scan "+tc.filter, res.Requests, tap.Exchanges("Scan"))
	}
}

// checkAgainstTap compares the client's records of the last len(reqs)
// requests with DynamoDB's raw answers to them.
func checkAgainstTap(t *testing.T, what string, reqs []dynamo.Request, xs []dynamotest.Exchange) {
	t.Helper()
	if len(xs) < len(reqs) {
		t.Fatalf("%s: %d requests recorded, %d seen", what, len(reqs), len(xs))
	}
	xs = xs[len(xs)-len(reqs):]
	var count, scanned int
	var rcu float64
	for _, x := range xs {
		var raw struct{ Count, ScannedCount int }
		if err := json.Unmarshal(x.Response, &raw); err != nil {
			t.Fatal(err)
		}
		count += raw.Count
		scanned += raw.ScannedCount
		rcu += x.Capacity
	}
	var gotCount, gotScanned int
	for _, r := range reqs {
		gotCount += int(r.Count)
		gotScanned += int(r.ScannedCount)
	}
	if gotCount != count || gotScanned != scanned || dynamo.TotalCapacity(reqs).Total != rcu {
		t.Errorf("%s: kept %d of %d read for %v RCU; DynamoDB said %d of %d for %v", what, gotCount, gotScanned, dynamo.TotalCapacity(reqs).Total, count, scanned, rcu)
	}
}

// A projection returns the attributes asked for and the keys, and costs
// what the whole items cost.
func TestProjectionKeepsKeysAndCost(t *testing.T) {
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	for _, f := range filterItems() {
		put(t, api, table, f.item("P"))
	}
	c, _ := connect(t)
	ctx := context.Background()
	whole, err := c.Query(ctx, dynamo.QueryInput{Table: table, PK: "P"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.Query(ctx, dynamo.QueryInput{Table: table, PK: "P", Project: "total, address.city, lines[0]"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Request.Capacity.Total != whole.Request.Capacity.Total || len(p.Items) != len(whole.Items) {
		t.Errorf("projected: %d items for %v RCU, whole: %d for %v", len(p.Items), p.Request.Capacity.Total, len(whole.Items), whole.Request.Capacity.Total)
	}
	for _, it := range p.Items {
		for name := range it {
			if !slices.Contains([]string{"PK", "SK", "total", "address", "lines"}, name) {
				t.Fatalf("projected item has %s: %v", name, it)
			}
		}
		if addr, ok := it["address"].(*types.AttributeValueMemberM); ok && len(addr.Value) != 1 {
			t.Errorf("address.city projected as %v", addr.Value)
		}
	}
	if p.Request.Projection != "total, address.city, lines[0]" {
		t.Errorf("projection recorded as %q", p.Request.Projection)
	}
}

// Bad syntax is one sentence with the column, and nothing is sent.
func TestBadFilterSendsNothing(t *testing.T) {
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	c, log := connect(t)
	ctx := context.Background()
	if _, err := c.TableKeys(ctx, table); err != nil {
		t.Fatal(err)
	}
	before := len(*log)
	for _, f := range []string{`status = `, `status == "x"`, `(a = 1`} {
		_, err := c.Query(ctx, dynamo.QueryInput{Table: table, PK: "P", Filter: f})
		var se *filterexpr.SyntaxError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), "column") {
			t.Errorf("%q: %v", f, err)
		}
		_, err = c.Scan(ctx, dynamo.ScanInput{Table: table, Filter: f})
		if !errors.As(err, &se) {
			t.Errorf("scan %q: %v", f, err)
		}
	}
	if _, err := c.Query(ctx, dynamo.QueryInput{Table: table, PK: "P", Project: "a,,b"}); err == nil || !strings.Contains(err.Error(), "projection") {
		t.Errorf("bad projection: %v", err)
	}
	if len(*log) != before {
		t.Errorf("bad input sent %d requests", len(*log)-before)
	}
}

// A Scan in segments returns each item exactly once, whatever the split;
// a cap stops it within the cap and says where each segment would go on.
func TestScanSegmentsAndCap(t *testing.T) {
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	const total = 1500
	var items []dynamo.Item
	pad := strings.Repeat("x", 300)
	for i := range total {
		items = append(items, dynamo.Item{"PK": s("P#" + strconv.Itoa(i%37)), "SK": s(fmt.Sprintf("S#%05d", i)), "pad": s(pad)})
	}
	batchPut(t, api, table, items)
	tap := dynamotest.StartTap(t, dynamotest.Endpoint(t))
	c, err := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: tap.URL, Region: "us-east-1", NoSchemaCache: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, segs := range []int{1, 3, 8} {
		seen := map[string]int{}
		res, err := c.Scan(ctx, dynamo.ScanInput{Table: table, Segments: segs, Limit: 100, OnPage: func(p dynamo.ScanPage) error {
			for _, it := range p.Items {
				seen[it["SK"].(*types.AttributeValueMemberS).Value]++
			}
			return nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		for k, n := range seen {
			if n != 1 {
				t.Errorf("%d segments: %s came %d times", segs, k, n)
			}
		}
		if len(seen) != total || res.Count != total || res.Scanned != total || res.Stop != dynamo.StopComplete {
			t.Errorf("%d segments: %d distinct items, count %d, scanned %d, stop %s", segs, len(seen), res.Count, res.Scanned, res.Stop)
		}
		checkAgainstTap(t, fmt.Sprintf("%d segments", segs), res.Requests, tap.Exchanges("Scan"))
	}

	for _, segs := range []int{1, 4} {
		const maxRCU = 6
		res, err := c.Scan(ctx, dynamo.ScanInput{Table: table, Segments: segs, MaxRCU: maxRCU})
		if err != nil {
			t.Fatal(err)
		}
		spent := res.Capacity().Total
		if spent > maxRCU || spent < maxRCU/2 || res.Stop != dynamo.StopMaxRCU || len(res.Resume) == 0 || res.Scanned >= total {
			t.Errorf("cap %v with %d segments: spent %v, stop %s, %d resume keys, scanned %d", float64(maxRCU), segs, spent, res.Stop, len(res.Resume), res.Scanned)
		}
	}

	// Cancelled: stops and keeps what was read.
	cctx, cancel := context.WithCancel(ctx)
	pages := 0
	res, err := c.Scan(cctx, dynamo.ScanInput{Table: table, Limit: 50, OnPage: func(dynamo.ScanPage) error {
		pages++
		if pages == 2 {
			cancel()
		}
		return nil
	}})
	if err != nil || res.Stop != dynamo.StopCancelled || res.Count != 100 || len(res.Resume) != 1 {
		t.Errorf("cancelled scan: %v, stop %s, count %d, resume %v", err, res.Stop, res.Count, res.Resume)
	}
}
