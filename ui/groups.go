package ui

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/keys"
	"dynascope/ui/widget"
)

// typeRow is one entity type of the partition, as its entity table
// (keys.EntityTable) lists it: found by skip-scan, seen among the loaded
// items of the whole-partition query, counted, or all of these.
type typeRow = keys.TypeRow

// groupsPane lists the entity types of the partition with the query each
// one stands for. Its rows are the partition's entity table (keys.EntityTable,
// where the types are named as `groups` names them): skip-scan finds every
// type at once, the whole-partition query's pages, as they load, give
// counts. The pane keeps what the UI adds: the cursor, what the skip-scan
// and the counts cost, and the grouping by attribute. Row 0 is the whole
// partition.
type groupsPane struct {
	tbl   keys.EntityTable
	names map[string]string // entity prefix -> a model's facet name (Options.EntityNames)

	opening    bool // the partition's first page is on its way
	finding    bool // the skip-scan is in flight
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
	counts     map[string]countSpent // what counting a type cost, by its id

	// The second grouping (groups_attr.go): the generic entity attributes
	// of the whole-partition items loaded, and whether b shows it.
	ents     keys.EntityTally
	byAttr   bool
	restCost string // what reading the whole partition costs at most, in RCU, for the attribute grouping's footer

	nav    widget.List // the cursor and the window over the rows (list)
	active int         // the row the current query selects, -1 for none
}

// countSpent is what counting one type took.
type countSpent struct {
	reqs int
	cap  dynamo.Capacity
}

func newGroupsPane(keyType string, table bool) groupsPane {
	return groupsPane{tbl: keys.NewEntityTable(keyType, table), partExact: -1}
}

// newWholeItemPane is the pane of a partition whose key has no sort key,
// its partition key of type pkType: its items are one type, named as
// `groups` and the layout name them (keys.WholeItemEntity).
func newWholeItemPane(pkType string, table bool) groupsPane {
	return groupsPane{tbl: keys.NewWholeItemTable(pkType, table), partExact: -1}
}

// types are the partition's entity types, in sort-key order.
func (g groupsPane) types() []typeRow { return g.tbl.Rows() }

// keyType is the sort key's type; "" without one.
func (g groupsPane) keyType() string { return g.tbl.KeyType() }

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
	return len(g.types()) + 1
}

// find is the index of the type with this id, or -1.
func (g groupsPane) find(id string) int { return g.tbl.Find(id) }

// keyNames names sort keys as the rows name their types (keys.Names): the
// row whose type or run holds a key, else what its type would be called
// beside the rows, so a record of a type not listed yet never takes a
// listed type's name.
func (g groupsPane) keyNames(delim string) keys.Names { return g.tbl.Names(delim) }

// reset starts the counts over from the first page of a whole-partition
// query of partition pk; what skip-scan and counting found stays.
func (g groupsPane) reset(pk string, items []dynamo.Item, keyName, delim string, more, reverse bool) groupsPane {
	g.tbl = g.tbl.Reset(pk, reverse)
	g.ents = keys.EntityTally{}
	g.opening = false
	return g.add(items, keyName, delim, more)
}

// add merges a further page of the whole-partition query.
func (g groupsPane) add(items []dynamo.Item, keyName, delim string, more bool) groupsPane {
	rows := make([]keys.EntityRow, len(items))
	page := make([]keys.LoadedKey, len(items))
	for i, it := range items {
		rows[i] = entityRow(it, keyName)
		page[i] = keys.LoadedKey{SK: keyOf(it, keyName), Size: itemcodec.ItemSize(it), Library: libraryEntity(it)}
	}
	had := g.byAttribute()
	g.ents = g.ents.Add(rows)
	if had && !g.byAttribute() {
		g.byAttr, g.nav = false, g.nav.Home() // an item without it: back to the sort key
	}
	return g.sorted(func(t keys.EntityTable) keys.EntityTable { return t.Load(page, delim, more) })
}

// discovered merges what skip-scan found. A delimiter other than the one the
// loaded items were grouped by re-derives each type from its first key.
func (g groupsPane) discovered(d dynamo.Discovery, delim string) groupsPane {
	g.finding = false
	return g.sorted(func(t keys.EntityTable) keys.EntityTable { return t.Discover(d.Groups, false, d.Delimiter, delim) })
}

// arrived lists one type the running skip-scan just completed, in its
// place among the others; the walk's halves find them from both ends.
func (g groupsPane) arrived(gr keys.Group, delim string) groupsPane {
	return g.sorted(func(t keys.EntityTable) keys.EntityTable { return t.Arrive(gr, false, delim) })
}

