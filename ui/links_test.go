package ui

import (
	"testing"

	"dynascope/dynamo"
	"dynascope/ui/overlay"
)

// An order's sort key names its order partition (its label says whose id
// follows), a customerId names the customer's; dates, the entity label, the
// open partition and values of unrelated attributes name nothing.
func TestLinkCandidates(t *testing.T) {
	t.Parallel()
	it := dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17"), "customerId": s("42"), "status": s("OPEN"),
		"warehouse": s("WH#1"), "total": n("35")}
	got := linkCandidates(it, appTable(), []string{"CUST#", "ORDER#", "WH#"}, "CUST#42")
	want := []overlay.Link{
		{PK: "ORDER#A17", From: "sort key segment A17"},
		{PK: "WH#1", From: "warehouse"},
	}
	if len(got) != len(want) {
		t.Fatalf("%+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %+v, want %+v", i, got[i], want[i])
		}
	}
	// customerId names CUST#42 — the open partition, so it is left out;
	// from another partition it is a candidate (and ORDER#A17, the open
	// one there, is not).
	got = linkCandidates(it, appTable(), []string{"CUST#"}, "ORDER#A17")
	if len(got) != 1 || got[0].PK != "CUST#42" || got[0].From != "customerId = 42" {
		t.Errorf("%+v", got)
	}
	// A label names its own family only, seen or not; a family's label
	// inside the key names its partition with the next segment.
	follows := dynamo.Item{"PK": s("USER#1"), "SK": s("FOLLOWS#USER#2")}
	got = linkCandidates(follows, appTable(), []string{"USER#", "TEAM#"}, "USER#1")
	if len(got) != 1 || got[0] != (overlay.Link{PK: "USER#2", From: "sort key segments USER#2"}) {
		t.Errorf("follows: %+v", got)
	}
	line := dynamo.Item{"PK": s("INVOICE#9"), "SK": s("LINE#X1")}
	got = linkCandidates(line, appTable(), []string{"CUST#", "ORDER#"}, "INVOICE#9")
	if len(got) != 1 || got[0].PK != "LINE#X1" {
		t.Errorf("line: %+v", got)
	}
	// From a customer's partition, the only family seen: the order's own
	// label names ORDER#A17, and CUST#A17 is not tried.
	got = linkCandidates(it, appTable(), []string{"CUST#"}, "CUST#42")
	if len(got) != 1 || got[0].PK != "ORDER#A17" {
		t.Errorf("only CUST# seen: %+v", got)
	}
	// With no family seen, the label alone still names the order's partition;
	// a key without a label names nothing.
	if got := linkCandidates(it, appTable(), nil, ""); len(got) != 1 || got[0].PK != "ORDER#A17" {
		t.Errorf("no families: %+v", got)
	}
	profile := dynamo.Item{"PK": s("CUST#42"), "SK": s("PROFILE"), "name": s("Ann")}
	if got := linkCandidates(profile, appTable(), nil, ""); len(got) != 0 {
		t.Errorf("no families, no label with an id, yet %+v", got)
	}
}
