package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"dynascope/dynamo"
	"dynascope/keys"
)

// The types pane names a partition's types, and the live pane each key,
// as keys' groups do (keys.NamesOfKeys): the same rows with the same names
// and ends, over the hard shapes of issue 29, read forward or backward.
func TestTypesPaneNamesAsGroupsDo(t *testing.T) {
	parts := []struct {
		pk  string
		sks []string
	}{
		{"CUST#42", []string{"ORDER#2023-01-02#a1", "ORDER#2023-02-03#b2", "ORDER|2023-05-01|18c1", "order/2023/7", "PROFILE"}},
		{"TENANT#1", []string{"METADATA", "METADATA#v1", "METADATA#v2", "TYPES", "TYPES#v2"}},
		{"BUCKET#7", []string{"18c1a2b3c4d5", "6a1b2c3d4e5f", "a5f0c3d2e1b4", "f966e1d2c3b4"}},
		{"USER#1", []string{"PROFILE", "a5f0c3d2e1b4"}},
		{"MEET#1#ATTENDEES", []string{"arvinje", "john.doe", "mary_k"}},
		{"DEVICE#9", []string{"2019-09-24T010101", "2019-09-25T020202", "META"}},
		{"USER#2", []string{"pass::0007", "pass::0008", "profile"}},
		{"CUST#43", []string{"#META#x", "2024-03-01T10:00:00Z", "META#y", "ORDER", "ORDER#1", "ORDER|2"}},
	}
	for _, p := range parts {
		for _, reverse := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s reverse %v", p.pk, reverse), func(t *testing.T) {
				checkPaneNames(t, p.pk, p.sks, reverse)
			})
		}
	}
}

// checkPaneNames loads partition pk's sort keys sks (distinct, valid
// UTF-8) into a types pane, forward or backward, as one whole-partition
// page, and holds its rows and the live pane's names to keys' groups.
func checkPaneNames(t *testing.T, pk string, sks []string, reverse bool) {
	t.Helper()
	sks = slices.Clone(sks)
	slices.Sort(sks)
	sks = slices.Compact(sks)
	delim := keys.InferDelimiter(sks)
	names := keys.NamesOfKeys(pk, sks, "S", delim)
	if reverse {
		slices.Reverse(sks)
	}
	items := make([]dynamo.Item, len(sks))
	for i, k := range sks {
		items[i] = dynamo.Item{"PK": s(pk), "SK": s(k)}
	}
	g := newGroupsPane("S", true)
	g = g.reset(pk, items, "SK", delim, false, reverse)
	var got, want []string
	for _, r := range g.types() {
		got = append(got, r.Entity+" "+r.First+".."+r.Last)
	}
	for _, gr := range names.Groups() {
		want = append(want, gr.Entity+" "+gr.First+".."+gr.Last)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("partition %q, keys %q: rows\n%q\nwant the groups'\n%q", pk, sks, got, want)
	}
	for _, k := range sks {
		if a, b := g.keyNames(delim).Name(k), names.Name(k); a != b {
			t.Fatalf("partition %q, keys %q: the live pane names %q %q, the groups %q", pk, sks, k, a, b)
		}
	}
}

// FuzzTypesPaneNames: for any partition (its sort keys one a line), the
// types pane lists the groups' types under the groups' names, and the live
// pane names each key as they do.
func FuzzTypesPaneNames(f *testing.F) {
	f.Add("ORDER#1\nORDER|2\norder/3\nPROFILE", "CUST#42", false)
	f.Add("METADATA\nMETADATA#v1\nTYPES\nTYPES#v2", "T#1", true)
	f.Add("18c1a2b3c4d5\na5f0c3d2e1b4\nf966e1d2c3b4\nPROFILE", "B#7", false)
	f.Add("arvinje\njohn.doe", "MEET#1#ATTENDEES", true)
	f.Add("2019-09-24T010101\n20190925T010101\nMETA", "D#9", false)
	f.Add("pass::0007\npass:x\n#META#x\nMETA#y", "U#2", true)
	f.Fuzz(func(t *testing.T, text, pk string, reverse bool) {
		if len(text) > 2000 {
			return
		}
		var sks []string
		for _, k := range strings.Split(text, "\n") {
			if k != "" && utf8.ValidString(k) { // a key attribute is never empty
				sks = append(sks, k)
			}
		}
		checkPaneNames(t, pk, sks, reverse)
	})
}

