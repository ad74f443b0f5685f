package pane

import (
	"dynascope/dynamo"
	"dynascope/keys"
	"slices"
)

// ApplyRecord changes the loaded items as a write did, from its images: a
// MODIFY replaces the item where it is, a REMOVE takes it out, an INSERT
// goes in key order when the request would have read it (no sort-key
// condition or filter, and within what is loaded). Only while every loaded
// page is in memory; ok says whether anything changed.
func (p Items) ApplyRecord(r dynamo.StreamRecord, ks dynamo.KeySchema, q dynamo.QueryInput, more bool, w int) (Items, bool) {
	if p.Store.InMemory != p.Store.Total || ks.SK == nil {
		return p, false
	}
	items, ok := p.Store.All()
	if !ok {
		return p, false
	}
	skOf := func(it dynamo.Item) string { return KeyOf(it, ks.SK.Name) }
	want := KeyOf(r.Keys, ks.SK.Name)
	at := slices.IndexFunc(items, func(it dynamo.Item) bool { return skOf(it) == want })
	switch {
	case r.Event == "REMOVE" && at >= 0:
		items = slices.Delete(items, at, at+1)
	case r.New != nil && at >= 0:
		items[at] = r.New
	case r.Event == "INSERT" && r.New != nil && q.SK.Op == dynamo.SKNone && q.Filter == "":
		cmp := func(a string) int { return keys.CompareKeys(a, want, ks.SK.Type) }
		if q.Reverse {
			cmp = func(a string) int { return -keys.CompareKeys(a, want, ks.SK.Type) }
		}
		pos := slices.IndexFunc(items, func(it dynamo.Item) bool { return cmp(skOf(it)) > 0 })
		if pos < 0 {
			if more {
				return p, false // it belongs to a page not read yet
			}
			pos = len(items)
		}
		items = slices.Insert(items, pos, r.New)
	default:
		return p, false
	}
	p.Store, p.stats = ItemStore{}.WithNames(), colStats{}
	p = p.AddPage(items, nil, 1)
	p.List = p.List.SetLen(len(items))
	p = p.rescan()
	return p.Relayout(w), true
}
