package ui

import (
	"testing"

	"dynascope/dynamo"
)

// The counts of the types pane are of the partition: after l 10 reads fewer
// items than the first read did, the partition and ORDER keep the 100+ and
// 98+ that read showed, instead of dropping to the page's 10+.
func TestPartitionCountOutlivesASmallerLimit(t *testing.T) {
	first := bigPartition().items[:10]
	hs := openBig(t, 120, 35, canned{items: first, last: first[len(first)-1], cap: dynamo.Capacity{Total: 1, Table: 1}})
	wantCount(t, hs, "partition", "100+")
	wantCount(t, hs, "ORDER", "98+")
	hs.keys("l", "ctrl+u")
	hs.typeText("10")
	hs.keys("enter")
	if q := hs.store.queries(); q[len(q)-1].Limit != 10 {
		t.Fatalf("l 10 sent Limit %d", q[len(q)-1].Limit)
	}
	hs.contains("Items · 10+ loaded")
	wantCount(t, hs, "partition", "100+")
	wantCount(t, hs, "ORDER", "98+")
	wantCount(t, hs, "ADDRESS", "2")
}