// sorted changes the entity table by change, which puts the types in
// sort-key order, the cursor staying on its type.
func (g groupsPane) sorted(change func(keys.EntityTable) keys.EntityTable) groupsPane {
	id := ""
	if c := g.cursor(); c > 0 && c <= len(g.types()) && !g.byAttribute() {
		id = g.types()[c-1].ID()
	}
	g.tbl = change(g.tbl)
	if id != "" && g.keyType() == "S" {
		g.nav = g.list().MoveTo(g.find(id) + 1)
	}
	return g
}

// counted records a type's exact count and what it cost.
func (g groupsPane) counted(id string, n, reqs int, c dynamo.Capacity) groupsPane {
	g.tbl = g.tbl.Counted(id, n)
	g.counts = maps.Clone(g.counts)
	if g.counts == nil {
		g.counts = map[string]countSpent{}
	}
	g.counts[id] = countSpent{reqs: reqs, cap: c}
	return g
}

// sharing is the rows (indexes into types) the declarations split type
// row i's type into, i among them (Order and ~ORDER under ORDER#): its
// condition selects the items of them all. nil when row i is not split.
func (g groupsPane) sharing(i int) []int {
	ts := g.types()
	if !ts[i].Shared {
		return nil
	}
	var out []int
	for j, t := range ts {
		if t.Shared && t.ID() == ts[i].ID() {
			out = append(out, j)
		}
	}
	return out
}

// sharedLabel names what row i's condition selects when it is shared:
// "ORDER# (Order, ~ORDER)"; "" when it is not.
func (g groupsPane) sharedLabel(i int) string {
	rows := g.sharing(i)
	if rows == nil {
		return ""
	}
	names := make([]string, len(rows))
	for k, j := range rows {
		names[k] = sanitize(g.types()[j].Marked())
	}
	return sanitize(g.types()[i].Prefix) + " (" + strings.Join(names, ", ") + ")"
}

// sharers names the rows row i's type shares its prefix with ("~ORDER").
func (g groupsPane) sharers(i int) string {
	var out []string
	for _, j := range g.sharing(i) {
		if j != i {
			out = append(out, sanitize(g.types()[j].Marked()))
		}
	}
	return strings.Join(out, ", ")
}

// countSpent is what counting type t cost, as far as the pane was told:
// by its id, or the id of a type folded into it since.
func (g groupsPane) countSpent(t typeRow) countSpent {
	if c, ok := g.counts[t.ID()]; ok {
		return c
	}
	for _, id := range t.Aliases {
		if c, ok := g.counts[id]; ok {
			return c
		}
	}
	return countSpent{}
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

// condition is the sort-key condition that selects a row: none for the whole
// partition and for number or binary keys, = for a key that is a type of its
// own (PROFILE), begins_with for a prefix (ORDER#), BETWEEN its first and
// last key for a value group (timestamps).
func (g groupsPane) condition(row int) dynamo.SKCond {
	if row <= 0 || row > len(g.types()) || g.byAttribute() {
		return dynamo.SKCond{}
	}
	return dynamo.GroupCondition(g.types()[row-1].Group, g.keyType())
}

// rowFor finds the row a sort-key condition selects, or -1.
func (g groupsPane) rowFor(c dynamo.SKCond) int {
	if c.Op == dynamo.SKNone {
		return 0
	}
	for i := range g.types() {
		if gc := g.condition(i + 1); gc.Op == c.Op && slices.Equal(gc.Values, c.Values) {
			return i + 1
		}
	}
	return -1
}

// complete tells whether every item of the whole partition is loaded.
func (g groupsPane) complete() bool { return g.tbl.Complete() }

// known is a type's exact count, when anything tells it (keys.EntityTable.Count).
func (g groupsPane) known(i int) (int, bool) { return g.tbl.Count(i) }

// countText is a count that says what is known: 120 exact, 120+ loaded so
// far with more to come, ? not loaded yet.
func (g groupsPane) countText(row int) string {
	loaded, pages, seen := g.tbl.Loaded(), g.tbl.Pages(), g.tbl.Seen()
	if row == 0 {
		switch {
		case g.partExact >= 0:
			return strconv.Itoa(g.partExact)
		case g.complete():
			return strconv.Itoa(loaded)
		case g.tbl.Listed() && len(g.types()) > 0:
			sum := 0
			for i := range g.types() {
				n, ok := g.known(i)
				if !ok && pages == 0 {
					return "?"
				} else if !ok {
					return strconv.Itoa(max(loaded, seen)) + "+"
				}
				sum += n
			}
			return strconv.Itoa(sum)
		case pages == 0 && seen == 0:
			return "?"
		}
		return strconv.Itoa(max(loaded, seen)) + "+"
	}
	if n, ok := g.known(row - 1); ok {
		return strconv.Itoa(n)
	}
	t := g.types()[row-1]
	if n := max(t.Loaded, t.AtLeast); n > 0 {
		return strconv.Itoa(n) + "+"
	}
	return "?"
}
