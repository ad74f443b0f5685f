package keys

import (
	"slices"
)

// The entity table of a partition. Its types arrive from three sources:
// the pages of a read of the whole partition (Load: the keys in hand, with
// their items' sizes and library entities), a skip-scan (Discover and
// Arrive: a group per type with the partition's own first and last key),
// and counts (Counted). Whichever way a type arrives, the table names it
// by the same rules, here and nowhere else: each key is classified once
// (ClassifyTyped) and counts for the type of its class; the types are put
// in DynamoDB's order, ids inside a run of ids join it, bare labels fold
// into their prefix types and runs of ids into one value type (FoldBare,
// FoldIDs), and each type gets one name (UniqueNames). So `groups`
// (dynamo's skip-scan and its whole read fill a table), the UI's types
// pane (a table fed by its pages, the skip-scan and its counts) and
// everything that names one key as its partition's types do (Names, from
// NamesOfKeys: the layout, tail, the live pane, index try) take their
// types from this one code, and agree.

// TypeRow is one entity type of a partition's EntityTable.
type TypeRow struct {
	// Group is the type as the partition's groups give it: Entity named by
	// the rules above, Prefix, Kind, Exact, Bare, and First and Last, its
	// lowest and highest sort key as far as known. Count is the type
	// counted on its own (Select=COUNT), -1 when it was not; EntityTable.Count
	// says what else tells it.
	Group
	Aliases    []string        // the IDs of the types folded into it (its bare label, the ids of its run)
	Discovered bool            // a skip-scan found it: First and Last are the partition's own
	Loaded     int             // its items among those the whole-partition read loaded
	Bytes      int             // their size, by DynamoDB's rules
	AtLeast    int             // a lower bound: a count stopped part way, or an earlier read, got this far
	Libraries  []LibraryEntity // the entities a single-table library named in its loaded items, in the order seen
}

// LoadedKey is one item a read of the whole partition loaded: its sort
// key, its size and the entity its library attributes name (zero if none).
type LoadedKey struct {
	SK      string
	Size    int
	Library LibraryEntity
}

// EntityTable is the entity types of one partition with their rows: names,
// prefixes, first and last keys, counts and how each was found. It is a
// value: every method that changes it returns the changed table and leaves
// the one it was called on as it was. The zero value is an empty table of
// a partition without a sort key; use NewEntityTable.
//
// It keeps each type as it was found (one per class of the keys
// loaded, one per group a skip-scan reported, none folded) and makes its
// rows from them afresh after every change, so the rows depend on what was
// found, not on the order it came in: a skip-scan's halves report types
// from both ends, and two runs of ids are one type only once nothing is
// known to lie between them.
type EntityTable struct {
	pk, keyType string
	pkType      string // without a sort key: the partition key's type, which names its items (WholeItemEntity)
	base        bool
	asFound     []TypeRow   // the types as found, unfolded
	rows        []TypeRow   // the types: found in sort-key order, folded and named
	counts      []typeCount // what counting types told

	// The whole-partition read, since its first page (Reset).
	pages, loaded, bytes int
	more, reverse        bool
	seen                 int    // the most items an earlier read of the partition loaded
	lastKey, lastDelim   string // the sort key of the last item loaded, and the delimiter it was classified under
	listed               bool   // a skip-scan finished: every type is listed

	declared Declared            // the application's declarations; nil for none
	decl     map[string]declInfo // type as found (ID) -> what its loaded keys matched
}

// typeCount is what counting one type (Select=COUNT over its sort-key
// condition, cond) told: n items, or at least n when it stopped part way.
type typeCount struct {
	cond string
	n    int
	done bool
}

// NewEntityTable is an empty table of a partition whose sort key has
// DynamoDB type keyType ("S", "N", "B"; "" without a sort key: no types,
// only counts). base is the table rather than an index: there a type that
// is one key value (PROFILE) is one item.
func NewEntityTable(keyType string, base bool) EntityTable {
	return EntityTable{keyType: keyType, base: base}
}

// NewWholeItemTable is an empty table of a partition whose key has no sort
// key, its partition key of DynamoDB type pkType: once an item of it is
// loaded or found, its one type is those items, named WholeItemEntity.
func NewWholeItemTable(pkType string, base bool) EntityTable {
	return EntityTable{pkType: pkType, base: base}
}

// Reset starts a read of the whole of partition pk, forward or in reverse:
// the counts of the loaded items start over, and every type stays, with
// what a skip-scan found of it, what counting it told and what an earlier
// read loaded of it (a lower bound now).
func (t EntityTable) Reset(pk string, reverse bool) EntityTable {
	t.pk, t.reverse = pk, reverse
	t.seen = max(t.seen, t.loaded)
	t.asFound = slices.Clone(t.asFound)
	for i, r := range t.asFound {
		t.asFound[i].AtLeast = max(r.AtLeast, r.Loaded)
		t.asFound[i].Loaded, t.asFound[i].Bytes, t.asFound[i].Libraries = 0, 0, nil
	}
	t.pages, t.loaded, t.bytes, t.lastKey = 0, 0, 0, ""
	t.resetDecl()
	return t.made()
}

