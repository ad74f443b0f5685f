package keys

import (
	"reflect"
	"slices"
	"testing"
)

func TestGroupSortKeys(t *testing.T) {
	tests := []struct {
		name    string
		keys    []string
		keyType string
		delim   string
		want    []Group
	}{
		{
			name: "no keys", keyType: "S", delim: "#",
			want: []Group{},
		},
		{
			name:    "customer partition, forward",
			keys:    []string{"ORDER#2025-01-09#A11", "ORDER#2025-03-01#A17", "PROFILE"},
			keyType: "S", delim: "#",
			want: []Group{
				{Entity: "ORDER", Prefix: "ORDER#", Kind: KindLabel, Count: 2, First: "ORDER#2025-01-09#A11", Last: "ORDER#2025-03-01#A17"},
				{Entity: "PROFILE", Prefix: "PROFILE", Kind: KindLabel, Exact: true, Count: 1, First: "PROFILE", Last: "PROFILE"},
			},
		},
		{
			// The second ORDER is named by its prefix: no two groups share a name.
			name: "a migration's three delimiters in one partition, read per key",
			keys: []string{"ORDER#2023-01-02#a1", "ORDER#2023-02-03#b2", "ORDER|2023-05-01|18c1", "ORDER|2023-05-02|19d2",
				"ORDER|2023-05-03|20e3", "order/2023/7", "order/2023/8"},
			keyType: "S", delim: "#",
			want: []Group{
				{Entity: "ORDER", Prefix: "ORDER#", Kind: KindLabel, Count: 2, First: "ORDER#2023-01-02#a1", Last: "ORDER#2023-02-03#b2"},
				{Entity: "ORDER|", Prefix: "ORDER|", Kind: KindLabel, Count: 3, First: "ORDER|2023-05-01|18c1", Last: "ORDER|2023-05-03|20e3"},
				{Entity: "order", Prefix: "order/", Kind: KindLabel, Count: 2, First: "order/2023/7", Last: "order/2023/8"},
			},
		},
		{
			name:    "customer partition, newest first",
			keys:    []string{"PROFILE", "ORDER#2025-03-01#A17", "ORDER#2025-02-14#A15", "ORDER#2025-01-09#A11", "ITEM#A11#1"},
			keyType: "S", delim: "#",
			want: []Group{
				{Entity: "PROFILE", Prefix: "PROFILE", Kind: KindLabel, Exact: true, Count: 1, First: "PROFILE", Last: "PROFILE"},
				{Entity: "ORDER", Prefix: "ORDER#", Kind: KindLabel, Count: 3, First: "ORDER#2025-03-01#A17", Last: "ORDER#2025-01-09#A11"},
				{Entity: "ITEM", Prefix: "ITEM#", Kind: KindLabel, Count: 1, First: "ITEM#A11#1", Last: "ITEM#A11#1"},
			},
		},
		{
			name:    "prefixes that are prefixes of each other; the bare label folds into its prefix type",
			keys:    []string{"ORDER", "ORDER#", "ORDER#1", "ORDERS#1", "ORDERS#2"},
			keyType: "S", delim: "#",
			want: []Group{
				{Entity: "ORDER", Prefix: "ORDER#", Kind: KindLabel, Bare: true, Count: 3, First: "ORDER", Last: "ORDER#1"},
				{Entity: "ORDERS", Prefix: "ORDERS#", Kind: KindLabel, Count: 2, First: "ORDERS#1", Last: "ORDERS#2"},
			},
		},
		{
			name:    "a type seen again later joins its first group",
			keys:    []string{"A#1", "B#1", "A#2"},
			keyType: "S", delim: "#",
			want: []Group{
				{Entity: "A", Prefix: "A#", Kind: KindLabel, Count: 2, First: "A#1", Last: "A#2"},
				{Entity: "B", Prefix: "B#", Kind: KindLabel, Count: 1, First: "B#1", Last: "B#1"},
			},
		},
		{
			name:    "repeated sort keys, as on an index",
			keys:    []string{"PROFILE", "PROFILE", "X#1", "X#1"},
			keyType: "S", delim: "#",
			want: []Group{
				{Entity: "PROFILE", Prefix: "PROFILE", Kind: KindLabel, Exact: true, Count: 2, First: "PROFILE", Last: "PROFILE"},
				{Entity: "X", Prefix: "X#", Kind: KindLabel, Count: 2, First: "X#1", Last: "X#1"},
			},
		},
		{
			name:    "empty delimiter makes each value a type",
			keys:    []string{"A#1", "A#2", "A#2"},
			keyType: "S", delim: "",
			want: []Group{
				{Entity: "A#1", Prefix: "A#1", Kind: KindLabel, Exact: true, Count: 1, First: "A#1", Last: "A#1"},
				{Entity: "A#2", Prefix: "A#2", Kind: KindLabel, Exact: true, Count: 2, First: "A#2", Last: "A#2"},
			},
		},
		{
			name:    "multi-byte text and empty entity",
			keys:    []string{"#root", "日本#1", "日本#2"},
			keyType: "S", delim: "#",
			want: []Group{
				{Entity: "root", Prefix: "#root", Kind: KindLabel, Exact: true, Count: 1, First: "#root", Last: "#root"},
				{Entity: "日本", Prefix: "日本#", Kind: KindLabel, Count: 2, First: "日本#1", Last: "日本#2"},
			},
		},
		{
			name:    "numbers form one group",
			keys:    []string{"-3", "1.5", "1700000000000"},
			keyType: "N", delim: "#",
			want: []Group{{Entity: NumberEntity, Kind: KindValue, Count: 3, First: "-3", Last: "1700000000000"}},
		},
		{
			name:    "numbers in reverse",
			keys:    []string{"10", "2"},
			keyType: "N", delim: "#",
			want: []Group{{Entity: NumberEntity, Kind: KindValue, Count: 2, First: "10", Last: "2"}},
		},
		{
			name:    "binary forms one group, even with delimiter-like base64",
			keys:    []string{"AAE=", "Iw==", "/w=="},
			keyType: "B", delim: "/",
			want: []Group{{Entity: BinaryEntity, Kind: KindValue, Count: 3, First: "AAE=", Last: "/w=="}},
		},
		{
			name:    "timestamps are one value group beside a label",
			keys:    []string{"2023-04-01T12:00:00.001Z", "2023-04-01T13:00:00.001Z", "2023-04-01T14:00:00.001Z", "meta"},
			keyType: "S", delim: "#",
			want: []Group{
				{Entity: ShapeTimestamp, Kind: KindValue, Count: 3, First: "2023-04-01T12:00:00.001Z", Last: "2023-04-01T14:00:00.001Z"},
				{Entity: "meta", Prefix: "meta", Kind: KindLabel, Exact: true, Count: 1, First: "meta", Last: "meta"},
			},
		},
		{
			name:    "a value group of two shapes is named value",
			keys:    []string{"12", "2024-03-01"},
			keyType: "S", delim: "#",
			want: []Group{{Entity: ShapeValue, Kind: KindValue, Count: 2, First: "12", Last: "2024-03-01"}},
		},
		{
			name:    "leading delimiter names the type after it",
			keys:    []string{"#METADATA#player001", "ACTIVITY#001", "ACTIVITY#002"},
			keyType: "S", delim: "#",
			want: []Group{
				{Entity: "METADATA", Prefix: "#METADATA#", Kind: KindLabel, Count: 1, First: "#METADATA#player001", Last: "#METADATA#player001"},
				{Entity: "ACTIVITY", Prefix: "ACTIVITY#", Kind: KindLabel, Count: 2, First: "ACTIVITY#001", Last: "ACTIVITY#002"},
			},
		},
		{
			name: "no numbers", keyType: "N", delim: "#",
			want: []Group{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := GroupSortKeys(tt.keys, tt.keyType, tt.delim)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("GroupSortKeys(%q, %q, %q)\n got %+v\nwant %+v", tt.keys, tt.keyType, tt.delim, got, tt.want)
			}
		})
	}
}

