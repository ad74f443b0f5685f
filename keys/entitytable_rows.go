package keys

import (
	"slices"
	"sort"
)

// An entity table's rows, made from the types as found, and what they
// tell of counts.

// made makes the rows from the types found: for string keys in sort-key
// order (a bare label before its prefix type) and by the naming rules: a
// value run named by its ends, as a skip-scan sees it (RunName; a list of
// names keeps its name), ids inside a run of ids joined to it, bare labels
// and runs of ids folded, one name each (foldRows). Number and binary keys
// form one row. Then what counting told is put on the rows it counted.
func (t EntityTable) made() EntityTable {
	rows := slices.Clone(t.asFound)
	if t.keyType == "" {
		rows = t.wholeItemRows()
	}
	if t.keyType == "S" {
		for i, r := range rows {
			if r.Kind == KindValue && r.First != "" && r.Last != "" && r.Entity != ShapeName {
				rows[i].Entity = idRunName(r.First, r.Last)
			}
		}
		sort.SliceStable(rows, func(a, b int) bool {
			ka, kb := knownKey(rows[a]), knownKey(rows[b])
			if ka != kb {
				return ka < kb
			}
			return rows[a].Exact && !rows[b].Exact
		})
		rows = foldRows(t.pk, joinInRuns(rows))
	}
	rows = t.nameDeclared(rows)
	for i := range rows {
		if rows[i].Shared {
			continue // a count of its condition counts the other parts too
		}
		cond := t.condition(rows[i].Group)
		for _, c := range t.counts {
			switch {
			case c.cond != cond:
			case c.done:
				rows[i].Count = c.n
			default:
				rows[i].AtLeast = max(rows[i].AtLeast, c.n)
			}
		}
	}
	t.rows = rows
	return t
}

// knownKey is a key of row r that places it in sort-key order: its first,
// or its last where a skip-scan that walked from the end read only that
// (a type is one run of keys, so either places it).
func knownKey(r TypeRow) string {
	if r.First == "" {
		return r.Last
	}
	return r.First
}

// wholeItemRows is the one row of a partition without a sort key once an
// item of it was loaded or found (none before): its items, named by the
// partition key's family; on the table it is one item.
func (t EntityTable) wholeItemRows() []TypeRow {
	if t.loaded == 0 && len(t.asFound) == 0 {
		return nil
	}
	r := TypeRow{Group: Group{Entity: WholeItemEntity(t.pk, t.pkType), Kind: KindValue, Exact: t.base, Count: -1},
		Discovered: len(t.asFound) > 0, Loaded: t.loaded, Bytes: t.bytes}
	for _, f := range t.asFound {
		if t.pk == "" {
			r.Entity = f.Entity // found before a page named the partition: as the skip-scan named it
		}
		r.Libraries = append(r.Libraries, f.Libraries...)
	}
	return []TypeRow{r}
}

// joinInRuns joins each row that lies inside the run of a value row before
// it to that row: a letter-led id loaded one key at a time inside the run
// of ids a skip-scan reported, a run of values overlapping another. A run
// holds only what Names would name by it (inRun: ids of its shape, names
// in a list of names); rows are in sort-key order.
func joinInRuns(rows []TypeRow) []TypeRow {
	out := make([]TypeRow, 0, len(rows))
	v := -1 // the last value row of out
	for _, r := range rows {
		if v >= 0 && r.First <= out[v].Last && (r.Kind == KindValue || r.Exact && inRun(out[v].Group, r.First, "S")) {
			w := out[v]
			out[v] = joinRun([]TypeRow{w, r}, w.Entity)
			out[v].Last = max(w.Last, r.Last)
			continue
		}
		out = append(out, r)
		if r.Kind == KindValue {
			v = len(out) - 1
		}
	}
	return out
}

// condition tells the sort-key condition that selects type g apart, as a
// count of it was asked for: its class, and for a run of string values or
// a prefix type holding its bare label its ends too (they are its BETWEEN).
func (t EntityTable) condition(g Group) string {
	if t.keyType == "S" && (g.Kind == KindValue || g.Bare) {
		return g.ID() + "\x00" + min(g.First, g.Last) + "\x00" + max(g.First, g.Last)
	}
	return g.ID()
}

// Counted records that counting type id (Select=COUNT over its condition)
// found n items.
func (t EntityTable) Counted(id string, n int) EntityTable {
	return t.count(id, n, true)
}

