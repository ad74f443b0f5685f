package keys

import (
	"fmt"
	"slices"
	"testing"
)

// The largest partitions listed: DefaultLargest unless told, never more
// than there are.
func TestAnalyzeLayoutLargestEdges(t *testing.T) {
	var items []KeyItem
	for p := 1; p <= 12; p++ {
		for i := 0; i < p; i++ {
			items = append(items, KeyItem{PK: fmt.Sprintf("CUST#%d", p), SK: fmt.Sprintf("ORDER#%d", i)})
		}
	}
	for largest, want := range map[int]int{0: DefaultLargest, -1: DefaultLargest, 1: 1, 12: 12, 20: 12} {
		lay := AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: items, Largest: largest})
		if len(lay.Largest) != want {
			t.Errorf("Largest %d: %d partitions listed, want %d", largest, len(lay.Largest), want)
			continue
		}
		if lay.Largest[0].PK != "CUST#12" || lay.Largest[0].Items != 12 {
			t.Errorf("Largest %d: first %+v, want CUST#12 with 12 items", largest, lay.Largest[0])
		}
	}
}

// Up to maxExactFamilies partition keys without a delimiter are families
// of their own; one more and they are one catch-all family.
func TestAnalyzeLayoutExactFamilyEdge(t *testing.T) {
	layout := func(n int) Layout {
		var items []KeyItem
		for i := 0; i < n; i++ {
			items = append(items, KeyItem{PK: fmt.Sprintf("config%c", 'a'+i), SK: "X"})
		}
		return AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: items})
	}
	if lay := layout(maxExactFamilies); len(lay.Families) != maxExactFamilies {
		t.Errorf("%d exact keys: %d families, want %d", maxExactFamilies, len(lay.Families), maxExactFamilies)
	}
	if lay := layout(maxExactFamilies + 1); len(lay.Families) != 1 || lay.Families[0].Pattern != "*" {
		t.Errorf("%d exact keys: %+v, want one catch-all family", maxExactFamilies+1, lay.Families)
	}
}

// Up to maxExactTypes sort keys without a delimiter are types of their
// own; one more and they are one type.
func TestAnalyzeLayoutExactTypeEdge(t *testing.T) {
	layout := func(n int) Layout {
		var items []KeyItem
		for i := 0; i < n; i++ {
			items = append(items, KeyItem{PK: "CUST#1", SK: fmt.Sprintf("SETTING%c", 'A'+i)})
		}
		return AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: items})
	}
	if lay := layout(maxExactTypes); len(lay.Families) != 1 || len(lay.Families[0].Types) != maxExactTypes {
		t.Errorf("%d exact sort keys: %+v, want %d types", maxExactTypes, lay.Families, maxExactTypes)
	}
	if lay := layout(maxExactTypes + 1); len(lay.Families) != 1 || len(lay.Families[0].Types) != 1 || lay.Families[0].Types[0].Items != maxExactTypes+1 {
		t.Errorf("%d exact sort keys: %+v, want one type", maxExactTypes+1, lay.Families)
	}
}

// Families come most items first, ties by pattern; library entities are
// counted once an item.
func TestAnalyzeLayoutFamilyOrderAndLibraries(t *testing.T) {
	lib := LibraryEntity{Library: "ElectroDB", Entity: "order"}
	items := []KeyItem{
		{PK: "B#1", SK: "ORDER#1", Library: lib}, {PK: "B#2", SK: "ORDER#2", Library: lib},
		{PK: "A#1", SK: "ORDER#1"}, {PK: "A#2", SK: "ORDER#2"},
		{PK: "C#1", SK: "ORDER#1"}, {PK: "C#2", SK: "ORDER#1"}, {PK: "C#3", SK: "ORDER#1"},
	}
	lay := AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: items})
	var got []string
	for _, f := range lay.Families {
		got = append(got, fmt.Sprintf("%s %d", f.Pattern, f.Items))
	}
	if fmt.Sprint(got) != "[C#* 3 A#* 2 B#* 2]" {
		t.Errorf("families %v", got)
	}
	for _, f := range lay.Families {
		if f.Pattern == "B#*" && (len(f.Libraries) != 1 || f.Libraries[0].Items != 2) {
			t.Errorf("B#* libraries %+v, want ElectroDB order on 2 items", f.Libraries)
		}
	}
}

