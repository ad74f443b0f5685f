package dynamo_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
)

// capTable is a table for the cap tests: n items of pad(i) bytes of
// padding, and the caps to read it under.
type capTable struct {
	name string
	n    int
	pad  func(i int) int
	caps []float64
}

var capTables = []capTable{
	// The resume tests' spread: 100 B to about 3 KB.
	{"varied", 300, func(i int) int { return 100 + (i*337)%3000 }, []float64{1.5, 4, 11, 40}},
	{"uniform", 300, func(int) int { return 1500 }, []float64{1.5, 4, 11, 40}},
	// Larger than a few 1 MB pages: pages far from the cap are full ones.
	{"varied, 2,400", 2400, func(i int) int { return 100 + (i*337)%3000 }, []float64{100, 300}},
}

func loadCapTable(t *testing.T, ct capTable) string {
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	var items []dynamo.Item
	for i := range ct.n {
		items = append(items, dynamo.Item{"PK": s("P#" + strconv.Itoa(i%7)), "SK": s(fmt.Sprintf("S#%05d", i)), "pad": s(strings.Repeat("x", ct.pad(i)))})
	}
	batchPut(t, api, table, items)
	return table
}

// A capped Scan, resumed from its Resume until complete, never spends past
// its cap unless a page held an item larger than every item of the pages
// before it (an item is known only once read); each item comes once. The
// log says how often and by how much the cap was passed, and how many
// requests the whole table took.
func TestScanCapHolds(t *testing.T) {
	c, err := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: dynamotest.Endpoint(t), Region: "us-east-1", NoSchemaCache: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, ct := range capTables {
		table, name := loadCapTable(t, ct), ct.name
		for _, segs := range []int{1, 4} {
			for _, cap := range ct.caps {
				seen := map[string]int{}
				runs, reqs, over, excused := 0, 0, 0, 0
				worst := 0.0
				var start map[int]dynamo.Item
				for {
					runs++
					if runs > 300 {
						t.Fatalf("%s, %d segments, cap %g: not complete after 300 runs", name, segs, cap)
					}
					largest, grew := 0, false
					res, err := c.Scan(ctx, dynamo.ScanInput{Table: table, Segments: segs, MaxRCU: cap, Start: start, OnPage: func(p dynamo.ScanPage) error {
						page := 0
						for _, it := range p.Items {
							seen[it["SK"].(*types.AttributeValueMemberS).Value]++
							page = max(page, itemcodec.ItemSize(it))
						}
						if largest > 0 && page > largest {
							grew = true
						}
						largest = max(largest, page)
						return nil
					}})
					if err != nil {
						t.Fatal(err)
					}
					reqs += len(res.Requests)
					if spent := res.Capacity().Total; spent > cap {
						over++
						worst = max(worst, spent-cap)
						if grew {
							excused++
						} else {
							t.Errorf("%s, %d segments, cap %g, run %d: spent %g with no item larger than those of the pages before it", name, segs, cap, runs, spent)
						}
					}
					if res.Stop == dynamo.StopComplete {
						break
					}
					if res.Stop != dynamo.StopMaxRCU || len(res.Resume) == 0 {
						t.Fatalf("%s, %d segments, cap %g: stop %s, %d resume keys", name, segs, cap, res.Stop, len(res.Resume))
					}
					start = res.Resume
				}
				t.Logf("%s items, %d segments, cap %g RCU: %d runs, %d requests, %d runs past the cap (%d after an item larger than any before it), by at most %g RCU",
					name, segs, cap, runs, reqs, over, excused, worst)
				if len(seen) != ct.n {
					t.Errorf("%s, %d segments, cap %g: %d distinct items, want %d", name, segs, cap, len(seen), ct.n)
				}
				for k, n := range seen {
					if n != 1 {
						t.Errorf("%s, %d segments, cap %g: %s came %d times", name, segs, cap, k, n)
					}
				}
			}
		}
	}
}

