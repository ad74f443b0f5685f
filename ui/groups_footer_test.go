package ui

import (
	"slices"
	"strings"
	"testing"

	"dynascope/dynamo"
	"dynascope/keys"
)

// The footer says, for each row and state of the pane, what the pane
// knows of it: every branch of groupsPane.footer, one case each.
func TestGroupsFooter(t *testing.T) {
	// The types as the pane's table gets them: found by a skip-scan,
	// loaded, counted.
	found := func(g keys.Group) func(keys.EntityTable) keys.EntityTable {
		return func(t keys.EntityTable) keys.EntityTable { return t.Arrive(g, false, "#") }
	}
	profile := found(keys.Group{Entity: "PROFILE", Prefix: "PROFILE", Kind: keys.KindLabel, Exact: true, First: "PROFILE", Last: "PROFILE"})
	orders := found(keys.Group{Entity: "ORDER", Prefix: "ORDER#", Kind: keys.KindLabel, First: "ORDER#2023-01-01", Last: "ORDER#2023-09-30"})
	unseen := func(t keys.EntityTable) keys.EntityTable {
		return t.Load([]keys.LoadedKey{{SK: "X#1"}}, "#", true)
	}
	invoice := keys.LibraryEntity{Library: "ElectroDB", Entity: "invoice", Version: "1"}
	counted := func(t keys.EntityTable) keys.EntityTable {
		t = t.Load([]keys.LoadedKey{{SK: "INV#1", Library: invoice}}, "#", true)
		return found(keys.Group{Entity: "INV", Prefix: "INV#", Kind: keys.KindLabel, First: "INV#1", Last: "INV#9"})(t)
	}
	listed := func(t keys.EntityTable) keys.EntityTable { return t.Discover(nil, false, "#", "#") }
	pages := func(n int) func(keys.EntityTable) keys.EntityTable {
		return func(t keys.EntityTable) keys.EntityTable {
			for i := range n {
				t = t.Load(nil, "#", i < n-1)
			}
			return t
		}
	}
	pane := func(f func(*groupsPane), types ...func(keys.EntityTable) keys.EntityTable) groupsPane {
		g := newGroupsPane("S", true)
		g.tbl = g.tbl.Reset("CUST#1", false)
		for _, add := range types {
			g.tbl = add(g.tbl)
		}
		if f != nil {
			f(&g)
		}
		return g
	}
	tests := []struct {
		name string
		g    groupsPane
		row  int
		w    int
		want []string
	}{
		{"no sort key", func() groupsPane { g := newGroupsPane("", true); return g }(), 0, 30, nil},
		{"skip-scan running", pane(func(g *groupsPane) { g.finding, g.scanReqs = true, 3 }), 0, 40, []string{"skip-scan: finding types… (3 requests)"}},
		{"skip-scan failed", pane(func(g *groupsPane) { g.scanErr = true }), 0, 30, []string{"skip-scan stopped: these", "are the types loaded"}},
		{"budget spent", pane(func(g *groupsPane) {
			g.more, g.scanReqs = true, 5
			g.resume = dynamo.SKCond{Op: dynamo.SKGe, Values: []string{"ORDER$"}}
			g.until = dynamo.SKCond{Op: dynamo.SKLt, Values: []string{"PROFILE"}}
		}, listed), 0, 30, []string{"budget spent (5 requests):", "more types may follow", `from SK >= "ORDER$"`, `to SK < "PROFILE"`}},
		{"skip-scan done", pane(func(g *groupsPane) { g.scanReqs, g.scanCap = 4, dynamo.Capacity{Total: 2} }, profile, orders, listed),
			0, 30, []string{"skip-scan: 2 types in", "4 requests, 2 RCU"}},
		{"all loaded and counted", pane(func(g *groupsPane) {
			g.partExact, g.partReqs, g.partCap = 10, 1, dynamo.Capacity{Total: 0.5}
		}, pages(2)),
			0, 30, []string{"2 pages hold it all:", "no skip-scan needed", "counted: 1 request, 0.5 RCU"}},
		{"counted, narrow", pane(func(g *groupsPane) {
			g.partExact, g.partReqs, g.partCap = 10, 3, dynamo.Capacity{Total: 0.5}
		}, pages(1)),
			0, 20, []string{"1 page holds it all:", "no skip-scan needed", "counted: 0.5 RCU", "in 3 requests"}},
		{"nothing read, stepped", pane(func(g *groupsPane) { g.stepped = "letter-led ids were stepped through" }),
			0, 20, []string{"enter reads it all", "and lists its types", "letter-led ids were", "stepped through"}},
		{"opening", pane(func(g *groupsPane) { g.opening = true }), 0, 30, nil},
		{"a type of one key", pane(nil, profile), 1, 30, []string{"key  PROFILE"}},
		{"a type's range", pane(nil, profile, orders), 1, 30, []string{"from ORDER#2023-01-01", "to   ORDER#2023-09-30", "# counts it exactly"}},
		{"a type's range, narrow", pane(nil, orders), 1, 12, []string{"first and last key:", "…2023-01-01", "…2023-09-30", "# counts it exactly"}},
		{"a type's end not known", pane(nil, unseen), 1, 30, []string{"from X#1", "to   not known yet", "# counts it exactly"}},
		{"a counted type with a library", pane(func(g *groupsPane) { *g = g.counted("^INV#", 12, 2, dynamo.Capacity{Total: 1.5}) }, counted), 1, 40, []string{"from INV#1", "to   INV#9", "ElectroDB: invoice v1", "counted: 2 requests, 1.5 RCU"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.g.move(tt.row, 10)
			if got := g.footer(tt.w); !slices.Equal(got, tt.want) {
				t.Errorf("footer\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// The grouping by attribute: its footer on the partition row, and a
// value's first and last key among the items loaded.
func TestGroupsFooterByAttribute(t *testing.T) {
	g := newGroupsPane("S", true)
	rows := []keys.EntityRow{
		{SK: "A#1", Attrs: map[string]string{"EntityType": "Order"}},
		{SK: "A#3", Attrs: map[string]string{"EntityType": "Order"}},
		{SK: "B#1", Attrs: map[string]string{"EntityType": "Invoice"}},
	}
	g.ents = g.ents.Add(rows)
	g.tbl = g.tbl.Reset("CUST#1", false).Load([]keys.LoadedKey{{SK: "A#1"}, {SK: "A#3"}, {SK: "B#1"}}, "#", true)
	g.byAttr, g.restCost = true, "all of it costs at most 2 RCU"
	if g.attribute() != "EntityType" {
		t.Fatalf("attribute %q", g.attribute())
	}
	part := g.footer(80)
	if len(part) < 3 || part[0] != "grouped by EntityType from the 3 items loaded (no request)" ||
		!strings.HasPrefix(part[1], "the partition has more: n reads the next page; all of it costs at most 2 RCU") || part[len(part)-1] != "b: back to the sort key" {
		t.Errorf("partition row: %q", part)
	}
	at := -1
	for i, a := range g.attrGroups() {
		if a.Value == "Order" {
			at = i + 1
		}
	}
	got := g.move(at, 10).footer(20)
	want := []string{"from A#1", "to   A#3", "among the items loaded", "enter: filter the", "request by it"}
	if !slices.Equal(got, want) {
		t.Errorf("value row\n got %q\nwant %q", got, want)
	}
}
