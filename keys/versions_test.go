package keys

import (
	"fmt"
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
