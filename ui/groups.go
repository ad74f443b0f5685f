package ui

import (
	"slices"
	"sort"
	"strconv"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/keys"
	"dynascope/ui/widget"
)

// typeRow is one entity type of the partition: found by skip-scan, seen
// among the loaded items of the whole-partition query, or both.
type typeRow struct {
	id             string // keys.Class.ID: what makes two rows one type
	entity, prefix string
	value          bool     // a value group: data keys, selected by their range
	exactKey       bool     // a label type that is one sort-key value (PROFILE)
	bare           bool     // a prefix type holding its bare label too (keys.FoldBare)
	aliases        []string // the ids of the rows folded into it
	first, last    string   // its first and last sort key as far as known
	discovered     bool     // skip-scan found it: first and last are the partition's own
	loaded         int      // its items among the loaded whole-partition results
	bytes          int      // their size, by DynamoDB's rules
	exact          int      // counted with Select=COUNT; -1 when not
	atLeast        int      // a lower bound: a count stopped part way, or an earlier read of the partition, got this far
	countReqs      int      // what the exact count took
	countCap       dynamo.Capacity
	libs           []keys.LibraryEntity // the entities its loaded items name, when a library wrote them; in order seen
}

func newTypeRow(c keys.Class) typeRow {
	return typeRow{id: c.ID(), entity: c.Entity, prefix: c.Prefix, value: c.Kind == keys.KindValue, exactKey: c.Exact, exact: -1}
}

// groupsPane lists the entity types of the partition with the query each
// one stands for. Skip-scan finds every type at once; the whole-partition
// query's pages, as they load, give counts. Row 0 is the whole partition.
type groupsPane struct {
	types   []typeRow
	pk      string            // the partition shown, which may name a list (keys.ListOfNames)
	keyType string            // the sort key's type; "" without one
	table   bool              // the base table, where an exact type (PROFILE) is one item
	names   map[string]string // entity prefix -> a model's facet name (Options.EntityNames)

	pages    int    // pages of the whole-partition query loaded
	loaded   int    // its items loaded
	bytes    int    // their size
	partial  bool   // it has more pages
	seen     int    // the most items an earlier read of the partition loaded (l 100 after 1744 keeps 1744+)
	reverse  bool   // it reads backwards
	lastKey  string // the sort key of the last item loaded
	lastType string // its type's id

	opening    bool // the partition's first page is on its way
	finding    bool // the skip-scan is in flight
	found      bool // it finished: every type is listed
	scanErr    bool // it failed; the types are those loaded
	scanReqs   int
	scanCap    dynamo.Capacity
	scanLogged int           // requests of the running skip-scan already in the log
	more       bool          // the skip-scan's budget ran out: more types may follow
	resume     dynamo.SKCond // where it would go on
	stepped    string        // where it could not jump letter-led ids (Discovery.SteppedNote); "" when nowhere
	until      dynamo.SKCond // where the types found from the partition's other end begin
	partExact  int           // the partition counted with Select=COUNT; -1 when not
	partReqs   int
	partCap    dynamo.Capacity

	// The second grouping (groups_attr.go): the generic entity attributes
	// of the whole-partition items loaded, and whether b shows it.
	ents     keys.EntityTally
	byAttr   bool
	restCost string // what reading the whole partition costs at most, in RCU, for the attribute grouping's footer

	nav    widget.List // the cursor and the window over the rows (list)
	active int         // the row the current query selects, -1 for none
}

func newGroupsPane(keyType string, table bool) groupsPane {
	return groupsPane{keyType: keyType, table: table, partExact: -1}
}

// list is the cursor and the window over the rows as they are now: the
// types change under it as pages and the skip-scan arrive.
func (g groupsPane) list() widget.List { return g.nav.SetLen(g.rows()) }

// cursor is the row the cursor is on: 0 for the partition, i+1 for types[i]
// (or the attribute grouping's values).
func (g groupsPane) cursor() int { return g.list().Cursor() }

func (g groupsPane) rows() int {
	if g.byAttribute() {
		return len(g.attrGroups()) + 1
	}
	return len(g.types) + 1
}

// find is the index of the type with this id, or -1.
func (g groupsPane) find(id string) int {
	for i, t := range g.types {
		if t.id == id || slices.Contains(t.aliases, id) {
			return i
		}
	}
	return -1
}

