package keys

// Group is one entity type, or the value group, found in a set of sort keys.
type Group struct {
	Entity string // "ORDER"; for a value group its shape ("timestamp")
	Prefix string // "ORDER#" (or "PROFILE" for a key without delimiter); "" for value groups
	Kind   Kind   // KindLabel or KindValue
	Exact  bool   // a label type that is one key value ("PROFILE")
	Bare   bool   // a prefix type that also holds its bare label, "METADATA" beside "METADATA#v1" (FoldBare)
	Count  int
	First  string // first sort key of the group, in the order given
	Last   string // last sort key of the group
	// Declared: the application's declaration (Declared) named the group,
	// every key of it matching one entity; Undeclared: declarations are in
	// use and its keys match none (or not one alike), so its name is the
	// inferred one. Both are false without declarations.
	Declared, Undeclared bool
	// Shared: the declarations split the group's type (one class, one
	// prefix) into rows, a declared entity and the keys beside it that
	// match none ("Order" and "~ORDER" under ORDER#): the type's condition,
	// begins_with its prefix, selects every part's items, so a count of
	// it is no part's own, and First and Last are the part's keys as far
	// as read, not bounds of a condition.
	Shared   bool
	inferred string // a Declared group's inferred name
}

// ID tells groups apart, as Class.ID does.
func (g Group) ID() string { return g.Class().ID() }

// Class is the classification every key of the group shares.
func (g Group) Class() Class {
	return Class{Kind: g.Kind, Entity: g.Entity, Prefix: g.Prefix, Exact: g.Exact}
}

// WholeItemEntity names the one group of partition pk (of DynamoDB type
// pkType) whose key has no sort key: the table's one item under that
// partition key (an index's items). It is the partition key's family, as
// the layout names it ("user" of user42, "CUST" of CUST#42), so `groups`,
// the types pane, the live pane, `tail` and `layout` give such an item one
// name.
func WholeItemEntity(pk, pkType string) string { return FamilyEntity(pk, pkType) }

// NumberEntity names the single group numeric sort keys form, as numbers have no prefixes to split on.
const NumberEntity = "NUMBER"

// BinaryEntity names the single group binary sort keys form, as base64 text has no meaningful delimiters.
const BinaryEntity = "BINARY"

// ClassifyTyped is Classify for a sort key of DynamoDB type keyType: numbers and binary keys are one value group each.
func ClassifyTyped(sortKey, keyType, delim string) Class {
	switch keyType {
	case "N":
		return Class{Kind: KindValue, Entity: NumberEntity}
	case "B":
		return Class{Kind: KindValue, Entity: BinaryEntity}
	}
	return Classify(sortKey, delim)
}

// GroupSortKeys groups sort keys, given in DynamoDB's order (forward or reverse), into groups in order of first appearance.
//
// keyType is the DynamoDB scalar type of the sort key. "N" and "B" form one
// value group each (NumberEntity / BinaryEntity, Prefix ""; binary keys come
// as base64 text); strings group by Classify. A value group of strings is
// named by RunName of its first and last key. Keys of one group are
// contiguous in DynamoDB's order, but a group that shows up again later
// (unsorted input) still joins its first one. The result is never nil, so it
// encodes as [] rather than null.
func GroupSortKeys(sortKeys []string, keyType, delim string) []Group {
	groups := []Group{}
	index := map[string]int{}
	for _, k := range sortKeys {
		c := ClassifyTyped(k, keyType, delim)
		if i, ok := index[c.ID()]; ok {
			groups[i].Count++
			groups[i].Last = k
			continue
		}
		index[c.ID()] = len(groups)
		groups = append(groups, Group{Entity: c.Entity, Prefix: c.Prefix, Kind: c.Kind, Exact: c.Exact, Count: 1, First: k, Last: k})
	}
	if keyType == "S" || keyType == "" {
		for i := range groups {
			groups[i].name()
		}
		return FoldBare(groups) // named there
	}
	return UniqueNames(groups)
}

// name renames a string value group after its ends.
func (g *Group) name() {
	if g.Kind == KindValue && g.Entity != NumberEntity && g.Entity != BinaryEntity {
		g.Entity = RunName(g.First, g.Last)
	}
}