// A family's delimiter is the one most of its labelled sort keys use:
// exact keys and values do not vote.
func TestAnalyzeLayoutFamilyDelimiter(t *testing.T) {
	for _, tc := range []struct {
		sks  []string
		want string
	}{
		{[]string{"ORDER#1", "ORDER#2"}, "#"},
		{[]string{"user:1", "user:2"}, ":"},
		{[]string{"PROFILE", "SETTINGS"}, ""},
		{[]string{"2024-01-01T10:00:00Z", "2024-01-02T10:00:00Z"}, ""},
	} {
		var items []KeyItem
		for _, sk := range tc.sks {
			items = append(items, KeyItem{PK: "CUST#1", SK: sk})
		}
		lay := AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: items})
		if len(lay.Families) != 1 || lay.Families[0].Delimiter != tc.want {
			t.Errorf("%q: %+v, want delimiter %q", tc.sks, lay.Families, tc.want)
		}
	}
	// Each partition's keys vote under their own delimiter.
	items := []KeyItem{{PK: "CUST#1", SK: "a/1"}, {PK: "CUST#1", SK: "a/2"}, {PK: "CUST#1", SK: "PROFILE"}, {PK: "CUST#2", SK: "b#1"}}
	if lay := AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: items}); lay.Families[0].Delimiter != "/" {
		t.Errorf("two partitions: delimiter %q, want /", lay.Families[0].Delimiter)
	}
}

// Number and binary sort keys are values; string types come in sort-key
// order of their first key.
func TestAnalyzeLayoutTypeKindsAndOrder(t *testing.T) {
	for typ, kind := range map[string]Kind{"N": KindValue, "B": KindValue, "S": KindLabel} {
		lay := AnalyzeLayout(LayoutInput{PKType: "S", SKType: typ, Items: []KeyItem{{PK: "CUST#1", SK: "ORDER#1"}}})
		if len(lay.Families) != 1 || len(lay.Families[0].Types) != 1 || lay.Families[0].Types[0].Kind != kind {
			t.Errorf("sort key type %s: %+v, want one type of kind %s", typ, lay.Families, kind)
		}
	}
	items := []KeyItem{{PK: "CUST#1", SK: "ORDER#1"}, {PK: "CUST#1", SK: "INVOICE#1"}, {PK: "CUST#1", SK: "BILL#1"}, {PK: "CUST#2", SK: "ORDER#0"}}
	lay := AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: items})
	var got []string
	for _, ty := range lay.Families[0].Types {
		got = append(got, fmt.Sprintf("%s %s..%s in %d", ty.Entity, ty.First, ty.Last, ty.Partitions))
	}
	if fmt.Sprint(got) != "[BILL BILL#1..BILL#1 in 1 INVOICE INVOICE#1..INVOICE#1 in 1 ORDER ORDER#0..ORDER#1 in 2]" {
		t.Errorf("types %v", got)
	}
}

// Ties go to the smaller key or name, so a layout is the same however the
// sample was ordered: the largest partition, the largest list, libraries.
func TestAnalyzeLayoutTies(t *testing.T) {
	a := LibraryEntity{Library: "ElectroDB", Entity: "a"}
	b := LibraryEntity{Library: "ElectroDB", Entity: "b"}
	items := []KeyItem{
		{PK: "CUST#2", SK: "ORDER#1", Library: b}, {PK: "CUST#2", SK: "ORDER#2", Library: a},
		{PK: "CUST#1", SK: "ORDER#1", Library: b}, {PK: "CUST#1", SK: "ORDER#2", Library: b},
		{PK: "CUST#3", SK: "ORDER#1", Library: a},
	}
	lay := AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: items})
	f := lay.Families[0]
	if f.Largest.PK != "CUST#1" || f.Largest.Items != 2 {
		t.Errorf("largest %+v, want CUST#1 (2 items, before CUST#2)", f.Largest)
	}
	if fmt.Sprint(lay.Largest) != "[{CUST#1 CUST#* 2} {CUST#2 CUST#* 2} {CUST#3 CUST#* 1}]" {
		t.Errorf("largest partitions %v", lay.Largest)
	}
	if len(f.Libraries) != 2 || f.Libraries[0].LibraryEntity != b || f.Libraries[0].Items != 3 || f.Libraries[1].Items != 2 {
		t.Errorf("libraries %+v, want b on 3 then a on 2", f.Libraries)
	}
	// Equal counts: by name.
	if got := tally(map[LibraryEntity]int{b: 1, a: 1}); got[0].LibraryEntity != a {
		t.Errorf("tally of a tie: %+v", got)
	}
}

// An ElectroDB partition key names its family by its entity when it has
// one, else by its service; a key without facets is one exact partition.
func TestPartitionFamilyElectroDB(t *testing.T) {
	for pk, want := range map[string]familyID{
		"$taskapp#team_purple":         {pattern: "$taskapp#team_*", entity: "$taskapp", prefix: "$taskapp#team_"},
		"$taskapp$user_1#user_t.walch": {pattern: "$taskapp$user_1#user_*", entity: "user", prefix: "$taskapp$user_1#user_"},
		"$taskapp":                     {pattern: "$taskapp", entity: "$taskapp", prefix: "$taskapp", exact: true},
	} {
		if got := partitionFamily(pk, "S"); got != want {
			t.Errorf("partitionFamily(%q) = %+v, want %+v", pk, got, want)
		}
	}
}