// typeOf is the group of a sort key.
func (g groupsPane) typeOf(sk, delim string) keys.Class {
	return keys.ClassifyTyped(sk, g.keyType, delim)
}

// keyNames names sort keys as the rows name their types (keys.Names): the
// row whose type or run holds a key, else what its type would be called
// beside the rows, so a record of a type not listed yet never takes a
// listed type's name.
func (g groupsPane) keyNames(delim string) keys.Names {
	gs := make([]keys.Group, len(g.types))
	for i, t := range g.types {
		gs[i] = t.group()
	}
	return keys.NamesOf(g.pk, gs, g.keyType, delim)
}

// reset starts the counts over from the first page of a whole-partition
// query; what skip-scan and counting found stays.
func (g groupsPane) reset(items []dynamo.Item, keyName, delim string, more, reverse bool) groupsPane {
	// The counts are of the partition, not of the page: what an earlier
	// read loaded stays a lower bound when this one reads less (a Limit).
	g.seen = max(g.seen, g.loaded)
	kept := g.types[:0:0]
	for _, t := range g.types {
		t.atLeast = max(t.atLeast, t.loaded)
		if t.discovered || t.exact >= 0 || t.atLeast > 0 {
			t.loaded, t.bytes, t.libs = 0, 0, nil
			kept = append(kept, t)
		}
	}
	g.types = kept
	g.pages, g.loaded, g.bytes, g.lastKey, g.lastType, g.reverse = 0, 0, 0, "", "", reverse
	g.ents = keys.EntityTally{}
	g.opening = false
	return g.add(items, keyName, delim, more)
}

// add merges a further page of the whole-partition query.
func (g groupsPane) add(items []dynamo.Item, keyName, delim string, more bool) groupsPane {
	g.types = append([]typeRow(nil), g.types...)
	g.pages++
	g.loaded += len(items)
	g.partial = more
	rows := make([]keys.EntityRow, len(items))
	for i, it := range items {
		rows[i] = entityRow(it, keyName)
	}
	had := g.byAttribute()
	g.ents = g.ents.Add(rows)
	if had && !g.byAttribute() {
		g.byAttr, g.nav = false, g.nav.Home() // an item without it: back to the sort key
	}
	for _, it := range items {
		size := itemcodec.ItemSize(it)
		g.bytes += size
		if g.keyType == "" {
			continue // no sort key: no types, the partition row says it all
		}
		sk := keyOf(it, keyName)
		c := g.typeOf(sk, delim)
		i := g.find(c.ID())
		if i < 0 {
			i = len(g.types)
			g.types = append(g.types, newTypeRow(c))
		}
		t := &g.types[i]
		t.loaded++
		t.bytes += size
		if !t.discovered {
			if g.reverse {
				if t.last == "" {
					t.last = sk
				}
				t.first = sk
			} else {
				if t.first == "" {
					t.first = sk
				}
				t.last = sk
			}
		}
		if l := libraryEntity(it); l.Library != "" && !slices.Contains(t.libs, l) {
			// An ElectroDB collection ("$organization#") holds several
			// entities under one prefix: each is named.
			t.libs = append(slices.Clip(t.libs), l)
		}
		g.lastKey, g.lastType = sk, c.ID()
	}
	return g.sorted()
}

// discovered merges what skip-scan found. A delimiter other than the one the
// loaded items were grouped by re-derives each type from its first key.
func (g groupsPane) discovered(d dynamo.Discovery, delim string) groupsPane {
	g.types = append([]typeRow(nil), g.types...)
	g.finding, g.found = false, true
	for _, gr := range d.Groups {
		g = g.withGroup(gr, d.Delimiter, delim)
	}
	return g.sorted()
}

// arrived lists one type the running skip-scan just completed, in its
// place among the others; the walk's halves find them from both ends.
func (g groupsPane) arrived(gr keys.Group, delim string) groupsPane {
	g.types = append([]typeRow(nil), g.types...)
	return g.withGroup(gr, delim, delim).sorted()
}

