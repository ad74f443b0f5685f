package keys

import (
	"reflect"
	"testing"
)

// A partition key whose service is empty ("$$user_1#…": the entity's "$"
// right after the leading one) is no ElectroDB key.
func TestParseElectroDBPKEmptyServiceBeforeEntity(t *testing.T) {
	if got, ok := ParseElectroDBPK("$$user_1#id_5"); ok {
		t.Errorf("ParseElectroDBPK(\"$$user_1#id_5\") = %+v, want not ElectroDB's", got)
	}
}

// An item whose library entity has a version (__edb_v__ "1") but whose sort
// key is pre-1.0 ("$user#…", no version in the key) is still read by its
// entity, not by a facet that looks like entity_version.
func TestParseElectroDBSKPreOneKeyUnderAVersionedHint(t *testing.T) {
	hint := LibraryEntity{Library: ElectroDB, Entity: "user", Version: "1"}
	got, ok := ParseElectroDBSK("$user#userid_42", hint)
	want := ElectroDBKey{Entity: "user", Facets: []Facet{{"userid", "42"}}, Prefix: "$user#userid_"}
	if !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("ParseElectroDBSK = %+v %v, want %+v", got, ok, want)
	}
}
