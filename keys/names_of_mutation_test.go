package keys

import (
	"fmt"
	"reflect"
	"testing"
)

// Group finds the group whose run holds a key only for a key of the run's
// kind and shape: a label key inside a list of names, a name or a key of
// another shape inside a run of hex ids, and a digit-led key past the ends
// of a run of letter-led ids are none of theirs; an upper-case hex id is
// one of its run's.
func TestNamesGroupHoldsOnlyItsShape(t *testing.T) {
	list := NamesOfKeys("TEAM#fans", []string{"alpha", "beta", "zeta"}, "S", "_")
	hex := NamesOfKeys("CUST#1", []string{"a5f0c3d2e1b4", "f966c0d2e1b4", "ORDER#1"}, "S", "#")
	upper := NamesOfKeys("CUST#1", []string{"A5F0C3D2E1B4", "F966C0D2E1B4", "ORDER#1"}, "S", "#")
	for _, tc := range []struct {
		names Names
		sk    string
		group string // "" for none
		name  string
	}{
		{list, "beta", ShapeName, ShapeName},
		{list, "order_1", "", "order"},
		{hex, "c5f0c3d2e1b4", ShapeHex, ShapeHex},
		{hex, "b", "", "b"},
		{hex, "bcdef", "", "bcdef"},
		{hex, "5", "", ShapeNumber},
		{hex, "ORDER#2", "ORDER", "ORDER"},
		{upper, "C5F0C3D2E1B4", ShapeHex, ShapeHex},
	} {
		g, ok := tc.names.Group(tc.sk)
		if got := map[bool]string{true: g.Entity}[ok]; got != tc.group {
			t.Errorf("%+v: Group(%q) = %q (%v), want %q", tc.names.Groups(), tc.sk, g.Entity, ok, tc.group)
		}
		if got := tc.names.Name(tc.sk); got != tc.name {
			t.Errorf("%+v: Name(%q) = %q, want %q", tc.names.Groups(), tc.sk, got, tc.name)
		}
	}
}

// A key of a type no group holds is named as its type alone would be: a
// number or binary key by its DynamoDB type, an exact key by itself, a
// letter-led id by its shape.
func TestNamesOfAKeyNoGroupHolds(t *testing.T) {
	orders := NamesOfKeys("CUST#1", []string{"ORDER#1", "ORDER#2"}, "S", "#")
	for _, tc := range []struct {
		names Names
		sk    string
		want  string
	}{
		{NamesOf("CUST#1", nil, "N", ""), "3", NumberEntity},
		{NamesOf("CUST#1", nil, "B", ""), "AQ==", BinaryEntity},
		{orders, "METADATA", "METADATA"},
		{orders, "A5F0C3D2E1B4", ShapeHex},
		{orders, "17", ShapeNumber},
	} {
		if got := tc.names.Name(tc.sk); got != tc.want {
			t.Errorf("%+v (%s): Name(%q) = %q, want %q", tc.names.Groups(), tc.names.keyType, tc.sk, got, tc.want)
		}
	}
}

// NamesOfKeys folds ids for string keys whatever the type is called ("S",
// or "" as a table without its type known), never numbers or binary.
func TestNamesOfKeysFoldsStringKeys(t *testing.T) {
	ids := []string{"a5f0c3d2e1b4", "f966c0d2e1b4"}
	hexRun := []Group{{Entity: ShapeHex, Kind: KindValue, Count: 2, First: ids[0], Last: ids[1]}}
	for _, keyType := range []string{"S", ""} {
		if got := NamesOfKeys("TAGS#1", ids, keyType, "#").Groups(); !reflect.DeepEqual(got, hexRun) {
			t.Errorf("type %q: %+v, want %+v", keyType, got, hexRun)
		}
	}
	want := []Group{{Entity: NumberEntity, Kind: KindValue, Count: 2, First: "1", Last: "2"}}
	if got := NamesOfKeys("TAGS#1", []string{"2", "1"}, "N", "").Groups(); !reflect.DeepEqual(got, want) {
		t.Errorf("numbers: %+v, want %+v", got, want)
	}
}

// A partition remembers at most SeenKeys keys: the one past them is named
// but not kept.
func TestSeenNamesKeepsSeenKeysAPartition(t *testing.T) {
	s := NewSeenNames("S", "#")
	for i := range SeenKeys + 1 {
		s.Name("CUST#1", fmt.Sprintf("ORDER#%05d", i))
	}
	if got := len(s.keys["CUST#1"]); got != SeenKeys {
		t.Errorf("kept %d keys, want %d", got, SeenKeys)
	}
	if got := s.Name("CUST#1", fmt.Sprintf("ORDER#%05d", SeenKeys+1)); got != "ORDER" {
		t.Errorf("a key past the bound: %q, want ORDER", got)
	}
}

// A further key of a value run names the run again from its new ends: a
// digit past two epoch seconds makes their run a "value", however the
// names were cached.
func TestSeenNamesValueRunRenamed(t *testing.T) {
	s := NewSeenNames("S", "#")
	for _, k := range []string{"1700000000", "1700000001"} {
		if got := s.Name("CUST#1", k); got != ShapeEpochSecond {
			t.Errorf("%q: %q, want %q", k, got, ShapeEpochSecond)
		}
	}
	if got := s.Name("CUST#1", "5"); got != ShapeValue {
		t.Errorf("a digit past the run: %q, want %q", got, ShapeValue)
	}
	if got := s.Name("CUST#1", "1700000000"); got != ShapeValue {
		t.Errorf("the run's first key again: %q, want %q", got, ShapeValue)
	}
}
