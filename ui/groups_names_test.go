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
