package keys

import (
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// The shapes that gave two groups one name before UniqueNames, each named
// as a practitioner tells them apart.
func TestUniqueNames(t *testing.T) {
	cases := []struct {
		name string
		pk   string
		keys []string
		want []string // entity[prefix]
	}{
		{"a migration's delimiters: the partition's own keeps the name",
			"CUST#mig", []string{"ORDER#1", "ORDER#2", "ORDER/3", "ORDER|2023-05-01|18c1", "order/7"},
			[]string{"ORDER[ORDER#]", "ORDER/[ORDER/]", "ORDER|[ORDER|]", "order[order/]"}},
		{"without ORDER#, ORDER| keeps the name and ORDER/ gives way (| comes first in Delimiters)",
			"CUST#mig", []string{"ORDER/3", "ORDER|2023|1"},
			[]string{"ORDER/[ORDER/]", "ORDER[ORDER|]"}},
		{"a leading delimiter: #META# beside META#",
			"VIN#1", []string{"#META#x", "META#y"},
			[]string{"#META#[#META#]", "META[META#]"}},
		{"a bare label no neighbour folds: the exact key is named so",
			"DOC#1", []string{"TYPES", "TYPES!x", "TYPES#v2"},
			[]string{"TYPES (exact)[TYPES]", "TYPES!x[TYPES!x]", "TYPES[TYPES#]"}},
		{"an exact key behind a leading delimiter is named by its key",
			"DOC#1", []string{"#ROOT", "ROOT#1"},
			[]string{"#ROOT[#ROOT]", "ROOT[ROOT#]"}},
		{"two runs of one id shape are numbered",
			"TAGS#1", []string{"0a1b2c3d4e5f", "PROFILE", "a5f0c3d2e1b4", "c0ffee123456"},
			[]string{"hex id[]", "PROFILE[PROFILE]", "hex id (2)[]"}},
		{"a value group keeps its shape's name beside a key of that text",
			"S#1", []string{"2024-03-01T10:00:00Z", "timestamp"},
			[]string{"timestamp[]", "timestamp (exact)[timestamp]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := InferDelimiter(c.keys)
			var got []string
			for _, g := range FoldIDs(c.pk, GroupSortKeys(c.keys, "S", d)) {
				got = append(got, g.Entity+"["+g.Prefix+"]")
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("groups of %q (delimiter %q)\n got %q\nwant %q", c.keys, d, got, c.want)
			}
		})
	}
}

// checkUniqueNames checks that no two of a partition's groups share a name
// and that the names do not depend on the direction keys were read in.
func checkUniqueNames(t *testing.T, pk string, keys []string, delim string) {
	t.Helper()
	var sorted []string
	for _, k := range keys {
		if utf8.ValidString(k) {
			sorted = append(sorted, k)
		}
	}
	sort.Strings(sorted)
	sorted = slices.Compact(sorted)
	reversed := slices.Clone(sorted)
	slices.Reverse(reversed)
	names := func(gs []Group) map[string]string {
		seen := map[string]string{}
		for _, g := range gs {
			if other, ok := seen[g.Entity]; ok {
				t.Fatalf("groups of %q (delim %q): %q names both %q and %q", sorted, delim, g.Entity, other, g.Prefix+"/"+g.First)
			}
			seen[g.Entity] = g.Prefix + "/" + min(g.First, g.Last)
		}
		return seen
	}
	fwd := names(GroupSortKeys(sorted, "S", delim))
	rev := names(GroupSortKeys(reversed, "S", delim))
	if len(fwd) != len(rev) {
		t.Fatalf("groups of %q (delim %q): %v forward, %v backward", sorted, delim, fwd, rev)
	}
	for n, at := range fwd {
		if rev[n] != at {
			t.Fatalf("groups of %q (delim %q): %q is %s forward, %s backward", sorted, delim, n, at, rev[n])
		}
	}
	names(FoldIDs(pk, GroupSortKeys(sorted, "S", delim)))
	names(FoldIDs(pk, GroupSortKeys(reversed, "S", delim)))
	// The layout of the partition alone names its types uniquely too.
	var items []KeyItem
	for _, k := range sorted {
		items = append(items, KeyItem{PK: pk, SK: k})
	}
	for _, f := range AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: items}).Families {
		seen := map[string]bool{}
		for _, ty := range f.Types {
			if seen[ty.Entity] {
				t.Fatalf("layout of %q: two types named %q: %+v", sorted, ty.Entity, f.Types)
			}
			seen[ty.Entity] = true
		}
	}
}

// FuzzUniqueNames: no two groups of one partition share a name, whatever
// the keys, the delimiter or the direction of reading.
func FuzzUniqueNames(f *testing.F) {
	f.Add([]byte{2, 0xC0, 0, 24, 2, 24, 2, 0xC0, 24, 2, 3, 0xC0, 1}, "#", "CUST#1")
	f.Add([]byte{2, 0xC0, 0, 24, 2, 6, 1, 24, 2, 7, 1, 24, 4, 2, 0xC0}, "#", "CUST#mig")
	f.Add([]byte{4, 2, 0xC0, 0, 24, 2, 0xC0, 1, 24, 2}, "#", "VIN#1")
	f.Add([]byte{0xA0, 0xA1, 24, 0, 24, 0xA9}, "#", "TAGS#1")
	f.Fuzz(func(t *testing.T, data []byte, delim, pk string) {
		if !utf8.ValidString(delim) {
			return
		}
		checkUniqueNames(t, pk, fuzzKeys(data, delim), delim)
		checkUniqueNames(t, pk, fuzzKeys(data, delim), InferDelimiter(fuzzKeys(data, delim)))
	})
}

// The published models' partitions name their groups uniquely too (the
// names themselves are TestRealModels').
func TestUniqueNamesRawShapes(t *testing.T) {
	for _, keys := range []string{
		"ORDER#1\nORDER|2\norder/3\nORDER/4\nORDER::5\nORDER:6\nORDER__7\nORDER||8",
		"#META#1\nMETA#2\n#META\nMETA\n$META#3",
		"##\n#|\n#\n|#\n||",
		"a5f0c3d2e1b4\nb5f0c3d2e1b4\nADDRESS#1\nc0ffee123456\n0a1b2c3d4e5f",
	} {
		checkUniqueNames(t, "P#1", strings.Split(keys, "\n"), "#")
		checkUniqueNames(t, "P#1", strings.Split(keys, "\n"), InferDelimiter(strings.Split(keys, "\n")))
	}
}
