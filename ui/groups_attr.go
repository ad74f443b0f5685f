package ui

import (
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/filterexpr"
	"dynascope/keys"
	"dynascope/ui/widget"
)

// The second grouping. A design that writes the entity type into every
// item (EntityType, type, __typename: keys.GenericEntityAttributes) can be
// grouped by that attribute's value instead of by sort key. The pane
// tallies the whole-partition pages it loads anyway (keys.EntityTally), so
// offering the attribute and grouping by it send no request: b toggles,
// and what the loaded items do not cover is said with the cost of reading
// the rest, which only the user's own n, G or groups --by sends.

// entityRow is what the tally reads of an item: its sort key and its
// string generic entity attributes.
func entityRow(it dynamo.Item, skName string) keys.EntityRow {
	r := keys.EntityRow{SK: keyOf(it, skName), Attrs: map[string]string{}}
	for _, a := range keys.GenericEntityAttributes {
		if v, ok := it[a].(*types.AttributeValueMemberS); ok {
			r.Attrs[a] = v.Value
		}
	}
	return r
}

// attribute is the generic entity attribute every loaded item of the
// partition carries with few values, "" when none.
func (g groupsPane) attribute() string {
	a, _ := g.ents.Attribute()
	return a
}

// byAttribute tells whether the pane shows the grouping by attribute.
func (g groupsPane) byAttribute() bool { return g.byAttr && g.attribute() != "" }

// attrGroups are the attribute's groups over the loaded items.
func (g groupsPane) attrGroups() []keys.AttributeGroup {
	if !g.byAttribute() {
		return nil
	}
	return g.ents.Groups(g.attribute())
}

// toggleBy switches between the sort-key grouping and the attribute's,
// the cursor on the partition row; without an attribute it stays.
func (g groupsPane) toggleBy() groupsPane {
	if g.attribute() == "" {
		return g
	}
	g.byAttr = !g.byAttr
	g.nav = g.nav.Home()
	return g
}

// attrTitle is the pane's title in the grouping by attribute, in at most
// w cells: its values' count once the whole partition is loaded; before,
// that the counts are of the items loaded ("of 1120 loaded"), not the
// partition's, shortened until it fits.
func (g groupsPane) attrTitle(w int) string {
	a := sanitize(g.attribute())
	if g.complete() {
		return "By " + a + " · " + strconv.Itoa(len(g.attrGroups()))
	}
	of := "of " + strconv.Itoa(g.tbl.Loaded()) + " loaded"
	for _, t := range []string{"By " + a + " · " + of, a + " · " + of} {
		if widget.Width(t) <= w {
			return t
		}
	}
	return of
}

// attrFilter is the FilterExpression that selects one value's items, for
// enter on its row: the request filter, edited before anything is sent.
func (g groupsPane) attrFilter(row int) (string, bool) {
	gs := g.attrGroups()
	if row <= 0 || row > len(gs) {
		return "", false
	}
	path := filterexpr.Path{{Name: g.attribute()}}.String()
	return path + " = " + filterexpr.ValueText(&types.AttributeValueMemberS{Value: gs[row-1].Value}), true
}

// attrFooter is the footer of the grouping by attribute: what it is
// grouped from, and what reading the rest would cost (rest, the "at most"
// of a whole read of the table or index).
func (g groupsPane) attrFooter(w int) []string {
	out := widget.WrapWords("grouped by "+sanitize(g.attribute())+" from the "+plural(g.tbl.Loaded(), "item", "items")+" loaded (no request)", w)
	if !g.complete() {
		out = append(out, widget.WrapWords("the partition has more: n reads the next page; "+g.restCost+" (groups --by attribute:"+sanitize(g.attribute())+")", w)...)
	}
	return append(out, "b: back to the sort key")
}

// toggleGroupBy is b: the other grouping, from the items loaded, with what
// reading the rest of the partition would cost said, never sent.
func (m Model) toggleGroupBy() Model {
	m.groups = m.groups.toggleBy()
	if !m.groups.byAttribute() {
		m.status.Info = "grouped by sort key"
		return m
	}
	est := dynamo.EstimateRead(m.table, m.index, m.query.Consistent, 1, 0)
	m.groups.restCost = "the table's size is unknown, and so is what all of it costs"
	if est.Known {
		m.groups.restCost = "all of it costs at most " + fmtRCU(est.RCU) + " RCU"
	}
	m.status.Info = "grouped by " + sanitize(m.groups.attribute()) + " from the " + plural(m.groups.tbl.Loaded(), "item", "items") + " loaded: no request sent"
	return m
}
