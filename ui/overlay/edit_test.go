package overlay

import (
	"testing"

	"dynascope/dynamo"
)

// The edit form marks what the draft does to each value of the item read:
// changed, added, removed; nothing for a value as read, and nothing in a
// new item, where all is new. A number written differently is the same.
func TestDraftMarksChanges(t *testing.T) {
	it := dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#1"), "total": n("20"), "note": s("gift"), "status": s("OPEN")}
	d := NewDraft(appTable(), it, false)
	row := func(name string) int {
		for i, r := range d.rows {
			if r.name == name {
				return i
			}
		}
		t.Fatalf("no row %s", name)
		return -1
	}
	d.rows[row("total")].text = "20.0"
	d.rows[row("status")].text = "SHIPPED"
	d.rows[row("note")].removed = true
	d.rows = append(d.rows, draftRow{name: "carrier", typ: "S", text: "DHL"})
	want := map[string]string{"PK": "", "SK": "", "total": "", "status": "~", "note": "-", "carrier": "+"}
	for name, mark := range want {
		if got := d.change(row(name)); got != mark {
			t.Errorf("%s: %q, want %q", name, got, mark)
		}
	}
	dup := NewDraft(appTable(), it, true)
	for i := range dup.rows {
		if got := dup.change(i); got != "" {
			t.Errorf("a new item's %s is marked %q", dup.rows[i].name, got)
		}
	}
}
