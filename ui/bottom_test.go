package ui

import "testing"

// One G ends at the last item: the pages it makes load take the cursor to
// their end as they arrive, not only the one loaded when G was pressed.
func TestOneGEndsAtTheLastItem(t *testing.T) {
	p2 := pageOf("CUST#7", 98, 200)
	p3 := pageOf("CUST#7", 298, 50)
	hs := openBig(t, 120, 35,
		canned{items: p2, last: p2[len(p2)-1], cap: halfRCU()},
		canned{items: p3, cap: halfRCU()})
	hs.keys("tab", "G")
	if n := len(hs.store.queries()); n != 3 {
		t.Fatalf("G sent %d queries, want the first page and two more", n)
	}
	if got, want := hs.m.items.Cursor(), hs.m.items.Rows()-1; got != want || want != 100+200+50-1 {
		t.Errorf("after one G the cursor is on row %d of %d", got, want+1)
	}
	hs.contains("ORDER#00347")
}