// CountedAtLeast records that a count of type id stopped part way after n items.
func (t EntityTable) CountedAtLeast(id string, n int) EntityTable {
	return t.count(id, n, false)
}

func (t EntityTable) count(id string, n int, done bool) EntityTable {
	i := t.Find(id)
	if i < 0 {
		return t
	}
	cond := t.condition(t.rows[i].Group)
	// A finished count replaces what was told of the condition before; a
	// stopped one adds a lower bound (the rows take the highest).
	t.counts = slices.DeleteFunc(slices.Clone(t.counts), func(c typeCount) bool { return done && c.cond == cond })
	t.counts = append(t.counts, typeCount{cond: cond, n: n, done: done})
	return t.made()
}

// Rows are the partition's types in sort-key order; the caller must not
// change them.
func (t EntityTable) Rows() []TypeRow { return t.rows }

// Find is the index of the row of type id (Class.ID), or of the row it was
// folded into; -1 when none.
func (t EntityTable) Find(id string) int {
	for i, r := range t.rows {
		if r.ID() == id || slices.Contains(r.Aliases, id) {
			return i
		}
	}
	return -1
}

// Count is row i's number of items, when anything tells it exactly: a
// count of its own, the whole partition loaded, the loaded items going on
// past it or stopping on its last key, or (on the table) a type that is
// one key value and so one item, whichever read showed it. ok is false
// when nothing does.
func (t EntityTable) Count(i int) (n int, ok bool) {
	r := t.rows[i]
	switch {
	case r.Count >= 0:
		return r.Count, true
	case t.Complete():
		return r.Loaded, true
	case r.Shared:
		// A part of a split type: exact once the loaded items go on past
		// its prefix (its keys lie anywhere in it).
		last := ClassifyTyped(t.lastKey, t.keyType, t.lastDelim)
		return r.Loaded, r.Loaded > 0 && t.lastKey != "" && last.ID() != r.ID()
	case r.Exact && t.base:
		return 1, true // every type the table lists was loaded or found: this one holds its item
	case r.Loaded == 0:
		return 0, false
	}
	if groupOf(groupsOf(t.rows), ClassifyTyped(t.lastKey, t.keyType, t.lastDelim), t.lastKey, t.keyType) != i {
		return r.Loaded, true // the loaded items go on past it
	}
	end := r.Last
	if t.reverse {
		end = r.First
	}
	if r.Discovered && end == t.lastKey {
		return r.Loaded, true // loading stopped on its last key
	}
	return 0, false
}

// Groups are the rows as groups in the read's order (reversed, ends
// swapped, for a read in reverse), each Count as Count tells it, -1 when
// nothing does. The result is never nil.
func (t EntityTable) Groups() []Group {
	out := make([]Group, len(t.rows))
	for i, r := range t.rows {
		g, at := r.Group, i
		g.Count = -1
		if n, ok := t.Count(i); ok {
			g.Count = n
		}
		if t.reverse {
			g.First, g.Last = g.Last, g.First
			at = len(out) - 1 - i
		}
		out[at] = g
	}
	return out
}

// Names names the partition's keys, classified under delim, as its types
// do (see Names).
func (t EntityTable) Names(delim string) Names {
	n := NamesOf(t.pk, t.Groups(), t.keyType, delim)
	n.declared = t.declared
	return n
}

// PK is the partition.
func (t EntityTable) PK() string { return t.pk }

// Pages are the pages of the whole-partition read loaded.
func (t EntityTable) Pages() int { return t.pages }

// Loaded is how many items they hold.
func (t EntityTable) Loaded() int { return t.loaded }

// Bytes is their size.
func (t EntityTable) Bytes() int { return t.bytes }

// Seen is the most items an earlier read of the partition loaded: a read
// with a Limit after one that loaded more keeps what that one showed.
func (t EntityTable) Seen() int { return t.seen }

// Complete tells whether the whole partition is loaded.
func (t EntityTable) Complete() bool { return t.pages > 0 && !t.more }

// Listed tells whether a skip-scan listed every type (Discover).
func (t EntityTable) Listed() bool { return t.listed }

// KeyType is the sort key's DynamoDB type; "" without a sort key.
func (t EntityTable) KeyType() string { return t.keyType }
