package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

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