// A partition whose key has no sort key (issue 37.12): the types pane
// shows its items as one type, named as the layout names the partition
// key's family and as `groups` reports it (keys.WholeItemEntity), for
// every shape of partition key; before, the pane showed no type while
// `groups` said "item" and the layout "user". The item is named the same
// whether it was loaded or found by the skip-scan's one request.
func TestTypesPaneNamesAPartitionKeyOnlyItemAsTheLayout(t *testing.T) {
	for _, c := range []struct{ pk, pkType, want string }{
		{"user42", "S", "user"}, {"CUST#42", "S", "CUST"}, {"#META#x", "S", "META"},
		{"ORDER", "S", "ORDER"}, {"a5f0c3d2-e1b4-4c1e-9f66-0123456789ab", "S", keys.NoPrefixEntity},
		{"1700000000", "N", keys.NumberEntity}, {"AAEC", "B", keys.BinaryEntity},
	} {
		checkWholeItemName(t, c.pk, c.pkType, c.want)
	}
}

// FuzzWholeItemNames: for any partition key, the types pane, the layout
// and `groups` name a partition-key-only item alike.
func FuzzWholeItemNames(f *testing.F) {
	f.Add("user42")
	f.Add("CUST#42")
	f.Add("$taskapp#team_purple")
	f.Add("pass::7")
	f.Fuzz(func(t *testing.T, pk string) {
		if pk == "" || len(pk) > 2048 || !utf8.ValidString(pk) {
			return // not a key DynamoDB takes
		}
		checkWholeItemName(t, pk, "S", "")
	})
}

// checkWholeItemName holds the pane's one row of partition pk (loaded, and
// found by a skip-scan) to the layout's family entity of a sample holding
// the item, and to want when given.
func checkWholeItemName(t *testing.T, pk, pkType, want string) {
	t.Helper()
	lay := keys.AnalyzeLayout(keys.LayoutInput{PKType: pkType, Items: []keys.KeyItem{{PK: pk}}})
	if len(lay.Families) != 1 || len(lay.Families[0].Types) != 1 {
		t.Fatalf("layout of %q: %+v", pk, lay.Families)
	}
	fam := lay.Families[0]
	if want != "" && fam.Entity != want {
		t.Errorf("layout names %q's family %q; want %q", pk, fam.Entity, want)
	}
	if fam.Types[0].Entity != fam.Entity {
		t.Errorf("layout names %q's family %q but its type %q", pk, fam.Entity, fam.Types[0].Entity)
	}
	if g := keys.WholeItemEntity(pk, pkType); g != fam.Entity {
		t.Errorf("groups names %q %q, the layout %q", pk, g, fam.Entity)
	}
	loaded := newWholeItemPane(pkType, true).reset(pk, []dynamo.Item{{"id": s(pk)}}, "", "", false, false)
	found := newWholeItemPane(pkType, true).discovered(dynamo.Discovery{Groups: []keys.Group{{Entity: keys.WholeItemEntity(pk, pkType), Kind: keys.KindValue, Count: 1}}}, "")
	for how, g := range map[string]groupsPane{"loaded": loaded, "found": found} {
		rows := g.types()
		if len(rows) != 1 || rows[0].Entity != fam.Entity {
			t.Errorf("%s %q: the types pane's rows %+v; want one %q", how, pk, rows, fam.Entity)
		} else if n, ok := g.tbl.Count(0); !ok || n != 1 {
			t.Errorf("%s %q: the row counts %d (%v); want 1, a table's key names one item", how, pk, n, ok)
		}
	}
}