// Load adds a page of the whole-partition read (its items in the read's
// order); more says another page follows. Each key is classified under
// delim and counts for the type of its class.
func (t EntityTable) Load(page []LoadedKey, delim string, more bool) EntityTable {
	t.asFound = slices.Clone(t.asFound)
	t.cloneDecl()
	t.pages++
	t.loaded += len(page)
	t.more = more
	labels := map[string]int{}
	values := -1
	for i, r := range t.asFound {
		if r.Kind == KindLabel {
			labels[r.ID()] = i
		} else if t.digitRun(r) {
			values = i // there is one: a digit-led key or run joins it (foundOf)
		}
	}
	for _, k := range page {
		t.bytes += k.Size
		if t.keyType == "" {
			continue // no sort key: no types, the partition's counts say it all
		}
		c := ClassifyTyped(k.SK, t.keyType, delim)
		i, ok := labels[c.ID()]
		if c.Kind == KindValue {
			i, ok = values, values >= 0
		}
		if !ok {
			i = len(t.asFound)
			t.asFound = append(t.asFound, newTypeRow(c))
			if c.Kind == KindValue {
				values = i
			} else {
				labels[c.ID()] = i
			}
		}
		if t.declared != nil {
			t.noteDeclared(t.asFound[i].ID(), k.SK, k.Size)
		}
		r := &t.asFound[i]
		r.Loaded++
		r.Bytes += k.Size
		if !r.Discovered {
			lo, hi := &r.First, &r.Last
			if t.reverse {
				lo, hi = hi, lo
			}
			if *lo == "" {
				*lo = k.SK
			}
			*hi = k.SK
		}
		if k.Library.Library != "" && !slices.Contains(r.Libraries, k.Library) {
			// An ElectroDB collection ("$organization#") holds several
			// entities under one prefix: each is named.
			r.Libraries = append(slices.Clip(r.Libraries), k.Library)
		}
		t.lastKey, t.lastDelim = k.SK, delim
	}
	return t.made()
}

// digitRun tells the found value type that holds the keys of the value
// class: every number or binary key, or the string keys that start with a
// digit (a run of letter-led ids a skip-scan reported is another).
func (t EntityTable) digitRun(r TypeRow) bool {
	k := knownKey(r)
	return r.Kind == KindValue && (t.keyType != "S" || k != "" && isDigit(k[0]))
}

// Discover merges the types a skip-scan found (Discovery.Groups: in the
// walk's order, First in its direction, reverse for a walk from the end):
// every type is then listed. walked is the delimiter the walk grouped by;
// when the table's keys are classified under another (delim), each type is
// classified again from its first key.
func (t EntityTable) Discover(groups []Group, reverse bool, walked, delim string) EntityTable {
	t.asFound = slices.Clone(t.asFound)
	t.listed = true
	for _, g := range groups {
		t = t.withGroup(g, reverse, walked, delim)
	}
	return t.made()
}

// Arrive merges one type a running skip-scan just completed (in the walk's
// orientation, classified under delim).
func (t EntityTable) Arrive(g Group, reverse bool, delim string) EntityTable {
	t.asFound = slices.Clone(t.asFound)
	return t.withGroup(g, reverse, delim, delim).made()
}

// withGroup merges group g a skip-scan found into t.asFound, t's own copy:
// into the type found of its class, or for a run of values the value type
// of its keys (foundOf).
func (t EntityTable) withGroup(g Group, reverse bool, walked, delim string) EntityTable {
	if reverse {
		g.First, g.Last = g.Last, g.First
	}
	c, last := g.Class(), g.Last
	if walked != delim && t.keyType == "S" && g.Kind != KindValue {
		c = Classify(g.First, delim)
		if c.Prefix != g.Prefix {
			last = "" // its range is another one
		}
	}
	i := t.foundOf(c, g)
	if i < 0 {
		i = len(t.asFound)
		t.asFound = append(t.asFound, newTypeRow(c))
	}
	// The type's ends take in the group's: a skip-scan's ends are its
	// type's own, and what the type held already lies within them.
	r := &t.asFound[i]
	t.unreadEnds(r, g.First, last)
	r.Discovered = true
	r.Bare = r.Bare || g.Bare
	if g.First != "" && (r.First == "" || CompareKeys(g.First, r.First, t.keyType) < 0) {
		r.First = g.First
	}
	if last != "" && (r.Last == "" || CompareKeys(last, r.Last, t.keyType) > 0) {
		r.Last = last
	}
	return t
}

// unreadEnds forgets an end of type r that the loaded items gave but a
// skip-scan says it did not read (first or last ""), when loading stopped
// inside r: the last key loaded there is not the type's end, and a
// skip-scan's row shows its ends as the partition's own.
func (t EntityTable) unreadEnds(r *TypeRow, first, last string) {
	if r.Discovered || r.Loaded == 0 || !t.more || t.lastKey == "" || ClassifyTyped(t.lastKey, t.keyType, t.lastDelim).ID() != r.ID() {
		return
	}
	if t.reverse && first == "" {
		r.First = ""
	}
	if !t.reverse && last == "" {
		r.Last = ""
	}
}

// foundOf is the type found before that group g of class c joins, -1 for
// none: the type of its class; for a run of values, the one value type of
// numbers or binary keys, or for digit-led values the type of the
// digit-led keys. A run of letter-led ids is a type found of its own; the
// rows join it to the ids and runs it overlaps (joinInRuns).
func (t EntityTable) foundOf(c Class, g Group) int {
	return slices.IndexFunc(t.asFound, func(r TypeRow) bool {
		if c.Kind == KindLabel {
			return r.Kind == KindLabel && r.ID() == c.ID()
		}
		k := knownKey(TypeRow{Group: g})
		return r.Kind == KindValue && (t.keyType != "S" || t.digitRun(r) && k != "" && isDigit(k[0]))
	})
}

func newTypeRow(c Class) TypeRow {
	return TypeRow{Group: Group{Entity: c.Entity, Prefix: c.Prefix, Kind: c.Kind, Exact: c.Exact, Count: -1}}
}