// withGroup merges a group the skip-scan found (walking with delimiter
// walked) into the rows, which group by delim; g.types is g's own copy.
func (g groupsPane) withGroup(gr keys.Group, walked, delim string) groupsPane {
	c := gr.Class()
	last := gr.Last
	if walked != delim && g.keyType == "S" && gr.Kind != keys.KindValue {
		c = keys.Classify(gr.First, delim)
		if c.Prefix != gr.Prefix {
			last = "" // its range is another one
		}
	}
	i := g.find(c.ID())
	if i < 0 {
		i = len(g.types)
		g.types = append(g.types, newTypeRow(c))
	}
	t := &g.types[i]
	t.discovered = true
	t.bare = t.bare || gr.Bare
	t.first = gr.First
	if last != "" {
		t.last = last
	}
	return g
}

// sorted puts types in sort-key order, the cursor staying on its type.
// Each type is one contiguous run of keys, so any key of it places it; a
// number or binary key has a single type.
func (g groupsPane) sorted() groupsPane {
	if g.keyType != "S" {
		return g
	}
	sel := -1
	if c := g.cursor(); c > 0 && c <= len(g.types) && !g.byAttribute() {
		sel = c - 1
	}
	id := ""
	if sel >= 0 {
		id = g.types[sel].id
	}
	for i, t := range g.types {
		if t.value && t.first != "" && t.last != "" && t.entity != keys.ShapeName {
			// Named by its ends, as the skip-scan and `groups` name it.
			g.types[i].entity = keys.RunName(t.first, t.last)
		}
	}
	sort.SliceStable(g.types, func(a, b int) bool { return g.types[a].first < g.types[b].first })
	g.types = uniqueRowNames(foldIDRows(g.pk, foldBareRows(g.types)))
	if sel >= 0 {
		g.nav = g.list().MoveTo(g.find(id) + 1)
	}
	return g
}

// foldBareRows folds a row of a bare label ("METADATA") into the row of its
// prefix type ("METADATA#") next to it, as keys.FoldBare folds groups, so
// the pane names one type where groups and layout do. The bare row's id
// finds the folded row again (find), for the items loaded later.
func foldBareRows(rows []typeRow) []typeRow {
	out := rows[:0:0]
	for _, t := range rows {
		if n := len(out); n > 0 && out[n-1].exactKey && keys.BareLabel(t.group()) == out[n-1].prefix {
			e := out[n-1]
			t.bare, t.first, t.loaded, t.bytes = true, e.first, t.loaded+e.loaded, t.bytes+e.bytes
			t.aliases = append(slices.Clip(t.aliases), e.id)
			if t.exact >= 0 && e.exact >= 0 {
				t.exact += e.exact
			} else {
				t.exact = -1
			}
			out[n-1] = t
			continue
		}
		out = append(out, t)
	}
	return out
}

// foldIDRows folds letter-led ids the loaded items hold into one value
// row, as keys.FoldIDs folds groups: neighbouring rows that are ids of one
// shape, or every row when the partition pk is a list of names.
func foldIDRows(pk string, rows []typeRow) []typeRow {
	gs := make([]keys.Group, len(rows))
	for i, t := range rows {
		gs[i] = t.group()
	}
	out := rows[:0:0]
	at := 0
	for _, r := range keys.IDRuns(pk, gs) {
		out = append(out, rows[at:r.From]...)
		out = append(out, joinRows(rows[r.From:r.To], r.Name))
		at = r.To
	}
	return append(out, rows[at:]...)
}

// uniqueRowNames names the rows as keys.UniqueNames names groups, so no
// two rows share a name and each has the name groups and layout give it
// ("ORDER" and "ORDER|").
func uniqueRowNames(rows []typeRow) []typeRow {
	gs := make([]keys.Group, len(rows))
	for i, t := range rows {
		gs[i] = t.group()
	}
	for i, g := range keys.UniqueNames(gs) {
		rows[i].entity = g.Entity
	}
	return rows
}

// joinRows makes one value row of neighbouring rows, named name.
func joinRows(rows []typeRow, name string) typeRow {
	v := typeRow{id: keys.Class{Kind: keys.KindValue}.ID(), entity: name, value: true, first: rows[0].first, last: rows[len(rows)-1].last}
	for _, t := range rows {
		if t.id != v.id {
			v.aliases = append(v.aliases, t.id)
		}
		v.aliases = append(v.aliases, t.aliases...)
		v.loaded += t.loaded
		v.bytes += t.bytes
		v.discovered = v.discovered || t.discovered
		v.libs = append(v.libs, t.libs...)
	}
	v.exact = -1
	return v
}

