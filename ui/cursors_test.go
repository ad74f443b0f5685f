package ui

import (
	"testing"

	"dynascope/dynamo"
	"dynascope/ui/overlay"
)

// Leaving the partition closes F's links on an item; opening them again
// on that item after coming back puts the cursor where it was, once; on
// another item, or in another partition, it starts at the top.
func TestOverlayCursorKeptAcrossPartitions(t *testing.T) {
	hs := newHarnessDisc(t, Options{Table: "App", PK: "CUST#42"}, 120, 35, nil, canned{items: example(), cap: halfRCU()})
	order := dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17")}
	links := func(it dynamo.Item, n int) overlay.Links {
		return overlay.NewLinks(0, []overlay.Link{{PK: "ORDER#A17"}, {PK: "CUST#7"}, {PK: "WH#1"}}[:n], it)
	}
	m := hs.m.push(links(order, 3))
	o, _ := findOverlay[overlay.Links](m)
	m = replaceOverlay(m, o.WithCursor(2))
	m = goTo(m, "CUST#7")
	if len(m.overlays) != 0 {
		t.Fatalf("leaving the partition left %d overlays open", len(m.overlays))
	}
	if got := cursorOf(m.push(links(order, 3))); got != 0 {
		t.Errorf("links of the order in another partition: cursor %d, want 0", got)
	}
	m = goTo(m, "CUST#42")
	if got := cursorOf(m.push(links(dynamo.Item{"PK": s("CUST#42"), "SK": s("PROFILE")}, 3))); got != 0 {
		t.Errorf("links of another item: cursor %d, want 0", got)
	}
	m = m.push(links(order, 3))
	if got := cursorOf(m); got != 2 {
		t.Errorf("links of the order after coming back: cursor %d, want 2", got)
	}
	if got := cursorOf(m.pop().push(links(order, 3))); got != 0 {
		t.Errorf("closed with esc and opened again: cursor %d, want 0 (kept once, for the partition change)", got)
	}
	// Fewer rows than the kept cursor: it is clamped.
	m = m.push(links(order, 3))
	o, _ = findOverlay[overlay.Links](m)
	m = goTo(replaceOverlay(m, o.WithCursor(2)), "CUST#7")
	m = goTo(m, "CUST#42")
	if got := cursorOf(m.push(links(order, 1))); got != 0 {
		t.Errorf("one link now: cursor %d, want 0", got)
	}
}

func cursorOf(m Model) int {
	o, _ := findOverlay[overlay.Links](m)
	return o.CursorAt()
}

// goTo opens partition pk as a pattern run does: moveTo, then its query
// (not run here).
func goTo(m Model, pk string) Model {
	m, _ = m.moveTo("", pk)
	m, _ = m.startQuery(dynamo.QueryInput{Table: "App", PK: pk}, false)
	return m
}
