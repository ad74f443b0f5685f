package keys

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
	if len(page) < 2 {
		return "", false
	}
	for _, name := range GenericEntityAttributes {
		seen := map[string]bool{}
		for _, it := range page {
			v := it[name]
			if v == "" {
				seen = nil
				break
			}
			seen[v] = true
		}
		if seen != nil && len(seen) <= MaxEntityValues {
			return name, true
		}
	}
	return "", false
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