// libraryEntity reads the entity name a single-table library wrote into an item.
func libraryEntity(it dynamo.Item) keys.LibraryEntity {
	attrs := map[string]string{}
	for _, a := range keys.LibraryAttributes {
		if s := keyOf(it, a); s != "" {
			attrs[a] = s
		}
	}
	if len(attrs) == 0 {
		return keys.LibraryEntity{}
	}
	l, _ := keys.DetectLibraryEntity(attrs)
	return l
}

func (g groupsPane) move(delta, rowsShown int) groupsPane {
	g.nav = g.list().SetHeight(rowsShown).Move(delta)
	return g
}

// exactType tells a type that is one sort-key value (PROFILE) from a prefix.
func (t typeRow) exactType() bool { return t.exactKey }

// group is the row as the keys package describes a group.
func (t typeRow) group() keys.Group {
	kind := keys.KindLabel
	if t.value {
		kind = keys.KindValue
	}
	return keys.Group{Entity: t.entity, Prefix: t.prefix, Kind: kind, Exact: t.exactKey, Bare: t.bare, First: t.first, Last: t.last}
}

// condition is the sort-key condition that selects a row: none for the whole
// partition and for number or binary keys, = for a key that is a type of its
// own (PROFILE), begins_with for a prefix (ORDER#), BETWEEN its first and
// last key for a value group (timestamps).
func (g groupsPane) condition(row int) dynamo.SKCond {
	if row <= 0 || row > len(g.types) || g.byAttribute() {
		return dynamo.SKCond{}
	}
	return dynamo.GroupCondition(g.types[row-1].group(), g.keyType)
}

// rowFor finds the row a sort-key condition selects, or -1.
func (g groupsPane) rowFor(c dynamo.SKCond) int {
	if c.Op == dynamo.SKNone {
		return 0
	}
	for i := range g.types {
		if gc := g.condition(i + 1); gc.Op == c.Op && slices.Equal(gc.Values, c.Values) {
			return i + 1
		}
	}
	return -1
}

// complete tells whether every item of the whole partition is loaded.
func (g groupsPane) complete() bool { return g.pages > 0 && !g.partial }

// known is a type's exact count, when anything tells it: a count, the whole
// partition loaded, the loaded items reaching past the type or to its last
// key, or (on the table) a type that is one key value and so one item.
func (g groupsPane) known(i int) (int, bool) {
	t := g.types[i]
	switch {
	case t.exact >= 0:
		return t.exact, true
	case g.complete():
		return t.loaded, true
	case t.exactType() && g.table && (t.discovered || t.loaded > 0):
		return 1, true
	case t.loaded == 0:
		return 0, false
	}
	if g.lastType != t.id {
		return t.loaded, true // the loaded items go on past it
	}
	end := t.last
	if g.reverse {
		end = t.first
	}
	if t.discovered && end != "" && end == g.lastKey {
		return t.loaded, true // loading stopped on its last key
	}
	return 0, false
}

// countText is a count that says what is known: 120 exact, 120+ loaded so
// far with more to come, ? not loaded yet.
func (g groupsPane) countText(row int) string {
	if row == 0 {
		switch {
		case g.partExact >= 0:
			return strconv.Itoa(g.partExact)
		case g.complete():
			return strconv.Itoa(g.loaded)
		case g.found && len(g.types) > 0:
			sum := 0
			for i := range g.types {
				n, ok := g.known(i)
				if !ok && g.pages == 0 {
					return "?"
				} else if !ok {
					return strconv.Itoa(max(g.loaded, g.seen)) + "+"
				}
				sum += n
			}
			return strconv.Itoa(sum)
		case g.pages == 0 && g.seen == 0:
			return "?"
		}
		return strconv.Itoa(max(g.loaded, g.seen)) + "+"
	}
	if n, ok := g.known(row - 1); ok {
		return strconv.Itoa(n)
	}
	t := g.types[row-1]
	if n := max(t.loaded, t.atLeast); n > 0 {
		return strconv.Itoa(n) + "+"
	}
	return "?"
}
