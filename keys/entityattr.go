package keys

import (
	"maps"
	"slices"
)

// Generic entity attributes: the names single-table designs without a
// library give the entity type (AWS's own examples write EntityType, GraphQL
// backends __typename). Unlike a library attribute the name alone proves
// little ("type" may hold free text), so one is offered as a second grouping
// only when a page shows it as a type would be: on every item, with few
// distinct values.

// GenericEntityAttributes are the attribute names looked for, in the order
// one wins when a page carries several.
var GenericEntityAttributes = []string{"type", "Type", "EntityType", "entityType", "__typename"}

// MaxEntityValues is the most distinct values a generic entity attribute may
// show on one page: more, and it names items rather than their types.
const MaxEntityValues = 10

// DetectEntityAttribute finds a generic entity attribute in a page of items'
// string attribute values (only GenericEntityAttributes matter): the first
// that every item carries as a non-empty string, with at most
// MaxEntityValues distinct values. A page of fewer than two items shows
// nothing to group, so it finds none.
func DetectEntityAttribute(page []map[string]string) (string, bool) {
	rows := make([]EntityRow, len(page))
	for i, it := range page {
		rows[i] = EntityRow{Attrs: it}
	}
	return EntityTally{}.Add(rows).Attribute()
}

// EntityRow is one item as EntityTally reads it: its sort key and its
// string attributes (only GenericEntityAttributes matter).
type EntityRow struct {
	SK    string
	Attrs map[string]string
}

// EntityTally is DetectEntityAttribute and GroupByAttribute for items that
// come a page at a time (the UI's loaded pages): it keeps, for each generic
// entity attribute still in the running, its groups so far, and drops one
// as soon as an item lacks it or it shows more than MaxEntityValues
// values. The zero value is empty; Add returns a new tally and leaves its
// receiver as it was.
type EntityTally struct {
	Items int
	by    map[string][]AttributeGroup // attribute -> its groups, in order of first item; nil once out
	out   map[string]bool             // attributes out of the running
}

// Add tallies a page of rows, in the order they were read.
func (t EntityTally) Add(page []EntityRow) EntityTally {
	by := make(map[string][]AttributeGroup, len(t.by))
	for a, gs := range t.by {
		by[a] = slices.Clone(gs)
	}
	out := maps.Clone(t.out)
	if out == nil {
		out = map[string]bool{}
	}
	for _, r := range page {
		for _, a := range GenericEntityAttributes {
			if out[a] {
				continue
			}
			v := r.Attrs[a]
			if v == "" {
				out[a], by[a] = true, nil // one item without it: no entity type
				continue
			}
			gs := by[a]
			i := slices.IndexFunc(gs, func(g AttributeGroup) bool { return g.Value == v })
			if i < 0 {
				if len(gs) == MaxEntityValues {
					out[a], by[a] = true, nil
					continue
				}
				gs, i = append(gs, AttributeGroup{Value: v, Present: true, First: r.SK}), len(gs)
			}
			gs[i].Count++
			gs[i].Last = r.SK
			by[a] = gs
		}
		t.Items++
	}
	t.by, t.out = by, out
	return t
}

// Attribute is the first of GenericEntityAttributes every item tallied
// carries with at most MaxEntityValues values; none before two items.
func (t EntityTally) Attribute() (string, bool) {
	if t.Items < 2 {
		return "", false
	}
	for _, a := range GenericEntityAttributes {
		if !t.out[a] && len(t.by[a]) > 0 {
			return a, true
		}
	}
	return "", false
}

// Groups are the groups of attribute a's values so far, as GroupByAttribute
// makes them; nil when a is out of the running.
func (t EntityTally) Groups(a string) []AttributeGroup {
	return slices.Clone(t.by[a])
}

// AttributeRow is one item as grouping by an attribute sees it: its sort
// key, and the attribute's value when the item carries one.
type AttributeRow struct {
	SK      string
	Value   string
	Present bool
}

// AttributeGroup is the items of one value of an attribute: how many, and
// the first and last sort key among them in the order they were read.
type AttributeGroup struct {
	Value       string
	Present     bool // false: the items without the attribute
	Count       int
	First, Last string
}

// GroupByAttribute groups rows (in sort-key order, or its reverse) by
// their attribute value, groups in the order their first item came; the
// items without the attribute are one group of their own, never merged with
// an empty value.
func GroupByAttribute(rows []AttributeRow) []AttributeGroup {
	type id struct {
		v string
		p bool
	}
	at := map[id]int{}
	var out []AttributeGroup
	for _, r := range rows {
		k := id{r.Value, r.Present}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, AttributeGroup{Value: r.Value, Present: r.Present, First: r.SK})
		}
		out[i].Count++
		out[i].Last = r.SK
	}
	return out
}
