package keys

import (
	"reflect"
	"testing"
)

// A page (newest first) that brings the bare key of a type a skip-scan
// found ending at its bare label (so marked Bare) joins that type: two
// types must never share the name METADATA.
func TestEntityTableBareKeyJoinsItsFoldedType(t *testing.T) {
	folded := Group{Entity: "METADATA", Prefix: "METADATA#", Kind: KindLabel, Bare: true, Count: -1, First: "METADATA#v2", Last: "METADATA"}
	tb := NewEntityTable("S", true).Reset("DOC#1", true).Discover([]Group{folded}, true, "#", "#").
		Load(loadedKeys([]string{"METADATA#v2", "METADATA#v1", "METADATA"}), "#", false)
	want := []Group{{Entity: "METADATA", Prefix: "METADATA#", Kind: KindLabel, Bare: true, Count: 3, First: "METADATA#v2", Last: "METADATA"}}
	if got := tb.Groups(); !reflect.DeepEqual(got, want) {
		t.Errorf("groups\n got %+v\nwant %+v", got, want)
	}
}

// A count of 0 is known: folded with another it is that other count, and
// only an unknown count (-1) on either side makes the sum unknown.
func TestFoldBareCountsZeroAsKnown(t *testing.T) {
	for _, tc := range []struct{ bare, prefix, want int }{
		{0, 3, 3}, {3, 0, 3}, {0, 0, 0}, {-1, 3, -1}, {3, -1, -1}, {1, 2, 3},
	} {
		got := FoldBare([]Group{
			{Entity: "METADATA", Prefix: "METADATA", Kind: KindLabel, Exact: true, Count: tc.bare, First: "METADATA", Last: "METADATA"},
			{Entity: "METADATA", Prefix: "METADATA#", Kind: KindLabel, Count: tc.prefix, First: "METADATA#v1", Last: "METADATA#v2"},
		})
		if len(got) != 1 || got[0].Count != tc.want {
			t.Errorf("counts %d and %d: %+v, want one group of %d", tc.bare, tc.prefix, got, tc.want)
		}
	}
}
