package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/exp/golden"

	"dynascope/dynamo"
	"dynascope/ui/pane"
)

// An item's id is its table key in DynamoDB's words: one per key, whatever
// the values hold, and the table's key when read through an index.
func TestItemIDIsTheTableKey(t *testing.T) {
	base := pane.Items{}.SetSchema(dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}})
	gsi := pane.Items{}.SetSchema(dynamo.KeySchema{Index: "GSI1", PK: dynamo.KeyAttr{Name: "GSI1PK", Type: "S"},
		SK: &dynamo.KeyAttr{Name: "GSI1SK", Type: "S"}, Base: []string{"PK", "SK"}})
	noSK := pane.Items{}.SetSchema(dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "id", Type: "N"}})
	bin := pane.Items{}.SetSchema(dynamo.KeySchema{PK: dynamo.KeyAttr{Name: "PK", Type: "B"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "N"}})
	for _, c := range []struct {
		name string
		p    pane.Items
		it   dynamo.Item
		want string
	}{
		{"strings", base, dynamo.Item{"PK": s("CUST#7"), "SK": s("ORDER#01"), "total": n("3")}, `"CUST#7" "ORDER#01"`},
		{"a quote and a backslash", base, dynamo.Item{"PK": s(`a" "b`), "SK": s(`c\`)}, `"a\" \"b" "c\\"`},
		{"through an index", gsi, dynamo.Item{"PK": s("CUST#7"), "SK": s("ORDER#01"), "GSI1PK": s("WH#1"), "GSI1SK": s("x")}, `"CUST#7" "ORDER#01"`},
		{"no sort key", noSK, dynamo.Item{"id": n("17"), "name": s("x")}, `17`},
		{"binary and number", bin, dynamo.Item{"PK": &types.AttributeValueMemberB{Value: []byte{0, 1, 2}}, "SK": n("-1.5")}, `b"AAEC" -1.5`},
	} {
		if got := c.p.ItemID(c.it); got != c.want {
			t.Errorf("%s: id %s, want %s", c.name, got, c.want)
		}
	}
	// Values that hold the separator still name different keys.
	ids := map[string]bool{}
	for _, k := range [][2]string{{"a b", "c"}, {"a", "b c"}, {"a", `" "b c`}, {`a" "`, "b c"}, {"a ", " b c"}} {
		ids[base.ItemID(dynamo.Item{"PK": s(k[0]), "SK": s(k[1])})] = true
	}
	if len(ids) != 5 {
		t.Errorf("5 keys gave %d ids: %v", len(ids), ids)
	}
}

// Marks belong to items, not to rows or pages: they stay while the cap
// releases an item's page and the page is read again, and through the
// local filter; every item of a 14,000-item partition has an id of its own.
func TestItemMarksSurviveReleasedPages(t *testing.T) {
	const total, maxLoaded = 14_000, 5_000
	d, rs := openBench(t, total, maxLoaded)
	ids := map[string]bool{}
	for _, pg := range rs.pages {
		for _, it := range pg.items {
			ids[d.m.items.ItemID(it)] = true
		}
	}
	if len(ids) != total {
		t.Fatalf("%d items have %d ids", total, len(ids))
	}
	first := rs.pages[0].items[0]
	if d.m.items.Store.Pages[0].Resident() {
		t.Fatal("the first page should be released at the end")
	}
	last, ok := d.m.items.Selected()
	if !ok {
		t.Fatal("no item under the cursor at the end")
	}
	d.m.items.List = d.m.items.List.Mark(d.m.items.ItemID(first)).Toggle(d.m.items.ItemID(last))
	marked := func(step string, it dynamo.Item) {
		t.Helper()
		if n := d.m.items.List.MarkCount(); n != 2 {
			t.Fatalf("%s: %d marks, want 2", step, n)
		}
		if !d.m.items.List.Marked(d.m.items.ItemID(it)) {
			t.Fatalf("%s: %s is not marked", step, d.m.items.ItemID(it))
		}
	}
	marked("marked", last)

	d.send(keyPress("home")) // page 1 read again, the last page released
	if !d.m.items.Store.Pages[0].Resident() || d.m.items.Store.Pages[len(d.m.items.Store.Pages)-1].Resident() {
		t.Fatal("home did not read page 1 again and release the last")
	}
	top, _ := d.m.items.Selected()
	if keyOf(top, "SK") != keyOf(first, "SK") {
		t.Fatalf("home shows %s, want %s", keyOf(top, "SK"), keyOf(first, "SK"))
	}
	marked("page 1 read again", top)

	d.send(keyPress("/"))
	for _, r := range "EVENT#0000001" {
		d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if d.m.items.Filter != "EVENT#0000001" || d.m.items.Rows() == 0 || d.m.items.Rows() == total {
		t.Fatalf("the filter %q shows %d rows", d.m.items.Filter, d.m.items.Rows())
	}
	d.send(keyPress("enter"))
	d.send(keyPress("esc"))
	marked("the filter set and cleared", top)

	d.send(keyPress("end")) // the last page read again
	end, _ := d.m.items.Selected()
	if keyOf(end, "SK") != keyOf(last, "SK") {
		t.Fatalf("end shows %s, want %s", keyOf(end, "SK"), keyOf(last, "SK"))
	}
	marked("the last page read again", end)
	d.m.items.List = d.m.items.List.Toggle(d.m.items.ItemID(end))
	if d.m.items.List.MarkCount() != 1 || !d.m.items.List.Marked(d.m.items.ItemID(first)) {
		t.Fatalf("unmarking the last left marks %v", d.m.items.List.Marks())
	}
}

// markedSKs is the sort keys of the loaded items marked, in order.
func markedSKs(hs *harness) []string {
	var out []string
	for _, it := range memItems(hs.m.items) {
		if hs.m.items.List.Marked(hs.m.items.ItemID(it)) {
			out = append(out, keyOf(it, "SK"))
		}
	}
	return out
}

// wantMarked checks the marks, the status bar's count and the rows' glyph.
func wantMarked(t *testing.T, hs *harness, step string, want ...string) {
	t.Helper()
	if got := markedSKs(hs); !slices.Equal(got, want) {
		t.Errorf("%s: marked %v, want %v", step, got, want)
	}
	bar := hs.screen()
	if len(want) == 0 {
		if strings.Contains(bar, " marked ") {
			t.Errorf("%s: the status bar counts marks with none marked", step)
		}
		return
	}
	hs.contains(fmt.Sprintf("· %d marked", len(want)))
	for _, sk := range want {
		if l := hs.line(sk); !strings.Contains(l, pane.MarkGlyph+sk) && hs.m.items.Filter == "" {
			t.Errorf("%s: the row of %s is drawn without its mark: %q", step, sk, l)
		}
	}
}

// space marks the item under the cursor and moves down; V marks from the
// last item toggled to the cursor; A every loaded result, saying the
// query has pages not read; U clears. None of them sends a request.
func TestMarkKeys(t *testing.T) {
	hs := openBig(t, 120, 35)
	sent := len(hs.store.queries())
	hs.keys("tab", "space")
	wantMarked(t, hs, "space", "ADDRESS#HOME")
	if sk := selectedSK(hs); sk != "ADDRESS#WORK" {
		t.Errorf("after space the cursor is on %s, want the next row", sk)
	}
	hs.keys("space", "j", "j", "space", "k", "space") // ORDER#00002 marked and unmarked: the range starts there
	wantMarked(t, hs, "space twice on one", "ADDRESS#HOME", "ADDRESS#WORK")
	hs.keys("j", "j", "V")
	wantMarked(t, hs, "range", "ADDRESS#HOME", "ADDRESS#WORK", "ORDER#00002", "ORDER#00003", "ORDER#00004", "ORDER#00005")
	hs.contains("marked 4 from the last marked item to here")
	hs.keys("A")
	if n := hs.m.items.MarkCount(); n != 100 {
		t.Errorf("A marked %d, want the 100 loaded", n)
	}
	hs.contains("marked 94 loaded results (6 already)", "· 100 marked", "the query has more pages, not read: y reads them all and marks every result (it costs what it reads: ")
	hs.keys("esc")
	hs.contains("the loaded results are marked (100 marked); the pages not read are not")
	hs.keys("U")
	wantMarked(t, hs, "cleared")
	hs.contains("100 marks cleared")
	if n := len(hs.store.queries()) - sent; n != 0 {
		t.Errorf("marking sent %d queries", n)
	}
	hs.keys("V")
	hs.contains("no start for a range here")
}

func selectedSK(hs *harness) string {
	it, _ := hs.m.items.Selected()
	return keyOf(it, "SK")
}

// space in the types pane marks the loaded items of the type under the
// cursor, and only those; on the partition's row, every loaded item.
func TestMarkEntityType(t *testing.T) {
	hs := openBig(t, 120, 35)
	var orders []string
	for _, it := range memItems(hs.m.items) {
		if sk := keyOf(it, "SK"); strings.HasPrefix(sk, "ORDER#") {
			orders = append(orders, sk)
		}
	}
	hs.keys("j", "j") // ORDER
	if hs.m.mode() != modeGroups {
		t.Fatal("openBig does not start in the types pane")
	}
	hs.keys("space")
	if got := markedSKs(hs); !slices.Equal(got, orders) || len(orders) != 98 {
		t.Fatalf("marked %d items, want the %d loaded orders", len(got), len(orders))
	}
	hs.contains("marked 98 loaded ORDER items · more pages unread", "· 98 marked")
	hs.keys("k", "space") // ADDRESS
	if n := hs.m.items.MarkCount(); n != 100 {
		t.Errorf("ADDRESS added to ORDER: %d marked, want 100", n)
	}
	hs.keys("U", "g", "space")
	if n := hs.m.items.MarkCount(); n != 100 {
		t.Errorf("the partition's row marked %d, want every loaded item", n)
	}
}

// A marks the filter's matches only; the marks stay when the filter is
// cleared, and the rows filtered out stay unmarked.
func TestMarkFilterMatches(t *testing.T) {
	hs := openBig(t, 120, 35)
	hs.filterLoaded("ADDRESS")
	hs.keys("A")
	hs.contains("marked 2 loaded filter matches")
	hs.keys("esc")
	if hs.m.items.Filter != "" {
		t.Fatal("esc did not clear the filter")
	}
	wantMarked(t, hs, "filter cleared", "ADDRESS#HOME", "ADDRESS#WORK")
}

// Marks outlive a live MODIFY of the item; a REMOVE takes the mark of
// the item it removed, as a mark names an item.
func TestMarksThroughLiveRecords(t *testing.T) {
	hs := openExample(t, 120, 35)
	hs.keys("tab", "space", "space")
	wantMarked(t, hs, "marked", "ORDER#2025-01-09#A11", "ORDER#2025-03-01#A17")
	m := hs.m
	m.live.info = dynamo.StreamInfo{Table: "App", PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}, ViewType: "NEW_AND_OLD_IMAGES"}
	k := func(sk string) dynamo.Item { return dynamo.Item{"PK": s("CUST#42"), "SK": s(sk)} }
	changed := example()[0]
	changed["total"] = n("21")
	hs.m = m.liveRecords([]dynamo.StreamRecord{
		{Event: "MODIFY", Keys: k("ORDER#2025-01-09#A11"), New: changed},
		{Event: "REMOVE", Keys: k("ORDER#2025-03-01#A17")},
	})
	if n := len(memItems(hs.m.items)); n != 2 {
		t.Fatalf("the records left %d items, want 2", n)
	}
	wantMarked(t, hs, "after the records", "ORDER#2025-01-09#A11")
}

// Marks are the table's: another partition keeps them, back again they
// show on their rows.
func TestMarksKeptAcrossPartitions(t *testing.T) {
	other := []dynamo.Item{{"PK": s("CUST#43"), "SK": s("PROFILE"), "name": s("Bo")}}
	hs := openExample(t, 120, 35, canned{items: other, cap: halfRCU()}, canned{items: example(), cap: halfRCU()})
	hs.keys("tab", "space")
	hs.keys("p", "ctrl+u")
	hs.typeText("CUST#43")
	hs.keys("enter")
	hs.contains("Items · 1 loaded", "· 1 marked")
	if got := markedSKs(hs); len(got) != 0 {
		t.Errorf("CUST#43 shows marks on %v", got)
	}
	hs.keys("p", "ctrl+u")
	hs.typeText("CUST#42")
	hs.keys("enter")
	wantMarked(t, hs, "back on CUST#42", "ORDER#2025-01-09#A11")
}

// The marks at the two usual sizes: the glyph on the rows, the count in
// the status bar, what A said.
func TestGoldenMarks(t *testing.T) {
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("marked/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := openBig(t, sz[0], sz[1])
			hs.keys("tab", "space", "j", "j", "space", "j", "V")
			golden.RequireEqual(t, []byte(hs.screen()))
		})
		t.Run(fmt.Sprintf("help/%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := openBig(t, sz[0], sz[1])
			hs.keys("tab", "space", "?")
			golden.RequireEqual(t, []byte(hs.screen()))
		})
	}
}

// A with pages not read asks first, saying what reading them may cost;
// y reads each of them, marking its items as it comes, until the query's
// end: every result is marked, and the pages were the query's own.
func TestMarkAllReadsTheRestAfterAsking(t *testing.T) {
	rest := canned{items: pageOf("CUST#7", 98, 40), cap: dynamo.Capacity{Total: 3, Table: 3}}
	hs := openBig(t, 120, 35, rest)
	sent := len(hs.store.queries())
	hs.keys("A")
	if n := len(hs.store.queries()) - sent; n != 0 || hs.m.items.MarkCount() != 100 {
		t.Fatalf("A before y: %d queries, %d marked", n, hs.m.items.MarkCount())
	}
	hs.contains("y reads them all and marks every result")
	hs.keys("y")
	qs := hs.store.queries()[sent:]
	if len(qs) != 1 || qs[0].StartKey == nil || qs[0].PK != "CUST#7" {
		t.Fatalf("y sent %+v, want the next page of the query", qs)
	}
	if n := hs.m.items.MarkCount(); n != 140 || hs.m.results.more() {
		t.Errorf("after the rest: %d marked (want 140), more %v", n, hs.m.results.more())
	}
	hs.contains("marked every result: 40 more from 1 page read", "· 140 marked")
}
