package ui

import (
	"strings"
	"testing"

	"dynascope/codegen"
	"dynascope/dynamo"
)

// Y in the item detail copies a get-item of that one item, not the
// partition's query: the item is what is shown.
func TestDetailCopiesAGetItemOfTheItem(t *testing.T) {
	hs := openExample(t, 120, 35)
	hs.keys("tab", "j", "enter")
	hs.contains("ORDER#2025-03-01#A17")
	hs.keys("Y")
	if len(hs.clipped) != 1 {
		t.Fatalf("clipboard got %d writes", len(hs.clipped))
	}
	want, err := codegen.GetItemCode(codegen.LangCLI, appTable(), dynamo.GetInput{Table: "App", PK: "CUST#42", SK: "ORDER#2025-03-01#A17", Consistent: true},
		codegen.CodeTarget{Region: "us-east-1", Endpoint: "http://127.0.0.1:8000"})
	if err != nil {
		t.Fatal(err)
	}
	if got := hs.clipped[0]; got != want || !strings.Contains(got, "aws dynamodb get-item") {
		t.Errorf("copied\n%s\nwant\n%s", got, want)
	}
	hs.contains("copied a get-item of this item")
}

// The edit form marks what the draft does to each value of the item read:
// changed, added, removed; nothing for a value as read, and nothing in a
// new item, where all is new. A number written differently is the same.
func TestDraftMarksChanges(t *testing.T) {
	it := dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#1"), "total": n("20"), "note": s("gift"), "status": s("OPEN")}
	d := newDraft(appTable(), it, false)
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
	dup := newDraft(appTable(), it, true)
	for i := range dup.rows {
		if got := dup.change(i); got != "" {
			t.Errorf("a new item's %s is marked %q", dup.rows[i].name, got)
		}
	}
}
