package ui

import (
	"strings"

	"dynascope/dynamo"
	"dynascope/keys"
)

// labelDatePrefix reads a date typed in the sort-key editor while a label
// type is the one queried (ORDER, keys ORDER#2025-03-01#A17) as a date under
// that label: "2025-06" means begins_with(SK, "ORDER#2025-06"). A bare
// "2025-06" would select nothing there, since every key of the type starts
// with its label. ok is false when the type's keys do not go on with a time
// (the text is then read as datePrefix and parseCondition read it).
func (g groupsPane) labelDatePrefix(text string, cur dynamo.SKCond) (c dynamo.SKCond, ok bool, err error) {
	t, sub, found := g.labelTimes(cur)
	if !found {
		return c, false, nil
	}
	c, ok, err = sub.datePrefix(text)
	if ok && err == nil {
		c.Values = []string{t.Prefix + c.Values[0]}
	}
	return c, ok, err
}

// labelTimes is the label type queried — the type row of the query, or the
// one whose prefix the current condition stays under (ORDER#2025-06 after
// a first date) — and its keys' next segment as a value group, when that
// is time-shaped.
func (g groupsPane) labelTimes(cur dynamo.SKCond) (typeRow, groupsPane, bool) {
	if g.keyType() != "S" {
		return typeRow{}, groupsPane{}, false
	}
	row := g.active
	if row < 1 && len(cur.Values) > 0 {
		for i, t := range g.types() {
			under := t.Prefix != ""
			for _, v := range cur.Values {
				under = under && strings.HasPrefix(v, t.Prefix)
			}
			if under && t.Kind != keys.KindValue && !t.Exact {
				row = i + 1
				break
			}
		}
	}
	if row < 1 || row > len(g.types()) {
		return typeRow{}, groupsPane{}, false
	}
	t := g.types()[row-1]
	if t.Kind == keys.KindValue || t.Exact || t.Prefix == "" || !strings.HasPrefix(t.First, t.Prefix) || !strings.HasPrefix(t.Last, t.Prefix) {
		return typeRow{}, groupsPane{}, false
	}
	// The delimiter is what the prefix has after the label (ORDER# → #);
	// the time is the key's next segment.
	i := strings.LastIndex(t.Prefix, t.Entity)
	if t.Entity == "" || i < 0 || i+len(t.Entity) == len(t.Prefix) {
		return typeRow{}, groupsPane{}, false
	}
	delim := t.Prefix[i+len(t.Entity):]
	segment := func(k string) string {
		rest := k[len(t.Prefix):]
		if j := strings.Index(rest, delim); j >= 0 {
			rest = rest[:j]
		}
		return rest
	}
	first, last := segment(t.First), segment(t.Last)
	seg := keys.Group{Entity: keys.RunName(first, last), Kind: keys.KindValue, First: first, Last: last}
	sub := groupsPane{tbl: keys.NewEntityTable("S", false).Discover([]keys.Group{seg}, false, "", "")}
	_, ok := sub.timeGroup()
	return t, sub, ok
}
