package edit

// Predicted write units. The table's part: the item's size rounded up to
// 1 KB (the larger of before and after for an update), twice in a
// transaction. Each secondary index the item is in costs writes of its
// own, by the size of the item as the index projects it: one to add or
// change the entry, one to remove it, two when the index key changes.

import (
	"dynascope/dynamo"
	"dynascope/itemcodec"
)

// indexUnits is what one write of old → new (either nil) costs in idx.
func indexUnits(t dynamo.Table, idx dynamo.Index, old, new dynamo.Item) float64 {
	inOld, inNew := inIndex(idx, old), inIndex(idx, new)
	switch {
	case inOld && inNew:
		if sameIndexKey(idx, old, new) {
			po, pn := projected(t, idx, old), projected(t, idx, new)
			if SameItem(po, pn) {
				return 0 // nothing the index holds changed
			}
			return WriteUnits(itemcodec.ItemSize(pn))
		}
		return WriteUnits(itemcodec.ItemSize(projected(t, idx, old))) + WriteUnits(itemcodec.ItemSize(projected(t, idx, new)))
	case inOld:
		return WriteUnits(itemcodec.ItemSize(projected(t, idx, old)))
	case inNew:
		return WriteUnits(itemcodec.ItemSize(projected(t, idx, new)))
	}
	return 0
}

// inIndex tells whether an item is in a (possibly sparse) index: it has
// the index's key attributes, with the key's types.
func inIndex(idx dynamo.Index, it dynamo.Item) bool {
	if it == nil {
		return false
	}
	attrs := []dynamo.KeyAttr{idx.PK}
	if idx.SK != nil {
		attrs = append(attrs, *idx.SK)
	}
	for _, a := range attrs {
		if v, ok := it[a.Name]; !ok || itemcodec.AttributeTypeName(v) != a.Type {
			return false
		}
	}
	return true
}

func sameIndexKey(idx dynamo.Index, a, b dynamo.Item) bool {
	if !Equal(a[idx.PK.Name], b[idx.PK.Name]) {
		return false
	}
	return idx.SK == nil || Equal(a[idx.SK.Name], b[idx.SK.Name])
}

// projected is the item as the index holds it.
func projected(t dynamo.Table, idx dynamo.Index, it dynamo.Item) dynamo.Item {
	if idx.Projection == "ALL" || idx.Projection == "" {
		return it
	}
	names := append(keyNames(t), idx.PK.Name)
	if idx.SK != nil {
		names = append(names, idx.SK.Name)
	}
	if idx.Projection == "INCLUDE" {
		names = append(names, idx.NonKeyAttr...)
	}
	out := dynamo.Item{}
	for _, n := range names {
		if v, ok := it[n]; ok {
			out[n] = v
		}
	}
	return out
}

// predict sets the plan's predicted units: the table's and each index's.
func (p *Plan) predict() {
	size := func(it dynamo.Item) int {
		if it == nil {
			return 0
		}
		return itemcodec.ItemSize(it)
	}
	indexes := func(old, new dynamo.Item, factor float64) {
		for _, idx := range p.Keys.Indexes {
			if u := indexUnits(p.Keys, idx, old, new) * factor; u > 0 {
				if p.IndexWCU == nil {
					p.IndexWCU = map[string]float64{}
				}
				p.IndexWCU[idx.Name] += u
			}
		}
	}
	switch p.Op {
	case OpTransact:
		// Two writes, each doubled: the new item put, the old deleted.
		p.TableWCU = 2*WriteUnits(size(p.New)) + 2*WriteUnits(size(p.Old))
		indexes(nil, p.New, 2)
		indexes(p.Old, nil, 2)
	default:
		p.TableWCU = WriteUnits(max(size(p.Old), size(p.New)))
		indexes(p.Old, p.New, 1)
	}
	p.PredictedWCU = p.TableWCU
	for _, u := range p.IndexWCU {
		p.PredictedWCU += u
	}
}
