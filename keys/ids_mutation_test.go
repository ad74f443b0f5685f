package keys

import (
	"reflect"
	"testing"
)

// The partition names a list only in a segment after a delimiter, of three
// letters or more: "TEAM#ids" does, "attendees" (no delimiter) and "T#us"
// do not; a key made of one leading delimiter and a list name does.
func TestListOfNamesPartitionEdges(t *testing.T) {
	names := []string{"arvinje", "johndoe"}
	for pk, want := range map[string]bool{
		"TEAM#ids":   true,
		"#ATTENDEES": true,
		"attendees":  false,
		"T#us":       false,
		"T#fans":     true,
		"T#likelist": true,
		"T#fans2":    false,
	} {
		if got := ListOfNames(pk, names); got != want {
			t.Errorf("ListOfNames(%q, %q) = %v, want %v", pk, names, got, want)
		}
	}
}

// A list of names folded on an earlier page (a value group "name") and the
// exact names of a later page are still one list: one run over them all.
func TestIDRunsContinuesAFoldedListOfNames(t *testing.T) {
	groups := []Group{
		{Entity: ShapeName, Kind: KindValue, Count: 2, First: "arvinje", Last: "johndoe"},
		{Entity: "zoe", Prefix: "zoe", Kind: KindLabel, Exact: true, Count: 1, First: "zoe", Last: "zoe"},
	}
	got := idRuns("MEET#1#ATTENDEES", groups)
	if want := []idRun{{from: 0, to: 2, name: ShapeName}}; !reflect.DeepEqual(got, want) {
		t.Errorf("idRuns = %+v, want %+v", got, want)
	}
}

// Two neighbouring ids of one shape are already a run.
func TestFoldIDsTwoIDs(t *testing.T) {
	got := FoldIDs("TAGS#1", GroupSortKeys([]string{"a5f0c3d2e1b4", "f966c0d2e1b4"}, "S", "#"))
	want := []Group{{Entity: ShapeHex, Kind: KindValue, Count: 2, First: "a5f0c3d2e1b4", Last: "f966c0d2e1b4"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FoldIDs = %+v, want %+v", got, want)
	}
}

// Two neighbours of one shape fold whatever their kind: the value group of
// a digit-led hex id and the exact type of a letter-led one.
func TestFoldIDsValueGroupAndExactID(t *testing.T) {
	got := FoldIDs("TAGS#1", GroupSortKeys([]string{"5a0f3c2d1e4b", "a5f0c3d2e1b4"}, "S", "#"))
	want := []Group{{Entity: ShapeHex, Kind: KindValue, Count: 2, First: "5a0f3c2d1e4b", Last: "a5f0c3d2e1b4"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FoldIDs = %+v, want %+v", got, want)
	}
}
