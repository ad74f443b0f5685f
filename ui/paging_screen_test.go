package ui

import (
	"fmt"
	"testing"

	"dynascope/config"
	"dynascope/dynamo"
)

// Issue 41.3: a partition's first page is sized to the screen (a Limit of
// a few screenfuls), so the first screen never waits on the partition's
// size; the query line keeps the user's request (Limit=none), the log line
// says why its Limit is small, and the page after it is DynamoDB's own (no
// Limit, up to 1 MB), from where the first ended. Before, the first Query
// had no Limit.
func TestFirstPageSizedToTheScreen(t *testing.T) {
	for _, size := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			hs := openBig(t, size[0], size[1], canned{items: pageOf("CUST#7", 98, 50), cap: halfRCU()})
			q := hs.store.queries()
			if len(q) != 1 || q[0].Limit != screenLimit(size[1]) || q[0].StartKey != nil {
				t.Fatalf("queries %+v; want one first page of Limit %d", q, screenLimit(size[1]))
			}
			if screenLimit(size[1]) < int32(3*hs.m.layout().itemRows) {
				t.Errorf("Limit %d holds less than three screens of %d rows", screenLimit(size[1]), hs.m.layout().itemRows)
			}
			hs.contains("Limit=none")
			if k := hs.m.log.Kinds[0]; k != screenKind {
				t.Errorf("the first page's log line is of kind %q; want %q", k, screenKind)
			}
			hs.keys("tab", "G")
			q = hs.store.queries()
			if len(q) != 2 || q[1].Limit != 0 || q[1].StartKey == nil {
				t.Fatalf("after G: %+v; want the next page without a Limit, after the first", q)
			}
			hs.contains("Limit=none")
		})
	}
}

// A Limit the user set (the settings' defaultLimit) is sent as it is:
// the first page is not resized, and n asks for each page.
func TestFirstPageKeepsTheUsersLimit(t *testing.T) {
	hs := newHarnessDisc(t, Options{Table: "App", PK: "CUST#7", Settings: config.Settings{DefaultLimit: 10}}, 120, 35,
		map[string]cannedDiscovery{"CUST#7": {d: bigDiscovery()}}, bigPartition())
	if q := hs.store.queries(); len(q) != 1 || q[0].Limit != 10 {
		t.Fatalf("queries %+v; want the user's Limit 10", q)
	}
	hs.lacks("first screen")
}

// A released first page is read again with the Limit it was first read
// with, so it holds the same items (itemscap.go's promise); the others
// as DynamoDB pages them.
func TestPageQueryReadsTheFirstPageAsItWasRead(t *testing.T) {
	q := dynamo.QueryInput{Table: "App", PK: "CUST#7"}
	start := dynamo.Item{"PK": s("CUST#7"), "SK": s("ORDER#1")}
	if got := pageQuery(q, 105, 1, nil); got.Limit != 105 || got.StartKey != nil {
		t.Errorf("page 1 again: %+v; want Limit 105 from the start", got)
	}
	if got := pageQuery(q, 105, 2, start); got.Limit != 0 || got.StartKey == nil {
		t.Errorf("page 2 again: %+v; want no Limit, from its start key", got)
	}
	if got := pageQuery(dynamo.QueryInput{Limit: 10}, 0, 1, nil); got.Limit != 10 {
		t.Errorf("a user's Limit: %+v; want it kept", got)
	}
}
