package keys

import (
	"fmt"
	"reflect"
	"testing"
)

func page(attr string, values ...string) []map[string]string {
	var p []map[string]string
	for _, v := range values {
		p = append(p, map[string]string{attr: v})
	}
	return p
}

func TestDetectEntityAttribute(t *testing.T) {
	many := make([]string, MaxEntityValues+1)
	for i := range many {
		many[i] = fmt.Sprintf("v%d", i)
	}
	cases := []struct {
		name string
		page []map[string]string
		want string
	}{
		{"AWS's OnlineShop", page("EntityType", "order", "invoice", "orderItem", "orderItem", "shipment"), "EntityType"},
		{"GraphQL", page("__typename", "User", "Post", "Post"), "__typename"},
		{"each name", page("entityType", "a", "b"), "entityType"},
		{"Type", page("Type", "a", "a"), "Type"},
		{"one item shows nothing to group", page("type", "order"), ""},
		{"an item without it", append(page("type", "order", "order"), map[string]string{"other": "x"}), ""},
		{"an empty value", page("type", "order", ""), ""},
		{"too many values: names items", page("type", many...), ""},
		{"as many as allowed", page("type", many[:MaxEntityValues]...), "type"},
		{"not a generic name", page("kind", "a", "b"), ""},
		{"library attributes are not generic", page("_type", "a", "b"), ""},
		{"empty page", nil, ""},
	}
	for _, c := range cases {
		got, ok := DetectEntityAttribute(c.page)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s: got %q %v, want %q", c.name, got, ok, c.want)
		}
	}
	// Several on every item: the first of GenericEntityAttributes wins, but
	// one that fails (free text in "type") gives way to the next.
	both := []map[string]string{{"type": "a", "EntityType": "x"}, {"type": "b", "EntityType": "x"}}
	if got, _ := DetectEntityAttribute(both); got != "type" {
		t.Errorf("type and EntityType: got %q, want type", got)
	}
	var free []map[string]string
	for i := range MaxEntityValues + 1 {
		free = append(free, map[string]string{"type": fmt.Sprintf("free text %d", i), "EntityType": "order"})
	}
	if got, _ := DetectEntityAttribute(free); got != "EntityType" {
		t.Errorf("free-text type beside EntityType: got %q, want EntityType", got)
	}
}

func TestGroupByAttribute(t *testing.T) {
	rows := []AttributeRow{
		{SK: "c#1", Value: "order", Present: true},
		{SK: "p#1", Value: "orderItem", Present: true},
		{SK: "p#2"},
		{SK: "p#3", Value: "orderItem", Present: true},
		{SK: "p#4", Value: "", Present: true},
		{SK: "sh#1", Value: "order", Present: true},
	}
	want := []AttributeGroup{
		{Value: "order", Present: true, Count: 2, First: "c#1", Last: "sh#1"},
		{Value: "orderItem", Present: true, Count: 2, First: "p#1", Last: "p#3"},
		{Count: 1, First: "p#2", Last: "p#2"},
		{Value: "", Present: true, Count: 1, First: "p#4", Last: "p#4"},
	}
	if got := GroupByAttribute(rows); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if got := GroupByAttribute(nil); len(got) != 0 {
		t.Errorf("no rows: %+v", got)
	}
}

// Tallied a page at a time, the items find the attribute the whole page
// shows, and its groups are GroupByAttribute's; the tally it came from is
// left as it was.
func TestEntityTallyPageByPage(t *testing.T) {
	var rows []EntityRow
	var attrRows []AttributeRow
	var all []map[string]string
	for i, v := range []string{"order", "invoice", "orderItem", "orderItem", "shipment", "order"} {
		a := map[string]string{"EntityType": v, "type": fmt.Sprint("free ", i)}
		if i == 3 {
			delete(a, "type")
		}
		rows = append(rows, EntityRow{SK: fmt.Sprint("k#", i), Attrs: a})
		attrRows = append(attrRows, AttributeRow{SK: fmt.Sprint("k#", i), Value: v, Present: true})
		all = append(all, a)
	}
	first := EntityTally{}.Add(rows[:2])
	if a, ok := first.Attribute(); a != "type" || !ok {
		t.Errorf("first page: %q %v, want type (on both items, two values)", a, ok)
	}
	tally := first.Add(rows[2:])
	if a, _ := first.Attribute(); a != "type" || first.Items != 2 {
		t.Errorf("Add changed the tally it came from: %q, %d items", a, first.Items)
	}
	want, _ := DetectEntityAttribute(all)
	if a, ok := tally.Attribute(); a != want || !ok || a != "EntityType" || tally.Items != 6 {
		t.Errorf("all pages: %q %v (%d items), want %q", a, ok, tally.Items, want)
	}
	if got := tally.Groups("EntityType"); !reflect.DeepEqual(got, GroupByAttribute(attrRows)) {
		t.Errorf("groups %+v\nwant %+v", got, GroupByAttribute(attrRows))
	}
	if got := tally.Groups("type"); got != nil {
		t.Errorf("type, missing on one item, still has groups: %+v", got)
	}
}