// A label and a number name the label without its separator; a name with
// spaces is one exact partition, one with a digit inside is not a name.
func TestPartitionFamilyLabelsAndNames(t *testing.T) {
	for pk, want := range map[string]familyID{
		"user-42":       {pattern: "user-*", entity: "user", prefix: "user-"},
		"user42":        {pattern: "user*", entity: "user", prefix: "user"},
		"Global config": {pattern: "Global config", entity: "Global config", prefix: "Global config", exact: true},
		"Ann-Marie S.":  {pattern: "Ann-Marie S.", entity: "Ann-Marie S.", prefix: "Ann-Marie S.", exact: true},
		"abc1x":         catchAll("S"),
		"42":            catchAll("S"),
		"---":           catchAll("S"),
	} {
		if got := partitionFamily(pk, "S"); got != want {
			t.Errorf("partitionFamily(%q) = %+v, want %+v", pk, got, want)
		}
	}
}

// A key led by an id (the SocialNetwork model's meetings,
// "wLnnMe1XFvAleTXmDPSCv#ATTENDEES") belongs to the family of what follows
// the id, with no prefix: one family for every meeting's attendee list, not
// a family per meeting. A label's number ("user42#…", "WARNING1#…") is no
// id: its family stays the label's. A digit-led id never reaches this: a
// key whose first segment is not a label has no structural delimiter
// (keyDelimiter) and joins "*".
func TestPartitionFamilyIDLed(t *testing.T) {
	for pk, want := range map[string]familyID{
		"wLnnMe1XFvAleTXmDPSCv#ATTENDEES":              {pattern: "*#ATTENDEES", entity: "ATTENDEES"},
		"d3f2b8c9-1d4a-4b6f-9e2a-7c5d1e0f4a3b#ORDER#7": {pattern: "*#ORDER#*", entity: "ORDER"},
		"wLnnMe1XFvAleTXmDPSCv#2024-01-01":             {pattern: "*#*", entity: NoPrefixEntity},
		"user42#PROFILE":                               {pattern: "user42#*", entity: "user42", prefix: "user42#"},
		"WARNING1#2020-04-24T14:40":                    {pattern: "WARNING1#*", entity: "WARNING1", prefix: "WARNING1#"},
		"wLnnMe1XFvAleTXmDPSCv":                        catchAll("S"),
	} {
		if got := partitionFamily(pk, "S"); got != want {
			t.Errorf("partitionFamily(%q) = %+v, want %+v", pk, got, want)
		}
	}
}

// Types come in the order of their first key, not of their prefix: the
// value group's prefix is "" but its first key sorts after "#META".
func TestAnalyzeLayoutTypesByFirstKeyNotPrefix(t *testing.T) {
	items := []KeyItem{{PK: "CUST#1", SK: "2024-01-01"}, {PK: "CUST#1", SK: "#META"}, {PK: "CUST#1", SK: "2024-02-01"}}
	lay := AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: items})
	var got []string
	for _, ty := range lay.Families[0].Types {
		got = append(got, ty.First)
	}
	if fmt.Sprint(got) != "[#META 2024-01-01]" {
		t.Errorf("types by first key %v, want [#META 2024-01-01]", got)
	}
}

// Two types of one family with the same first key ("a::b" read under "#"
// in one partition is "a:", under "::" in the other "a::") come by prefix.
func TestAnalyzeLayoutTypesOfOneFirstKeyByPrefix(t *testing.T) {
	items := []KeyItem{{PK: "CUST#1", SK: "a::b"}, {PK: "CUST#1", SK: "c#1"}, {PK: "CUST#2", SK: "a::b"}}
	lay := AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: items})
	var got []string
	for _, ty := range lay.Families[0].Types {
		got = append(got, ty.First+" "+ty.Prefix)
	}
	if fmt.Sprint(got) != "[a::b a: a::b a:: c#1 c#]" {
		t.Errorf("types %q, want a: then a:: (both from a::b), then c#", got)
	}
}

// Digit-led value runs of one family are one type, whatever each
// partition's run is named ("number" in one, "epoch seconds" in another).
func TestAnalyzeLayoutDigitRunsAreOneType(t *testing.T) {
	in := LayoutInput{PKType: "S", SKType: "S", Items: []KeyItem{
		{PK: "C#1", SK: "10"}, {PK: "C#1", SK: "11"},
		{PK: "C#2", SK: "1700000000"}, {PK: "C#2", SK: "1700000001"},
	}}
	fams := AnalyzeLayout(in).Families
	if len(fams) != 1 {
		t.Fatalf("%d families, want 1", len(fams))
	}
	var got []string
	for _, ty := range fams[0].Types {
		got = append(got, ty.Entity+" "+ty.First+".."+ty.Last)
	}
	if want := []string{ShapeValue + " 10..1700000001"}; !slices.Equal(got, want) {
		t.Errorf("types %q, want %q", got, want)
	}
}
