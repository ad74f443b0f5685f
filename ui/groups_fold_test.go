package ui

import (
	"strings"
	"testing"

	"dynascope/dynamo"
)

// The loaded page groups as groups and layout do: a bare label and its
// suffixed form are one row, letter-led hex ids one value row beside the
// digit-led ones, a list of user names one row; enter on the folded row
// queries the BETWEEN of its ends.
func TestGroupsPaneFolds(t *testing.T) {
	page := func(pk string, sks ...string) []dynamo.Item {
		var out []dynamo.Item
		for _, k := range sks {
			out = append(out, dynamo.Item{"PK": s(pk), "SK": s(k)})
		}
		return out
	}
	hs := newHarness(t, Options{Table: "App", PK: "DOC#1"}, 120, 35,
		canned{items: page("DOC#1", "METADATA", "METADATA#v1", "METADATA#v2", "TYPES", "TYPES#v2"), cap: halfRCU()})
	if n := len(hs.m.groups.types()); n != 2 {
		t.Fatalf("%d rows for METADATA, METADATA#v1, TYPES, TYPES#v2; want 2:\n%s", n, hs.screen())
	}
	if c := hs.m.groups.condition(1); c.Op != dynamo.SKBetween || strings.Join(c.Values, ",") != "METADATA,METADATA#v2" {
		t.Errorf("the METADATA row selects %+v", c)
	}
	hs = newHarness(t, Options{Table: "App", PK: "TAGS#1"}, 120, 35,
		canned{items: page("TAGS#1", "0a1b2c3d4e5f", "3fa9c0d2e1b4", "a5f0c3d2e1b4", "f966c0d2e1b4"), cap: halfRCU()})
	if n := len(hs.m.groups.types()); n != 1 || hs.m.groups.types()[0].Entity != "hex id" {
		t.Fatalf("hex ids: %d rows:\n%s", n, hs.screen())
	}
	hs.contains("hex id")
	hs = newHarness(t, Options{Table: "App", PK: "MEET#1#ATTENDEES"}, 120, 35,
		canned{items: page("MEET#1#ATTENDEES", "alice", "bob", "carol"), cap: halfRCU()})
	if n := len(hs.m.groups.types()); n != 1 || hs.m.groups.types()[0].Entity != "name" {
		t.Fatalf("attendees: %d rows:\n%s", n, hs.screen())
	}
	if c := hs.m.groups.condition(1); c.Op != dynamo.SKBetween || strings.Join(c.Values, ",") != "alice,carol" {
		t.Errorf("the name row selects %+v", c)
	}
}

// A migration's keys name their rows as groups and layout do: ORDER for
// the partition's own delimiter, ORDER| and ORDER/ by their prefix, and
// each row still selects its own keys.
func TestGroupsPaneUniqueNames(t *testing.T) {
	var items []dynamo.Item
	for _, k := range []string{"ORDER#2023-01-02#a0", "ORDER/2023/1", "ORDER|2023|1", "ORDER|2023|2", "order/7"} {
		items = append(items, dynamo.Item{"PK": s("CUST#mig"), "SK": s(k)})
	}
	hs := newHarness(t, Options{Table: "App", PK: "CUST#mig"}, 120, 35, canned{items: items, cap: halfRCU()})
	var got []string
	for _, r := range hs.m.groups.types() {
		got = append(got, r.Entity)
	}
	if strings.Join(got, " ") != "ORDER ORDER/ ORDER| order" {
		t.Fatalf("rows %q:\n%s", got, hs.screen())
	}
	wantCount(t, hs, "ORDER|", "2")
	if c := hs.m.groups.condition(3); c.Op != dynamo.SKBeginsWith || c.Values[0] != "ORDER|" {
		t.Errorf("the ORDER| row selects %+v", c)
	}
}