// Items larger than the cap: each run still reads one item, passes the
// cap by what that item costs beyond it, and goes on; the whole table is
// read once.
func TestScanCapSmallerThanAnItem(t *testing.T) {
	table := loadCapTable(t, capTable{n: 5, pad: func(int) int { return 10000 }})
	c, err := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: dynamotest.Endpoint(t), Region: "us-east-1", NoSchemaCache: true})
	if err != nil {
		t.Fatal(err)
	}
	var start map[int]dynamo.Item
	read := 0
	for runs := 1; ; runs++ {
		if runs > 10 {
			t.Fatal("not complete after 10 runs")
		}
		res, err := c.Scan(context.Background(), dynamo.ScanInput{Table: table, MaxRCU: 1, Start: start})
		if err != nil {
			t.Fatal(err)
		}
		read += res.Scanned
		// One item of about 10 KB: 3 units of 0.5 RCU, past the cap of 1.
		if res.Scanned > 0 && (len(res.Requests) != 1 || res.Capacity().Total != 1.5) {
			t.Errorf("run %d: %d requests, %g RCU, want one page of one item at 1.5 RCU", runs, len(res.Requests), res.Capacity().Total)
		}
		if res.Stop == dynamo.StopComplete {
			break
		}
		if res.Scanned != 1 || res.Stop != dynamo.StopMaxRCU {
			t.Fatalf("run %d: scanned %d, stop %s", runs, res.Scanned, res.Stop)
		}
		start = res.Resume
	}
	if read != 5 {
		t.Errorf("read %d items, want the table's 5", read)
	}
}

// CapSizer: a page fits what is left for items of the largest size read.
func TestCapSizer(t *testing.T) {
	c := dynamo.NewCapSizer(0.5, 1000) // before any page: items of 4,000 B
	for _, tc := range []struct {
		left     float64
		segments int
		limit    int32
		first    bool
		n        int32
		worst    float64
		ok       bool
	}{
		{1.5, 1, 0, false, 3, 1.5, true},         // 12 KB: 3 items of 4,000 B
		{1.5, 1, 2, false, 2, 1, true},           // --limit is kept
		{1.5, 3, 0, false, 1, 0.5, true},         // shared by 3 segments: a unit each
		{0.4, 1, 0, true, 0, 0, false},           // less than any page costs
		{100, 1, 0, false, 204, 100, true},       // 200 units
		{1e6, 1, 0, false, 2048000, 128.5, true}, // a page reads 1 MB and one item at most
	} {
		n, worst, ok := c.Next(tc.left, tc.segments, tc.limit, tc.first)
		if n != tc.n || worst != tc.worst || ok != tc.ok {
			t.Errorf("Next(%g, %d, %d, %v) = %d, %g, %v; want %d, %g, %v", tc.left, tc.segments, tc.limit, tc.first, n, worst, ok, tc.n, tc.worst, tc.ok)
		}
	}
	// A page of ten items of 9,000 B, charged 22 units (9,011.2 B an item):
	// one such item costs 3 units, so 1 RCU left is too little, unless
	// nothing was read.
	var items []dynamo.Item
	for range 10 {
		items = append(items, dynamo.Item{"k": &types.AttributeValueMemberS{Value: strings.Repeat("x", 8999)}})
	}
	c.Read(dynamo.Page{Items: items, Count: 10, ScannedCount: 10, Request: dynamo.Request{Capacity: dynamo.Capacity{Total: 11}}}, false)
	if got := c.Largest(); got != 22*4096/10.0 {
		t.Errorf("largest %g after items of 9,000 B charged 22 units, want 9011.2", got)
	}
	if _, _, ok := c.Next(1, 1, 0, false); ok {
		t.Error("a page of 9,000 B items under 1 RCU")
	}
	if n, worst, ok := c.Next(1, 1, 0, true); !ok || n != 1 || worst != 1.5 {
		t.Errorf("the first page: %d items, %g, %v; want 1 item of at most 1.5 RCU", n, worst, ok)
	}
}
