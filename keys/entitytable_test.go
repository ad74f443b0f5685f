package keys

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// rowText is a row as the tests compare it: name, prefix, kind, flags,
// ends, what it holds and how it was found.
func rowText(r TypeRow) string {
	var flags []string
	for _, f := range []struct {
		on   bool
		name string
	}{{r.Exact, "exact"}, {r.Bare, "bare"}, {r.Discovered, "found"}} {
		if f.on {
			flags = append(flags, f.name)
		}
	}
	libs := make([]string, len(r.Libraries))
	for i, l := range r.Libraries {
		libs[i] = l.Entity
	}
	return fmt.Sprintf("%s %q %s [%s] %s..%s loaded %d bytes %d atLeast %d count %d aliases %q libs %q",
		r.Entity, r.Prefix, r.Kind, strings.Join(flags, ","), r.First, r.Last, r.Loaded, r.Bytes, r.AtLeast, r.Count, r.Aliases, libs)
}

func rowTexts(t EntityTable) []string {
	var out []string
	for _, r := range t.Rows() {
		out = append(out, rowText(r))
	}
	return out
}

func wantRows(t *testing.T, tb EntityTable, want ...string) {
	t.Helper()
	if got := rowTexts(tb); !slices.Equal(got, want) {
		t.Errorf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// lib is a library entity of the given name.
func lib(name string) LibraryEntity {
	return LibraryEntity{Library: "ElectroDB", Entity: name}
}

// A page loaded counts each item for the type of its key: items, bytes,
// the library entities each type's items name (once each, in order), its
// ends; and the table's own tally of pages, items and bytes.
func TestEntityTableLoadCountsItems(t *testing.T) {
	tb := NewEntityTable("S", true).Reset("CUST#1", false).Load([]LoadedKey{
		{SK: "ORDER#1", Size: 100, Library: lib("order")},
		{SK: "ORDER#2", Size: 50, Library: lib("order")},
		{SK: "ORDER#3", Size: 10, Library: lib("line")},
		{SK: "PROFILE", Size: 30},
	}, "#", true)
	wantRows(t, tb,
		`ORDER "ORDER#" label [] ORDER#1..ORDER#3 loaded 3 bytes 160 atLeast 0 count -1 aliases [] libs ["order" "line"]`,
		`PROFILE "PROFILE" label [exact] PROFILE..PROFILE loaded 1 bytes 30 atLeast 0 count -1 aliases [] libs []`)
	if tb.Pages() != 1 || tb.Loaded() != 4 || tb.Bytes() != 190 || tb.Complete() || tb.Listed() || tb.PK() != "CUST#1" || tb.KeyType() != "S" {
		t.Errorf("pages %d, loaded %d, bytes %d, complete %v, listed %v, pk %q, key type %q",
			tb.Pages(), tb.Loaded(), tb.Bytes(), tb.Complete(), tb.Listed(), tb.PK(), tb.KeyType())
	}
	tb = tb.Load([]LoadedKey{{SK: "PROFILE#x", Size: 5}}, "#", false)
	if tb.Pages() != 2 || tb.Loaded() != 5 || tb.Bytes() != 195 || !tb.Complete() {
		t.Errorf("after the last page: pages %d, loaded %d, bytes %d, complete %v", tb.Pages(), tb.Loaded(), tb.Bytes(), tb.Complete())
	}
}

// Without a sort key the partition's items are one type, named by the
// partition key's family as the layout names it (issue 37.12: the types
// pane showed none, groups said "item", the layout "user"); none before an
// item is loaded or found.
func TestEntityTableWithoutSortKey(t *testing.T) {
	empty := NewWholeItemTable("S", true).Reset("user-7", false)
	if g := empty.Groups(); g == nil || len(g) != 0 {
		t.Errorf("groups %+v before any item, want [] (never nil)", g)
	}
	tb := empty.Load([]LoadedKey{{Size: 40}}, "", false)
	wantRows(t, tb, `user "" value [exact] .. loaded 1 bytes 40 atLeast 0 count -1 aliases [] libs []`)
	if tb.Loaded() != 1 || tb.Bytes() != 40 {
		t.Errorf("loaded %d, bytes %d", tb.Loaded(), tb.Bytes())
	}
	if g := tb.Groups(); len(g) != 1 || g[0].Entity != FamilyEntity("user-7", "S") || g[0].Count != 1 {
		t.Errorf("groups %+v, want the one item named as its family", g)
	}
	found := NewWholeItemTable("N", false).Reset("42", false).Discover([]Group{{Entity: "x", Kind: KindValue, Count: 3}}, false, "", "")
	if g := found.Groups(); len(g) != 1 || g[0].Entity != NumberEntity || g[0].Count != -1 {
		t.Errorf("an index partition found by the skip-scan: %+v, want NUMBER, its count unknown", g)
	}
}

// Read backwards, the rows still run from lowest to highest key; the
// groups, as a read in reverse gives them, run from the end, their ends
// turned.
func TestEntityTableReverse(t *testing.T) {
	tb := NewEntityTable("S", false).Reset("CUST#1", true).
		Load(loadedKeys([]string{"PROFILE", "ORDER#3", "ORDER#2"}), "#", true).
		Load(loadedKeys([]string{"ORDER#1"}), "#", false)
	wantRows(t, tb,
		`ORDER "ORDER#" label [] ORDER#1..ORDER#3 loaded 3 bytes 0 atLeast 0 count -1 aliases [] libs []`,
		`PROFILE "PROFILE" label [exact] PROFILE..PROFILE loaded 1 bytes 0 atLeast 0 count -1 aliases [] libs []`)
	want := []Group{
		{Entity: "PROFILE", Prefix: "PROFILE", Kind: KindLabel, Exact: true, Count: 1, First: "PROFILE", Last: "PROFILE"},
		{Entity: "ORDER", Prefix: "ORDER#", Kind: KindLabel, Count: 3, First: "ORDER#3", Last: "ORDER#1"},
	}
	if got := tb.Groups(); !reflect.DeepEqual(got, want) {
		t.Errorf("groups\n got %+v\nwant %+v", got, want)
	}
}

// A new read of the partition starts the loaded counts over; every type
// stays, what was loaded of it a lower bound, and the partition remembers
// the most items a read loaded.
func TestEntityTableReset(t *testing.T) {
	tb := NewEntityTable("S", true).Reset("CUST#1", false).
		Load([]LoadedKey{{SK: "ORDER#1", Size: 3, Library: lib("order")}, {SK: "ORDER#2", Size: 4}}, "#", true)
	before := rowTexts(tb)
	again := tb.Reset("CUST#1", false)
	if !slices.Equal(rowTexts(tb), before) {
		t.Errorf("Reset changed the table it was called on")
	}
	wantRows(t, again, `ORDER "ORDER#" label [] ORDER#1..ORDER#2 loaded 0 bytes 0 atLeast 2 count -1 aliases [] libs []`)
	if again.Seen() != 2 || again.Loaded() != 0 || again.Pages() != 0 || again.Bytes() != 0 || again.Complete() {
		t.Errorf("seen %d, loaded %d, pages %d, bytes %d, complete %v", again.Seen(), again.Loaded(), again.Pages(), again.Bytes(), again.Complete())
	}
	again = again.Load(loadedKeys([]string{"ORDER#1"}), "#", true).Reset("CUST#1", false)
	if again.Seen() != 2 || again.Rows()[0].AtLeast != 2 {
		t.Errorf("a smaller read: seen %d, at least %d; want 2 and 2", again.Seen(), again.Rows()[0].AtLeast)
	}
}

// What tells a type's count exactly, and what does not.
func TestEntityTableCount(t *testing.T) {
	page := loadedKeys([]string{"ORDER#1", "ORDER#2", "PROFILE#1"})
	partial := NewEntityTable("S", false).Reset("CUST#1", false).Load(page, "#", true)
	count := func(tb EntityTable, i int) string {
		n, ok := tb.Count(i)
		return fmt.Sprintf("%d %v", n, ok)
	}
	if got := count(partial, 0); got != "2 true" {
		t.Errorf("ORDER, which the loaded items go on past: %s", got)
	}
	if got := count(partial, 1); got != "0 false" {
		t.Errorf("PROFILE, the last loaded, more to come: %s", got)
	}
	if got := count(partial.Load(nil, "#", false), 1); got != "1 true" {
		t.Errorf("PROFILE, the partition loaded: %s", got)
	}
	// The skip-scan found PROFILE ending where the loading stopped.
	found := partial.Discover([]Group{{Entity: "PROFILE", Prefix: "PROFILE#", Kind: KindLabel, First: "PROFILE#1", Last: "PROFILE#1"}}, false, "#", "#")
	if got := count(found, 1); got != "1 true" {
		t.Errorf("PROFILE found ending on the last key loaded: %s", got)
	}
	found = partial.Discover([]Group{{Entity: "PROFILE", Prefix: "PROFILE#", Kind: KindLabel, First: "PROFILE#1", Last: "PROFILE#9"}}, false, "#", "#")
	if got := count(found, 1); got != "0 false" {
		t.Errorf("PROFILE found ending past the last key loaded: %s", got)
	}
	// Read backwards, the loading stops on a type's first key.
	back := NewEntityTable("S", false).Reset("CUST#1", true).Load(loadedKeys([]string{"PROFILE#1", "ORDER#2"}), "#", true)
	if got := count(back.Discover([]Group{{Entity: "ORDER", Prefix: "ORDER#", Kind: KindLabel, First: "ORDER#2", Last: "ORDER#2"}}, true, "#", "#"), 0); got != "1 true" {
		t.Errorf("ORDER found starting where the reverse loading stopped: %s", got)
	}
	if got := count(back.Discover([]Group{{Entity: "ORDER", Prefix: "ORDER#", Kind: KindLabel, First: "ORDER#2", Last: "ORDER#1"}}, true, "#", "#"), 0); got != "0 false" {
		t.Errorf("ORDER found going on before where the reverse loading stopped: %s", got)
	}
	// A type that is one key value is one item, on the table only.
	profile := []Group{{Entity: "PROFILE", Prefix: "PROFILE", Kind: KindLabel, Exact: true, First: "PROFILE", Last: "PROFILE"}}
	if got := count(NewEntityTable("S", true).Reset("CUST#1", false).Discover(profile, false, "#", "#"), 0); got != "1 true" {
		t.Errorf("PROFILE found on the table: %s", got)
	}
	if got := count(NewEntityTable("S", false).Reset("CUST#1", false).Discover(profile, false, "#", "#"), 0); got != "0 false" {
		t.Errorf("PROFILE found on an index: %s", got)
	}
	if got := count(NewEntityTable("S", true).Reset("CUST#1", false).Load(loadedKeys([]string{"PROFILE"}), "#", true), 0); got != "1 true" {
		t.Errorf("PROFILE loaded on the table: %s", got)
	}
	// A count of its own, even of none.
	if got := count(partial.Counted("^PROFILE#", 0), 1); got != "0 true" {
		t.Errorf("PROFILE counted 0: %s", got)
	}
}

// The last key loaded is looked up under the delimiter it was loaded by,
// in the rows' folded form: a letter-led id the loading stopped on is its
// run's.
func TestEntityTableCountOfTheLastRun(t *testing.T) {
	tb := NewEntityTable("S", false).Reset("TAGS#1", false).
		Load(loadedKeys([]string{"0a1b2c3d4e5f", "a5f0c3d2e1b4"}), "#", true)
	if len(tb.Rows()) != 1 {
		t.Fatalf("rows %q", rowTexts(tb))
	}
	if n, ok := tb.Count(0); ok {
		t.Errorf("the run the loading stopped in is known: %d", n)
	}
	// Under "|" the last key "a|x" is of type a|; under "#" it would be an exact type.
	tb = NewEntityTable("S", false).Reset("P#1", false).Load(loadedKeys([]string{"a|w", "a|x"}), "|", true)
	if n, ok := tb.Count(0); ok {
		t.Errorf("the type the loading stopped in, under its own delimiter, is known: %d", n)
	}
}

// A count is of the condition it was asked with: it stays while the row's
// condition does (a prefix type's begins_with, whatever its ends), goes when
// a run's ends move, and a count that stopped part way is a lower bound a
// finished count replaces.
func TestEntityTableCounted(t *testing.T) {
	tb := NewEntityTable("S", false).Reset("CUST#1", false).
		Load(loadedKeys([]string{"2024-01-01", "2024-02-01", "ORDER#1"}), "#", true)
	tb = tb.Counted("^ORDER#", 40).Counted("\x00value", 9).Counted("^NOPE#", 3)
	if got := []int{tb.Rows()[0].Count, tb.Rows()[1].Count}; !slices.Equal(got, []int{9, 40}) {
		t.Fatalf("counts %v, want 9 and 40", got)
	}
	before := rowTexts(tb)
	more := tb.Load(loadedKeys([]string{"ORDER#2"}), "#", true)
	if got := []int{more.Rows()[0].Count, more.Rows()[1].Count}; !slices.Equal(got, []int{9, 40}) {
		t.Errorf("after more ORDER keys: counts %v, want 9 and 40", got)
	}
	if !slices.Equal(rowTexts(tb), before) {
		t.Errorf("Load changed the table it was called on")
	}
	moved := tb.Discover([]Group{{Entity: "date", Kind: KindValue, First: "2024-01-01", Last: "2024-03-01"}}, false, "#", "#")
	if got := moved.Rows()[0].Count; got != -1 {
		t.Errorf("the run's ends moved: count %d, want none", got)
	}
	stopped := tb.CountedAtLeast("^ORDER#", 12)
	if r := stopped.Rows()[1]; r.Count != 40 || r.AtLeast != 12 {
		t.Errorf("a stopped count beside a finished one: count %d, at least %d", r.Count, r.AtLeast)
	}
	partial := NewEntityTable("S", false).Reset("CUST#1", false).Load(loadedKeys([]string{"ORDER#1"}), "#", true)
	partial = partial.CountedAtLeast("^ORDER#", 12).CountedAtLeast("^ORDER#", 7)
	if r := partial.Rows()[0]; r.Count != -1 || r.AtLeast != 12 {
		t.Errorf("two stopped counts: count %d, at least %d; want the higher, 12", r.Count, r.AtLeast)
	}
	if r := partial.Reset("CUST#1", false).Load(loadedKeys([]string{"ORDER#1"}), "#", true).Reset("CUST#1", false).Rows()[0]; r.AtLeast != 12 {
		t.Errorf("a stopped count above what the reads loaded: at least %d, want 12", r.AtLeast)
	}
	if r := partial.Counted("^ORDER#", 20).Rows()[0]; r.Count != 20 {
		t.Errorf("a finished count after a stopped one: count %d", r.Count)
	}
	bare := NewEntityTable("S", false).Reset("DOC#1", false).Load(loadedKeys([]string{"METADATA", "METADATA#v1"}), "#", true).Counted("=METADATA", 5)
	if r := bare.Rows()[0]; r.Count != 5 {
		t.Errorf("a bare label's type counted by the bare label's id: %s", rowText(r))
	}
	if r := bare.Load(loadedKeys([]string{"METADATA#v2"}), "#", true).Rows()[0]; r.Count != -1 {
		t.Errorf("its BETWEEN's end moved: %s", rowText(r))
	}
}

// A skip-scan's groups join the types of their class; ends come in the
// walk's direction; a run of values joins the value type it overlaps, the
// digit-led one, or is a type of its own; a type's ends take in the
// group's.
func TestEntityTableDiscover(t *testing.T) {
	tb := NewEntityTable("S", false).Reset("CUST#1", false).
		Load(loadedKeys([]string{"2024-01-05", "ORDER#2", "ORDER#3"}), "#", true)
	found := tb.Discover([]Group{
		{Entity: "PROFILE", Prefix: "PROFILE", Kind: KindLabel, Exact: true, Count: -1, First: "PROFILE", Last: "PROFILE"},
		{Entity: "ORDER", Prefix: "ORDER#", Kind: KindLabel, Count: -1, First: "ORDER#9", Last: "ORDER#1"},
		{Entity: "date", Kind: KindValue, Count: -1, First: "2024-01-09", Last: "2024-01-01"},
	}, true, "#", "#")
	wantRows(t, found,
		`date "" value [found] 2024-01-01..2024-01-09 loaded 1 bytes 0 atLeast 0 count -1 aliases [] libs []`,
		`ORDER "ORDER#" label [found] ORDER#1..ORDER#9 loaded 2 bytes 0 atLeast 0 count -1 aliases [] libs []`,
		`PROFILE "PROFILE" label [exact,found] PROFILE..PROFILE loaded 0 bytes 0 atLeast 0 count -1 aliases [] libs []`)
	if !found.Listed() || tb.Listed() {
		t.Errorf("listed: %v after Discover, %v before", found.Listed(), tb.Listed())
	}
	// Groups inside what is known leave the ends as they are.
	inside := tb.Discover([]Group{{Entity: "ORDER", Prefix: "ORDER#", Kind: KindLabel, First: "ORDER#2", Last: "ORDER#2"},
		{Entity: "date", Kind: KindValue, First: "2024-01-05", Last: "2024-01-05"}}, false, "#", "#")
	if got := rowTexts(inside); !strings.Contains(got[1], "ORDER#2..ORDER#3") || !strings.Contains(got[0], "2024-01-05..2024-01-05") {
		t.Errorf("rows %q", got)
	}
	// A run of digit-led values joins the digit-led type though the two do
	// not overlap; a run of letter-led ids beside it is a type of its own.
	runs := tb.Discover([]Group{
		{Entity: "date", Kind: KindValue, First: "2024-03-01", Last: "2024-03-02"},
		{Entity: "hex id", Kind: KindValue, First: "a5f0c3d2e1b4", Last: "f966c0d2e1b4"},
	}, false, "#", "#")
	wantRows(t, runs,
		`date "" value [found] 2024-01-05..2024-03-02 loaded 1 bytes 0 atLeast 0 count -1 aliases [] libs []`,
		`ORDER "ORDER#" label [] ORDER#2..ORDER#3 loaded 2 bytes 0 atLeast 0 count -1 aliases [] libs []`,
		`hex id "" value [found] a5f0c3d2e1b4..f966c0d2e1b4 loaded 0 bytes 0 atLeast 0 count -1 aliases [] libs []`)
	// A second run of ids that overlaps the first joins it.
	runs = runs.Discover([]Group{{Entity: "hex id", Kind: KindValue, First: "b000c3d2e1b4", Last: "ff00c0d2e1b4"}}, false, "#", "#")
	if got := rowTexts(runs)[2]; !strings.HasPrefix(got, `hex id "" value [found] a5f0c3d2e1b4..ff00c0d2e1b4`) {
		t.Errorf("overlapping runs: %s", got)
	}
	// A digit-led key loaded after a run of ids is the digit-led type's,
	// not the run's.
	ids := NewEntityTable("S", false).Reset("TAGS#1", false).
		Discover([]Group{{Entity: "hex id", Kind: KindValue, First: "a5f0c3d2e1b4", Last: "f966c0d2e1b4"}}, false, "#", "#").
		Load(loadedKeys([]string{"18c1a2b3c4d5", "PROFILE"}), "#", true)
	wantRows(t, ids,
		`hex id "" value [] 18c1a2b3c4d5..18c1a2b3c4d5 loaded 1 bytes 0 atLeast 0 count -1 aliases [] libs []`,
		`PROFILE "PROFILE" label [exact] PROFILE..PROFILE loaded 1 bytes 0 atLeast 0 count -1 aliases [] libs []`,
		`hex id (2) "" value [found] a5f0c3d2e1b4..f966c0d2e1b4 loaded 0 bytes 0 atLeast 0 count -1 aliases [] libs []`)
	// Numbers: one value type, whatever the ends.
	nums := NewEntityTable("N", false).Reset("P#1", false).Load(loadedKeys([]string{"5", "10"}), "", true).
		Discover([]Group{{Entity: NumberEntity, Kind: KindValue, First: "1", Last: "100"}}, false, "", "")
	wantRows(t, nums, `NUMBER "" value [found] 1..100 loaded 2 bytes 0 atLeast 0 count -1 aliases [] libs []`)
	nums = nums.Discover([]Group{{Entity: NumberEntity, Kind: KindValue, First: "2", Last: "9"}}, false, "", "")
	wantRows(t, nums, `NUMBER "" value [found] 1..100 loaded 2 bytes 0 atLeast 0 count -1 aliases [] libs []`)
}

// A group walked under another delimiter than the table's is classified
// again from its first key; when that gives another prefix, its last key
// is of another range and is left out.
func TestEntityTableDiscoverUnderAnotherDelimiter(t *testing.T) {
	g := Group{Entity: "a", Prefix: "a::", Kind: KindLabel, First: "a::1", Last: "a::9"}
	tb := NewEntityTable("S", false).Reset("P#1", false).Discover([]Group{g}, false, "::", "#")
	wantRows(t, tb, `a "a:" label [found] a::1.. loaded 0 bytes 0 atLeast 0 count -1 aliases [] libs []`)
	tb = NewEntityTable("S", false).Reset("P#1", false).Discover([]Group{g}, false, "::", "::")
	wantRows(t, tb, `a "a::" label [found] a::1..a::9 loaded 0 bytes 0 atLeast 0 count -1 aliases [] libs []`)
	// Under the same prefix the range is the group's.
	same := Group{Entity: "ORDER", Prefix: "ORDER#", Kind: KindLabel, First: "ORDER#1", Last: "ORDER#9"}
	tb = NewEntityTable("S", false).Reset("P#1", false).Discover([]Group{same}, false, "|", "#")
	wantRows(t, tb, `ORDER "ORDER#" label [found] ORDER#1..ORDER#9 loaded 0 bytes 0 atLeast 0 count -1 aliases [] libs []`)
}

// Arrive lists one type at a time, not yet every type; a group marked Bare
// keeps its row Bare; a walk's group from the end comes turned.
func TestEntityTableArrive(t *testing.T) {
	tb := NewEntityTable("S", false).Reset("DOC#1", false).
		Arrive(Group{Entity: "METADATA", Prefix: "METADATA#", Kind: KindLabel, Bare: true, First: "METADATA#v2", Last: "METADATA"}, true, "#")
	wantRows(t, tb, `METADATA "METADATA#" label [bare,found] METADATA..METADATA#v2 loaded 0 bytes 0 atLeast 0 count -1 aliases [] libs []`)
	if tb.Listed() {
		t.Error("Arrive listed every type")
	}
	tb = tb.Arrive(Group{Entity: "METADATA", Prefix: "METADATA#", Kind: KindLabel, First: "METADATA#v1", Last: "METADATA#v1"}, false, "#")
	if got := rowTexts(tb)[0]; !strings.Contains(got, "[bare,found]") {
		t.Errorf("an unmarked group of a Bare type: %s", got)
	}
}

// The rows of string keys: in sort-key order (a bare label first among
// equal first keys, so it folds), value runs named by their ends but a
// list of names, ids inside a run of ids joined to it, and nothing else.
func TestEntityTableMakesRows(t *testing.T) {
	// A skip-scan's bare-folded type and the bare key loaded have one first key.
	tb := NewEntityTable("S", false).Reset("DOC#1", false).
		Discover([]Group{{Entity: "METADATA", Prefix: "METADATA#", Kind: KindLabel, Bare: true, First: "METADATA", Last: "METADATA#v2"}}, false, "#", "#").
		Load(loadedKeys([]string{"METADATA"}), "#", true)
	wantRows(t, tb, `METADATA "METADATA#" label [bare,found] METADATA..METADATA#v2 loaded 1 bytes 0 atLeast 0 count -1 aliases ["=METADATA"] libs []`)
	// The same, found the other way round.
	tb = NewEntityTable("S", false).Reset("DOC#1", false).Load(loadedKeys([]string{"METADATA"}), "#", true).
		Discover([]Group{{Entity: "METADATA", Prefix: "METADATA#", Kind: KindLabel, Bare: true, First: "METADATA", Last: "METADATA#v2"}}, false, "#", "#")
	wantRows(t, tb, `METADATA "METADATA#" label [bare,found] METADATA..METADATA#v2 loaded 1 bytes 0 atLeast 0 count -1 aliases ["=METADATA"] libs []`)

	// A list of names keeps its name; other runs are named by their ends.
	names := NewEntityTable("S", false).Reset("MEET#1#ATTENDEES", false).
		Discover([]Group{{Entity: ShapeName, Kind: KindValue, First: "arvinje", Last: "zoe"}}, false, "#", "#")
	wantRows(t, names, `name "" value [found] arvinje..zoe loaded 0 bytes 0 atLeast 0 count -1 aliases [] libs []`)
	named := NewEntityTable("S", false).Reset("P#1", false).
		Discover([]Group{{Entity: "anything", Kind: KindValue, First: "2024-01-01", Last: "2024-02-01"}}, false, "#", "#")
	wantRows(t, named, `date "" value [found] 2024-01-01..2024-02-01 loaded 0 bytes 0 atLeast 0 count -1 aliases [] libs []`)

	// Ids loaded inside a run of ids are its; a name, a label and an id
	// past its end are not.
	run := Group{Entity: "hex id", Kind: KindValue, First: "a5f0c3d2e1b4", Last: "c0ffee123456"}
	tb = NewEntityTable("S", false).Reset("P#1", false).Discover([]Group{run}, false, "#", "#").
		Load([]LoadedKey{{SK: "a5f0c3d2e1b4", Size: 2}, {SK: "b1b2c3d4e5f6", Size: 3}, {SK: "b#1"}, {SK: "bob"}, {SK: "c0ffee123456", Size: 4}, {SK: "f966c0d2e1b4"}}, "#", true)
	wantRows(t, tb,
		`hex id "" value [found] a5f0c3d2e1b4..c0ffee123456 loaded 3 bytes 9 atLeast 0 count -1 aliases ["=a5f0c3d2e1b4" "=b1b2c3d4e5f6" "=c0ffee123456"] libs []`,
		`b "b#" label [] b#1..b#1 loaded 1 bytes 0 atLeast 0 count -1 aliases [] libs []`,
		`bob "bob" label [exact] bob..bob loaded 1 bytes 0 atLeast 0 count -1 aliases [] libs []`,
		`hex id (2) "" value [] f966c0d2e1b4..f966c0d2e1b4 loaded 1 bytes 0 atLeast 0 count -1 aliases ["=f966c0d2e1b4"] libs []`)
	// The found types are kept as found: the fold is made afresh.
	if n := len(tb.asFound); n != 7 {
		t.Errorf("%d types as found, want 7", n)
	}
	if got := rowTexts(tb.Arrive(Group{Entity: "c", Prefix: "c#", Kind: KindLabel, First: "c#1", Last: "c#1"}, false, "#")); len(got) != 5 {
		t.Errorf("rows %q", got)
	}
}

// Two runs of ids with a type between them are two types, whichever
// arrives first: the rows are made from what was found, not from the
// rows before.
func TestEntityTableRunsApartStayApart(t *testing.T) {
	digits := Group{Entity: "hex id", Kind: KindValue, First: "18c1a2b3c4d5", Last: "6a1b2c3d4e5f"}
	profile := Group{Entity: "PROFILE", Prefix: "PROFILE", Kind: KindLabel, Exact: true, First: "PROFILE", Last: "PROFILE"}
	letters := Group{Entity: "hex id", Kind: KindValue, First: "a5f0c3d2e1b4", Last: "f966e1d2c3b4"}
	want := []string{"hex id", "PROFILE", "hex id (2)"}
	for _, order := range [][]Group{{digits, letters, profile}, {letters, digits, profile}, {profile, letters, digits}} {
		tb := NewEntityTable("S", true).Reset("BUCKET#8", false)
		for _, g := range order {
			tb = tb.Arrive(g, false, "#")
		}
		var got []string
		for _, r := range tb.Rows() {
			got = append(got, r.Entity)
		}
		if !slices.Equal(got, want) {
			t.Errorf("arrived %v: rows %q, want %q", order, got, want)
		}
	}
}

// A type is found by its own id or the id of a type folded into it.
func TestEntityTableFind(t *testing.T) {
	tb := NewEntityTable("S", false).Reset("DOC#1", false).
		Load(loadedKeys([]string{"METADATA", "METADATA#v1", "a5f0c3d2e1b4", "b5f0c3d2e1b4"}), "#", false)
	for id, want := range map[string]int{"^METADATA#": 0, "=METADATA": 0, "\x00value": 1, "=b5f0c3d2e1b4": 1, "=PROFILE": -1} {
		if got := tb.Find(id); got != want {
			t.Errorf("Find(%q) = %d, want %d", id, got, want)
		}
	}
}

// Names name the keys as the rows do.
func TestEntityTableNames(t *testing.T) {
	tb := NewEntityTable("S", false).Reset("CUST#1", false).Load(loadedKeys([]string{"ORDER#1", "ORDER|2"}), "#", false)
	n := tb.Names("#")
	if a, b := n.Name("ORDER|9"), n.Name("ORDER#9"); a != "ORDER|" || b != "ORDER" {
		t.Errorf("names %q and %q", a, b)
	}
	if got := n.Groups(); !reflect.DeepEqual(got, tb.Groups()) {
		t.Errorf("the names' groups %+v, the table's %+v", got, tb.Groups())
	}
}

// Folding rows folds what they hold: a bare label's items, bytes, lower
// bound and library entities join its prefix type, which finds its key;
// the run of ids holds its ids' and finds theirs, and was found by a
// skip-scan when any of them was.
func TestFoldRowsHoldWhatTheyFold(t *testing.T) {
	e := TypeRow{Group: Group{Entity: "METADATA", Prefix: "METADATA", Kind: KindLabel, Exact: true, Count: 2, First: "METADATA", Last: "METADATA"},
		Loaded: 1, Bytes: 10, AtLeast: 1, Libraries: []LibraryEntity{lib("meta"), lib("doc")}, Discovered: true}
	p := TypeRow{Group: Group{Entity: "METADATA", Prefix: "METADATA#", Kind: KindLabel, Count: 3, First: "METADATA#v1", Last: "METADATA#v2"},
		Loaded: 2, Bytes: 20, AtLeast: 4, Libraries: []LibraryEntity{lib("doc")}, Aliases: []string{"x"}}
	got := foldBareRows([]TypeRow{e, p})
	want := `METADATA "METADATA#" label [bare] METADATA..METADATA#v2 loaded 3 bytes 30 atLeast 5 count 5 aliases ["x" "=METADATA"] libs ["doc" "meta"]`
	if len(got) != 1 || rowText(got[0]) != want {
		t.Errorf("folded forward %q\nwant %s", rowTextsOf(got), want)
	}
	got = foldBareRows([]TypeRow{p, e}) // newest first
	want = `METADATA "METADATA#" label [bare] METADATA#v1..METADATA loaded 3 bytes 30 atLeast 5 count 5 aliases ["x" "=METADATA"] libs ["doc" "meta"]`
	if len(got) != 1 || rowText(got[0]) != want {
		t.Errorf("folded backward %q\nwant %s", rowTextsOf(got), want)
	}

	a := TypeRow{Group: Group{Entity: "a5f0c3d2e1b4", Prefix: "a5f0c3d2e1b4", Kind: KindLabel, Exact: true, Count: 1, First: "a5f0c3d2e1b4", Last: "a5f0c3d2e1b4"},
		Loaded: 1, Bytes: 5, AtLeast: 2, Libraries: []LibraryEntity{lib("tag")}}
	v := TypeRow{Group: Group{Entity: ShapeHex, Kind: KindValue, Count: 4, First: "b000c3d2e1b4", Last: "c000c3d2e1b4"},
		Loaded: 3, Bytes: 7, AtLeast: 1, Libraries: []LibraryEntity{lib("tag"), lib("x")}, Aliases: []string{"=b000c3d2e1b4"}, Discovered: true}
	got = foldIDRows("TAGS#1", []TypeRow{a, v})
	want = `hex id "" value [found] a5f0c3d2e1b4..c000c3d2e1b4 loaded 4 bytes 12 atLeast 3 count 5 aliases ["=a5f0c3d2e1b4" "=b000c3d2e1b4"] libs ["tag" "x"]`
	if len(got) != 1 || rowText(got[0]) != want {
		t.Errorf("run %q\nwant %s", rowTextsOf(got), want)
	}
	v.Discovered, a.Discovered = false, true
	if got = foldIDRows("TAGS#1", []TypeRow{a, v}); len(got) != 1 || !got[0].Discovered {
		t.Errorf("a run whose first id a skip-scan found: %q", rowTextsOf(got))
	}
	a.Count = -1
	if got = foldIDRows("TAGS#1", []TypeRow{v, a}); len(got) != 1 || got[0].Count != -1 {
		t.Errorf("a run of a counted and an uncounted id: %q", rowTextsOf(got))
	}
}

func rowTextsOf(rows []TypeRow) []string {
	var out []string
	for _, r := range rows {
		out = append(out, rowText(r))
	}
	return out
}

// A prefix type whose run a skip-scan found ending at its bare label holds
// it, from either end.
func TestFoldRowsMarksTheBareEnd(t *testing.T) {
	for _, g := range []Group{
		{Entity: "METADATA", Prefix: "METADATA#", Kind: KindLabel, First: "METADATA", Last: "METADATA#v2"},
		{Entity: "METADATA", Prefix: "METADATA#", Kind: KindLabel, First: "METADATA#v2", Last: "METADATA"},
	} {
		if got := foldRows("DOC#1", rowsOf([]Group{g})); !got[0].Bare {
			t.Errorf("%+v: not Bare", got[0])
		}
	}
	if got := foldRows("DOC#1", rowsOf([]Group{{Entity: "METADATA", Prefix: "METADATA#", Kind: KindLabel, First: "METADATA#v1", Last: "METADATA#v2"}})); got[0].Bare {
		t.Errorf("%+v: Bare", got[0])
	}
}

// A run of ids UniqueNames numbered is still a run of its shape: an id
// loaded next to it joins it.
func TestFoldIDsContinuesANumberedRun(t *testing.T) {
	got := FoldIDs("TAGS#1", []Group{
		{Entity: "hex id (2)", Kind: KindValue, Count: 2, First: "a5f0c3d2e1b4", Last: "c0ffee123456"},
		{Entity: "f966c0d2e1b4", Prefix: "f966c0d2e1b4", Kind: KindLabel, Exact: true, Count: 1, First: "f966c0d2e1b4", Last: "f966c0d2e1b4"},
	})
	want := []Group{{Entity: ShapeHex, Kind: KindValue, Count: 3, First: "a5f0c3d2e1b4", Last: "f966c0d2e1b4"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FoldIDs\n got %+v\nwant %+v", got, want)
	}
}

// Library entities are added once each, in order, and the slices the
// caller holds are not changed.
func TestAddLibraries(t *testing.T) {
	have := make([]LibraryEntity, 1, 4)
	have[0] = lib("a")
	got := addLibraries(have, []LibraryEntity{lib("b"), lib("a"), lib("b"), lib("c")})
	if want := []LibraryEntity{lib("a"), lib("b"), lib("c")}; !reflect.DeepEqual(got, want) {
		t.Errorf("addLibraries = %v, want %v", got, want)
	}
	if have[:2][1] != (LibraryEntity{}) {
		t.Errorf("addLibraries wrote into the caller's array: %v", have[:2])
	}
}

// A skip-scan reads a prefix type's ends only where a jump lands: walking
// forward its first key, walking back its last, the other "". The table
// keeps what it knows: a type found from the end only is placed by its
// last key, an unread end takes no key from the groups (nor "" over a key
// known), and the last key loaded of the type the first page stopped
// inside is no end of it once the walk says so; a type the loaded items
// went past keeps its loaded last key.
func TestEntityTableEndsAWalkDidNotRead(t *testing.T) {
	page := NewEntityTable("S", true).Reset("CUST#1", false).
		Load(loadedKeys([]string{"EVENT#1", "EVENT#2", "INVOICE#1", "INVOICE#2"}), "#", true)
	walked := page.Discover([]Group{
		{Entity: "EVENT", Prefix: "EVENT#", Kind: KindLabel, Count: -1, First: "EVENT#1", Last: "EVENT#2"},
		{Entity: "INVOICE", Prefix: "INVOICE#", Kind: KindLabel, Count: -1, First: "INVOICE#1", Last: ""},
		{Entity: "ORDER", Prefix: "ORDER#", Kind: KindLabel, Count: -1, First: "ORDER#1", Last: ""},
		{Entity: "SHIP", Prefix: "SHIP#", Kind: KindLabel, Count: -1, First: "", Last: "SHIP#9"},
		{Entity: "PROFILE", Prefix: "PROFILE", Kind: KindLabel, Exact: true, Count: -1, First: "PROFILE", Last: "PROFILE"},
	}, false, "#", "#")
	wantRows(t, walked,
		`EVENT "EVENT#" label [found] EVENT#1..EVENT#2 loaded 2 bytes 0 atLeast 0 count -1 aliases [] libs []`,
		`INVOICE "INVOICE#" label [found] INVOICE#1.. loaded 2 bytes 0 atLeast 0 count -1 aliases [] libs []`,
		`ORDER "ORDER#" label [found] ORDER#1.. loaded 0 bytes 0 atLeast 0 count -1 aliases [] libs []`,
		`PROFILE "PROFILE" label [exact,found] PROFILE..PROFILE loaded 0 bytes 0 atLeast 0 count -1 aliases [] libs []`,
		`SHIP "SHIP#" label [found] ..SHIP#9 loaded 0 bytes 0 atLeast 0 count -1 aliases [] libs []`)
	// In reverse the first page stops inside a type at its lowest key.
	back := NewEntityTable("S", true).Reset("CUST#1", true).
		Load(loadedKeys([]string{"ORDER#9", "ORDER#8"}), "#", true).
		Discover([]Group{{Entity: "ORDER", Prefix: "ORDER#", Kind: KindLabel, Count: -1, First: "ORDER#9", Last: ""}}, true, "#", "#")
	wantRows(t, back, `ORDER "ORDER#" label [found] ..ORDER#9 loaded 2 bytes 0 atLeast 0 count -1 aliases [] libs []`)
	// A later group that read the end fills it in.
	filled := walked.Arrive(Group{Entity: "ORDER", Prefix: "ORDER#", Kind: KindLabel, Count: -1, First: "ORDER#1", Last: "ORDER#7"}, false, "#")
	if got := rowTexts(filled)[2]; !strings.Contains(got, "ORDER#1..ORDER#7") {
		t.Errorf("the end read later: %s", got)
	}
}
