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
	profile := typeRow{id: "p", entity: "PROFILE", prefix: "PROFILE", exactKey: true, first: "PROFILE", last: "PROFILE", discovered: true, exact: -1}
	orders := typeRow{id: "o", entity: "ORDER", prefix: "ORDER#", first: "ORDER#2023-01-01", last: "ORDER#2023-09-30", discovered: true, exact: -1}
	unseen := typeRow{id: "u", entity: "X", prefix: "X#", first: "X#1", last: "X#1", exact: -1}
	counted := typeRow{id: "c", entity: "INV", prefix: "INV#", first: "INV#1", last: "INV#9", discovered: true, exact: 12, countReqs: 2, countCap: dynamo.Capacity{Total: 1.5},
		libs: []keys.LibraryEntity{{Library: "ElectroDB", Entity: "invoice", Version: "1"}}}
	pane := func(f func(*groupsPane), types ...typeRow) groupsPane {
		g := newGroupsPane("S", true)
		g.types = types
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
			g.found, g.more, g.scanReqs = true, true, 5
			g.resume = dynamo.SKCond{Op: dynamo.SKGe, Values: []string{"ORDER$"}}
			g.until = dynamo.SKCond{Op: dynamo.SKLt, Values: []string{"PROFILE"}}
		}), 0, 30, []string{"budget spent (5 requests):", "more types may follow", `from SK >= "ORDER$"`, `to SK < "PROFILE"`}},
		{"skip-scan done", pane(func(g *groupsPane) { g.found, g.scanReqs, g.scanCap = true, 4, dynamo.Capacity{Total: 2} }, profile, orders),
			0, 30, []string{"skip-scan: 2 types in", "4 requests, 2 RCU"}},
		{"all loaded and counted", pane(func(g *groupsPane) {
			g.pages, g.partExact, g.partReqs, g.partCap = 2, 10, 1, dynamo.Capacity{Total: 0.5}
		}),
			0, 30, []string{"2 pages hold it all:", "no skip-scan needed", "counted: 1 request, 0.5 RCU"}},
		{"counted, narrow", pane(func(g *groupsPane) {
			g.pages, g.partExact, g.partReqs, g.partCap = 1, 10, 3, dynamo.Capacity{Total: 0.5}
		}),
			0, 20, []string{"1 page holds it all:", "no skip-scan needed", "counted: 0.5 RCU", "in 3 requests"}},
		{"nothing read, stepped", pane(func(g *groupsPane) { g.stepped = "letter-led ids were stepped through" }),
			0, 20, []string{"enter reads it all", "and lists its types", "letter-led ids were", "stepped through"}},
		{"opening", pane(func(g *groupsPane) { g.opening = true }), 0, 30, nil},
		{"a type of one key", pane(nil, profile), 1, 30, []string{"key  PROFILE"}},
		{"a type's range", pane(nil, profile, orders), 2, 30, []string{"from ORDER#2023-01-01", "to   ORDER#2023-09-30", "# counts it exactly"}},
		{"a type's range, narrow", pane(nil, orders), 1, 12, []string{"first and last key:", "…2023-01-01", "…2023-09-30", "# counts it exactly"}},
		{"a type's end not known", pane(nil, unseen), 1, 30, []string{"from X#1", "to   not known yet", "# counts it exactly"}},
		{"a counted type with a library", pane(nil, counted), 1, 40, []string{"from INV#1", "to   INV#9", "ElectroDB: invoice v1", "counted: 2 requests, 1.5 RCU"}},
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
	g.loaded, g.pages, g.partial, g.byAttr, g.restCost = 3, 1, true, true, "all of it costs at most 2 RCU"
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
