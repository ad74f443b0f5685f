package ui

import (
	"fmt"
	"strings"
	"testing"

	"dynascope/config"
	"dynascope/dynamo"
)

// shopOrder is AWS's OnlineShop order partition: one-letter sort-key
// prefixes that read better through EntityType.
func shopOrder() []dynamo.Item {
	it := func(sk, et string) dynamo.Item {
		return dynamo.Item{"PK": s("o#12345"), "SK": s(sk), "EntityType": s(et)}
	}
	return []dynamo.Item{
		it("c#12345", "order"), it("i#98765", "invoice"), it("p#12345", "orderItem"),
		it("p#99887", "orderItem"), it("sh#1", "shipment"), it("shp#1", "shipmentItem"),
	}
}

// b toggles the entity types pane to the loaded items' EntityType and
// back, sending nothing; the status bar and help offer it only where the
// items carry such an attribute, and enter on a value edits a request
// filter rather than sending one.
func TestGroupByEntityAttribute(t *testing.T) {
	hs := newHarnessDisc(t, Options{Table: "App", PK: "o#12345"}, 120, 35, nil, canned{items: shopOrder(), cap: halfRCU()})
	hs.contains("b group by EntityType", "▌ c ", "▌ shp ", "b groups by EntityType,")
	sent := len(hs.store.queries())
	hs.keys("b")
	if len(hs.store.queries()) != sent || hs.m.busy() {
		t.Fatalf("b sent a request: %d queries, %d before", len(hs.store.queries()), sent)
	}
	hs.contains("By EntityType · 5", "▌ orderItem ", `EntityType = "orderItem"`,
		"grouped by EntityType from the 6 items loaded: no request sent")
	if b := hs.m.keyMap().GroupBy; !b.Enabled() || b.Help().Desc != "group by sort key" {
		t.Errorf("b in the grouping by attribute: %v %q", b.Enabled(), b.Help().Desc)
	}
	if o := hs.m.keyMap().Open; o.Help().Desc != "filter the request by this value" {
		t.Errorf("enter in the grouping by attribute: %q", o.Help().Desc)
	}
	hs.lacks("▌ shp ", "# count")
	if row := groupRow(hs, "orderItem"); !strings.HasSuffix(row, " 2") {
		t.Errorf("orderItem row %q, want the exact count 2 (the page is the partition)", row)
	}
	hs.keys("j", "j", "j") // orderItem
	hs.contains("from p#12345", "to   p#99887")
	hs.keys("enter")
	if hs.m.mode() != modeRequestFilter || !strings.Contains(hs.screen(), `EntityType = "orderItem"`) || len(hs.store.queries()) != sent {
		t.Fatalf("enter on a value: mode %v, %d queries:\n%s", hs.m.mode(), len(hs.store.queries()), hs.screen())
	}
	hs.keys("esc")
	hs.keys("b")
	hs.contains("▌ shp ", "grouped by sort key")
	hs.lacks("By EntityType")
}

// A partition bigger than its first page: the title says the counts are
// of the items loaded, and the footer says what reading the rest would cost, without reading it;
// a page with an item that lacks the attribute takes the offer back.
func TestGroupByEntityAttributeOfAPage(t *testing.T) {
	items := shopOrder()
	for i := range 60 { // more order items than the screen shows, so nothing loads on its own
		items = append(items[:4:4], append([]dynamo.Item{{"PK": s("o#12345"), "SK": s(fmt.Sprintf("p#%05d", i)), "EntityType": s("orderItem")}}, items[4:]...)...)
	}
	withOut := dynamo.Item{"PK": s("o#12345"), "SK": s("z#1")}
	hs := newHarnessDisc(t, Options{Table: "App", PK: "o#12345"}, 120, 35,
		map[string]cannedDiscovery{"o#12345": {d: dynamo.Discovery{KeyType: "S", Delimiter: "#"}}},
		canned{items: items[:64], last: items[63], cap: halfRCU()}, canned{items: append(items[64:], withOut), cap: halfRCU()})
	hs.keys("b")
	hs.contains("EntityType · of 64 loaded", "grouped by EntityType from the 64 items loaded: no request sent", "the partition has more: n", "costs at most 418.5 RCU")
	hs.lacks("By EntityType · 3") // not the partition's values: those of the items loaded
	if row := groupRow(hs, "orderItem"); !strings.HasSuffix(row, " 62") {
		t.Errorf("orderItem row %q, want 62 (of the items loaded, as the title says)", row)
	}
	hs.keys("n") // the user's own next page: an item without EntityType
	hs.contains("▌ z ")
	hs.lacks("By EntityType", "b group by")
}

// At 120 columns beside the running cost and its price, the status bar
// still offers b: it comes right after help and quit.
func TestGroupByKeyFitsTheStatusBar(t *testing.T) {
	hs := newHarnessDisc(t, Options{Table: "App", PK: "o#12345", Settings: config.DefaultSettings()}, 120, 35, nil, canned{items: shopOrder(), cap: halfRCU()})
	lines := strings.Split(hs.screen(), "\n")
	bar := lines[len(lines)-1]
	if !strings.Contains(bar, "on-demand") || !strings.Contains(bar, "b group by EntityType") {
		t.Errorf("status bar %q: want the price and b", bar)
	}
}
