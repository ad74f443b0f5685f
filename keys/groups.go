package keys

// Group is one entity type found in a set of sort keys.
type Group struct {
	Entity string // "ORDER"
	Prefix string // "ORDER#" (or "PROFILE" for a key without delimiter); "" for numeric/binary groups
	Count  int
	First  string // first sort key of the group, in the order given
	Last   string // last sort key of the group
}

// NumberEntity names the single group numeric sort keys form, as numbers have no prefixes to split on.
const NumberEntity = "NUMBER"

// BinaryEntity names the single group binary sort keys form, as base64 text has no meaningful delimiters.
const BinaryEntity = "BINARY"

// groupID is what makes two groups the same type; Entity alone is not enough
// ("PROFILE" and "PROFILE#1" share it).
type groupID struct{ entity, prefix string }

// GroupSortKeys groups sort keys, given in DynamoDB's order (forward or reverse), into entity types in order of first appearance.
//
// keyType is the DynamoDB scalar type of the sort key. "N" and "B" form one
// group each (NumberEntity / BinaryEntity, Prefix "", First and Last the first
// and last key given; binary keys come as base64 text); any other type groups
// by prefix as strings. Keys of one type are contiguous in DynamoDB's order, but
// a type that shows up again later (unsorted input) still joins its first
// group. The result is never nil, so it encodes as [] rather than null.
func GroupSortKeys(sortKeys []string, keyType, delim string) []Group {
	if len(sortKeys) == 0 {
		return []Group{}
	}
	switch keyType {
	case "N", "B":
		entity := NumberEntity
		if keyType == "B" {
			entity = BinaryEntity
		}
		return []Group{{
			Entity: entity,
			Count:  len(sortKeys),
			First:  sortKeys[0],
			Last:   sortKeys[len(sortKeys)-1],
		}}
	}
	groups := []Group{}
	index := map[groupID]int{}
	for _, k := range sortKeys {
		entity, prefix := EntityType(k, delim)
		id := groupID{entity, prefix}
		if i, ok := index[id]; ok {
			groups[i].Count++
			groups[i].Last = k
			continue
		}
		index[id] = len(groups)
		groups = append(groups, Group{Entity: entity, Prefix: prefix, Count: 1, First: k, Last: k})
	}
	return groups
}

// MergeGroups merges the groups of a later page into those of earlier pages, so pages can load one at a time.
//
// A group of the same Entity and Prefix adds its count and moves Last on; a new
// one is appended. Merging page by page gives the same result as grouping all
// keys at once. have is not modified, and the result is never nil.
func MergeGroups(have, more []Group) []Group {
	out := make([]Group, len(have), len(have)+len(more))
	copy(out, have)
	index := make(map[groupID]int, len(out))
	for i, g := range out {
		id := groupID{g.Entity, g.Prefix}
		if _, ok := index[id]; !ok {
			index[id] = i
		}
	}
	for _, g := range more {
		id := groupID{g.Entity, g.Prefix}
		if i, ok := index[id]; ok {
			out[i].Count += g.Count
			out[i].Last = g.Last
			continue
		}
		index[id] = len(out)
		out = append(out, g)
	}
	return out
}
