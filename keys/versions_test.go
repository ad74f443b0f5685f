package keys

import (
	"fmt"
	"strings"
	"testing"
)

// Version rows (DynamoDB's version-history pattern: v0 the current item,
// v1 … vN its history; also v0_… / v1_… before a name) are one value
// group, not a type per version, wherever a partition's keys are named:
// grouped from a page (GroupSortKeys and FoldIDs, as a discovery folds),
// one key at a time (NamesOfKeys) and in the layout. A letter stem and a
// number is an id whatever the stem; a label that ends in a number before
// its delimiter (WARNING1#…) stays a prefix type, and a label with more
// after its number (v1beta) an exact one.
func TestVersionRowsAreOneGroup(t *testing.T) {
	cases := []struct {
		name string
		keys []string
		want string // the groups: entity [first..last], in order
	}{
		{"v0 … vN beside a profile", []string{"PROFILE", "v0", "v1", "v10", "v2"},
			"PROFILE[PROFILE..PROFILE] version[v0..v2]"},
		{"v0_ and v1_ prefixes", []string{"v0_Audit", "v0_Config", "v1_Audit", "v2_Audit"},
			"version[v0_Audit..v2_Audit]"},
		{"upper-case V", []string{"META", "V1", "V2"},
			"META[META..META] version[V1..V2]"},
		{"a lone current version", []string{"details", "v0"},
			"details[details..details] version[v0..v0]"},
		{"numbered ids of another stem", []string{"Complaint0987", "Complaint1321"},
			"numbered id[Complaint0987..Complaint1321]"},
		{"labels ending in a number stay prefix types", []string{"NORMAL#2020-04-11T06:00:00", "WARNING2#2020-04-11T09:25:00", "WARNING3#2020-04-11T05:50:00"},
			"NORMAL[NORMAL#2020-04-11T06:00:00..NORMAL#2020-04-11T06:00:00] WARNING2[WARNING2#2020-04-11T09:25:00..WARNING2#2020-04-11T09:25:00] WARNING3[WARNING3#2020-04-11T05:50:00..WARNING3#2020-04-11T05:50:00]"},
		{"a version of a prefix type stays under its label", []string{"METADATA", "METADATA#v1", "METADATA#v2"},
			"METADATA[METADATA..METADATA#v2]"},
		{"more after the number: a label", []string{"v1beta", "v2beta"},
			"v1beta[v1beta..v1beta] v2beta[v2beta..v2beta]"},
	}
	for _, tc := range cases {
		groups := FoldIDs("ITEM#1", GroupSortKeys(tc.keys, "S", InferDelimiter(tc.keys)))
		got := ""
		for i, g := range groups {
			if i > 0 {
				got += " "
			}
			got += fmt.Sprintf("%s[%s..%s]", g.Entity, g.First, g.Last)
		}
		if got != tc.want {
			t.Errorf("%s: groups %s, want %s", tc.name, got, tc.want)
		}
		names := NamesOfKeys("ITEM#1", tc.keys, "S", InferDelimiter(tc.keys))
		for _, k := range tc.keys {
			g, ok := names.Group(k)
			if !ok || names.Name(k) != g.Entity {
				t.Errorf("%s: key %s is named %q, in group %+v (%v)", tc.name, k, names.Name(k), g, ok)
			}
		}
	}
	// Named one key at a time (a stream's record), a version between the
	// ends seen is that group's.
	if n := NamesOfKeys("ITEM#1", []string{"PROFILE", "v0", "v9"}, "S", "#").Name("v7"); n != ShapeVersion {
		t.Errorf("v7 beside v0 and v9 is named %q, want %q", n, ShapeVersion)
	}
	if n := NamesOfKeys("ITEM#1", []string{"PROFILE"}, "S", "#").Name("v3_Audit"); n != ShapeVersion {
		t.Errorf("v3_Audit alone is named %q, want %q", n, ShapeVersion)
	}
}

// The entity table learns the version shape wherever its types come from:
// a page of version rows loaded, then a skip-scan's folded groups (the
// UI's types pane: its first page, the walk's groups as groups folds
// them), then the next page, whose versions lie inside the run the walk
// reported; or the walk first. Each way the partition is PROFILE and one
// version group v0 … v3_2024, holding every version loaded, as groups
// and NamesOfKeys name it.
func TestEntityTableVersionRowsAreOneType(t *testing.T) {
	found := FoldIDs("ITEM#1", []Group{
		{Entity: "PROFILE", Prefix: "PROFILE", Kind: KindLabel, Exact: true, Count: -1, First: "PROFILE", Last: "PROFILE"},
		{Entity: "v0", Prefix: "v0", Kind: KindLabel, Exact: true, Count: -1, First: "v0", Last: "v0"},
		{Entity: "v1", Prefix: "v1", Kind: KindLabel, Exact: true, Count: -1, First: "v1", Last: "v1"},
		{Entity: "v2", Prefix: "v2", Kind: KindLabel, Exact: true, Count: -1, First: "v2", Last: "v2"},
		{Entity: "v3_2024", Prefix: "v3_2024", Kind: KindLabel, Exact: true, Count: -1, First: "v3_2024", Last: "v3_2024"},
	})
	if len(found) != 2 || found[1].Entity != ShapeVersion || found[1].First != "v0" || found[1].Last != "v3_2024" {
		t.Fatalf("the walk's groups fold to %+v, want PROFILE and version v0..v3_2024", found)
	}
	page := func(sks ...string) []LoadedKey {
		out := make([]LoadedKey, len(sks))
		for i, k := range sks {
			out[i] = LoadedKey{SK: k, Size: 10}
		}
		return out
	}
	want := []string{
		`PROFILE "PROFILE" label [exact,found] PROFILE..PROFILE loaded 1 bytes 10 atLeast 0 count -1 aliases [] libs []`,
		`version "" value [found] v0..v3_2024 loaded 4 bytes 40 atLeast 0 count -1 aliases ["=v0" "=v1" "=v2" "=v3_2024"] libs []`,
	}
	pagesFirst := NewEntityTable("S", true).Reset("ITEM#1", false).Load(page("PROFILE", "v0", "v1"), "#", true).
		Discover(found, false, "#", "#").Load(page("v2", "v3_2024"), "#", false)
	wantRows(t, pagesFirst, want...)
	walkFirst := NewEntityTable("S", true).Reset("ITEM#1", false)
	for _, g := range found {
		walkFirst = walkFirst.Arrive(g, false, "#")
	}
	walkFirst = walkFirst.Load(page("PROFILE", "v0", "v1"), "#", true).Load(page("v2", "v3_2024"), "#", false)
	got := rowTexts(walkFirst)
	if len(got) != 2 || !strings.HasPrefix(got[1], `version "" value`) || !strings.Contains(got[1], "v0..v3_2024 loaded 4") {
		t.Errorf("the walk's groups, then the pages:\n%s", strings.Join(got, "\n"))
	}
	names := NamesOfKeys("ITEM#1", []string{"PROFILE", "v0", "v1", "v2", "v3_2024"}, "S", "#")
	for _, k := range []string{"v0", "v1", "v3_2024"} {
		if n := names.Name(k); n != ShapeVersion {
			t.Errorf("%s is named %q, want %q", k, n, ShapeVersion)
		}
	}
}
