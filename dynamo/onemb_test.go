package dynamo

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec"
)

// manyItems is n items of pad bytes each, every one returned.
func manyItems(n, pad int) []Item {
	items := make([]Item, n)
	for i := range items {
		items[i] = Item{"PK": &types.AttributeValueMemberS{Value: "P"}, "SK": &types.AttributeValueMemberS{Value: fmt.Sprintf("%06d", i)},
			"pad": &types.AttributeValueMemberS{Value: strings.Repeat("x", pad)}}
	}
	return items
}

// The rule from an answer's own figures: bytes from the capacity (the
// least it allows), items of the page's average size, the item that
// reaches 1 MB included.
func TestOneMBFromCapacity(t *testing.T) {
	page := func(scanned int32, rcu float64, limit int32, consistent bool) Page {
		return Page{ScannedCount: scanned, Request: Request{Capacity: Capacity{Total: rcu}, Limit: limit, Consistent: consistent}}
	}
	for _, tc := range []struct {
		name     string
		p        Page
		unit     float64
		requests int
	}{
		// DynamoDB Local's own first page of CUST#7: 1,744 items for
		// 128.5 RCU (257 units, just over 1 MB) is one DynamoDB page.
		{"128.5 RCU of small items", page(1744, 128.5, 0, false), 0.5, 1},
		// Half an RCU more is a unit more than the crossing item can be.
		{"129 RCU of small items", page(1750, 129, 0, false), 0.5, 2},
		// The filtered Query of CUST#7: one page, 294 RCU.
		{"CUST#7 filtered", page(4001, 294, 0, false), 0.5, 3},
		// Strongly consistent: a unit is 1 RCU.
		{"257 RCU strongly consistent", page(1744, 257, 0, true), 1, 1},
		{"258 RCU strongly consistent", page(1750, 258, 0, true), 1, 2},
		// Two items of 1.4 MB in all: one page holds them (the first is
		// under 1 MB, whichever it is).
		{"one huge and one small item", page(2, 178, 0, false), 0.5, 1},
		// A Limit of 1,000 items on Local's filtered page of 2.3 MB:
		// DynamoDB stops at 1 MB first.
		{"Limit page past 1 MB", page(1000, 294, 1000, false), 0.5, 3},
		// No capacity figure: nothing to read the bytes from.
		{"no capacity", Page{ScannedCount: 4001, Request: Request{NoCapacity: true}}, 0.5, 1},
		{"one item", page(1, 50, 0, false), 0.5, 1},
	} {
		var m OneMB
		m.add(tc.p, 1, tc.unit, false)
		if m.Requests != tc.requests || (len(m.Over) > 0) != (tc.requests > 1) {
			t.Errorf("%s: %d requests, over %+v; want %d", tc.name, m.Requests, m.Over, tc.requests)
		}
	}
}

// Items returned whole are followed by their own sizes, across the pages
// of the read: a page cut where DynamoDB would have cut it is not over, and
// what one page read past 1 MB goes on into the next DynamoDB page.
func TestOneMBFromItems(t *testing.T) {
	items := manyItems(3000, 1000) // about 2.9 MB
	size := 0
	for _, it := range items[:1] {
		size = itemcodec.ItemSize(it)
	}
	perPage := (1<<20 + size - 1) / size // the item that reaches 1 MB included
	var cut OneMB
	for i, n := 0, 1; i < len(items); i, n = i+perPage, n+1 {
		end := min(i+perPage, len(items))
		cut.add(Page{Items: items[i:end], Count: int32(end - i), ScannedCount: int32(end - i)}, n, 0.5, true)
	}
	if cut.Requests != 3 || len(cut.Over) != 0 {
		t.Errorf("pages cut as DynamoDB cuts them: %d requests, over %+v", cut.Requests, cut.Over)
	}
	var whole OneMB
	whole.add(Page{Items: items, Count: 3000, ScannedCount: 3000}, 1, 0.5, true)
	if whole.Requests != 3 || len(whole.Over) != 1 || !whole.Over[0].Exact || whole.Over[0].Stops != 2 {
		t.Errorf("one page of all: %d requests, over %+v", whole.Requests, whole.Over)
	}
	text := whole.Text(1)
	if !strings.HasPrefix(text, "DynamoDB would have paged this read: it ends a page once it has read 1 MB, before the filter, and page 1 read 3,000 items, ") ||
		!strings.Contains(text, "so on DynamoDB the read takes 3 requests, not 1 (DynamoDB Local does not stop a filtered page at 1 MB)") {
		t.Errorf("text %q", text)
	}
	if (OneMB{}).Text(1) != "" {
		t.Error("a read within the rule says something")
	}
}

// The segments of a Scan are streams of their own: a DynamoDB page never
// runs on from one segment into another, and each segment read is one
// request at least, even empty.
func TestOneMBSegments(t *testing.T) {
	items := manyItems(300, 1000) // about 300 KB each segment: one page
	segs := make([]OneMB, 4)
	for seg, n := range []int{1, 2, 3} {
		segs[seg].add(Page{Items: items, Count: 300, ScannedCount: 300}, n, 0.5, true)
	}
	m := mergeOneMB(segs) // segment 3 was not read
	if m.Requests != 3 || len(m.Over) != 0 {
		t.Errorf("three segments of one page: %d requests, over %+v", m.Requests, m.Over)
	}
	var empty OneMB
	empty.add(Page{}, 1, 0.5, true)
	if m := mergeOneMB([]OneMB{empty, segs[0]}); m.Requests != 2 {
		t.Errorf("an empty segment and one of a page: %d requests", m.Requests)
	}
}