// An entity table loaded a page at a time holds what the pages hold
// together: a type going on across pages, a bare label folded into its
// prefix type from a later page (either direction), numbers as one group.
func TestEntityTablePages(t *testing.T) {
	tests := []struct {
		name    string
		keyType string
		reverse bool
		pages   [][]string
		want    []Group
	}{
		{"no page", "S", false, nil, []Group{}},
		{"an empty page", "S", false, [][]string{{}}, []Group{}},
		{
			"type continues across pages", "S", false,
			[][]string{{"ORDER#1", "ORDER#2"}, {"ORDER#3", "ORDER#5", "PROFILE"}},
			[]Group{
				{Entity: "ORDER", Prefix: "ORDER#", Kind: KindLabel, Count: 4, First: "ORDER#1", Last: "ORDER#5"},
				{Entity: "PROFILE", Prefix: "PROFILE", Kind: KindLabel, Exact: true, Count: 1, First: "PROFILE", Last: "PROFILE"},
			},
		},
		{
			"the bare label on a later page (newest first) folds into its prefix type", "S", true,
			[][]string{{"PROFILE#1"}, {"PROFILE"}},
			[]Group{{Entity: "PROFILE", Prefix: "PROFILE#", Kind: KindLabel, Bare: true, Count: 2, First: "PROFILE#1", Last: "PROFILE"}},
		},
		{
			"one label, two groups: METADATA and METADATA#v1 are one type", "S", false,
			[][]string{{"METADATA"}, {"METADATA#v1"}},
			[]Group{{Entity: "METADATA", Prefix: "METADATA#", Kind: KindLabel, Bare: true, Count: 2, First: "METADATA", Last: "METADATA#v1"}},
		},
		{
			"numbers", "N", false,
			[][]string{{"1", "2"}, {"3"}},
			[]Group{{Entity: NumberEntity, Kind: KindValue, Count: 3, First: "1", Last: "3"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := NewEntityTable(tt.keyType, false).Reset("CUST#1", tt.reverse)
			for i, p := range tt.pages {
				before := tb
				beforeRows := slices.Clone(tb.Rows())
				tb = tb.Load(loadedKeys(p), "#", i < len(tt.pages)-1)
				if !reflect.DeepEqual(before.Rows(), beforeRows) {
					t.Errorf("Load changed the table it was called on: %+v, was %+v", before.Rows(), beforeRows)
				}
			}
			if got := tb.Groups(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("groups\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestEntityTablePagesMatchGroupingAllKeys(t *testing.T) {
	all := []string{"ADDR#home", "ITEM#A11#1", "ITEM#A11#2", "ORDER#2025-01-09#A11", "ORDER#2025-02-14#A15", "ORDER#2025-03-01#A17", "PROFILE"}
	want := GroupSortKeys(all, "S", "#")
	for cut := 0; cut <= len(all); cut++ {
		got := NewEntityTable("S", false).Reset("CUST#1", false).
			Load(loadedKeys(all[:cut]), "#", true).Load(loadedKeys(all[cut:]), "#", false).Groups()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("pages split at %d\n got %+v\nwant %+v", cut, got, want)
		}
	}
}
