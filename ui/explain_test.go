package ui

import (
	"context"
	"errors"
	"testing"

	"dynascope/ui/overlay"
)

// On a partition that holds items, w is off: nothing is offered, nothing
// is read, and the keys already typed stay as they were.
func TestWhyEmptyOnlyOnAnEmptyResult(t *testing.T) {
	hs := openExample(t, 120, 35)
	n := len(hs.store.calls)
	hs.lacks("why empty")
	hs.keys("w")
	if hs.m.topID() != overlay.None || len(hs.store.calls) != n {
		t.Errorf("w on items: overlay %v, %d calls after %d", hs.m.topID(), len(hs.store.calls), n)
	}
}

// The reads and their bound are on screen before any of them is sent; esc
// then closes the overlay and stops them: their reply, cancelled, is
// logged and opens nothing.
func TestWhyEmptyAnnouncesFirstAndStops(t *testing.T) {
	hs := newHarness(t, Options{Table: "App", PK: "CUST|42"}, 120, 35, canned{cap: halfRCU()}, canned{cap: halfRCU()})
	hs.contains("no items: w why empty")
	n := len(hs.store.calls)
	cmd := hs.step(keyPress("w"))
	if cmd == nil || len(hs.store.calls) != n {
		t.Fatalf("w: command %v, %d calls after %d", cmd != nil, len(hs.store.calls), n)
	}
	hs.containsFlowing("reads: 1 Query of Limit 3, then, only if the partition holds nothing, up to",
		"at most 9 Queries, 550 RCU (items of 400 KB; about 4.5 at the table's 161 B average)", "reading…")
	hs.contains("why empty: 1 Query of Limit 3")
	hs.keys("esc")
	if hs.m.topID() != overlay.None {
		t.Fatalf("esc left overlay %v open", hs.m.topID())
	}
	msgs := msgsOf(cmd)
	done, ok := msgs[0].(explainDoneMsg)
	if len(msgs) != 1 || !ok || !errors.Is(done.err, context.Canceled) || len(done.pages) != 1 {
		t.Fatalf("the stopped reads answered %+v", msgs)
	}
	logged := len(hs.m.log.Reqs)
	hs.send(done)
	if hs.m.topID() != overlay.None || len(hs.m.log.Reqs) != logged+1 || hs.m.log.Kinds[logged] != "why empty" {
		t.Errorf("after esc: overlay %v, log %v", hs.m.topID(), hs.m.log.Kinds)
	}
	hs.lacks("Why empty")
}
