package keys

import (
	"reflect"
	"testing"
)

func TestDetectLibraryEntity(t *testing.T) {
	tests := []struct {
		name  string
		attrs map[string]string
		want  LibraryEntity
		ok    bool
	}{
		{"none", map[string]string{"name": "Ann"}, LibraryEntity{}, false},
		{"ElectroDB", map[string]string{"__edb_e__": "user", "__edb_v__": "1"},
			LibraryEntity{Library: ElectroDB, Attribute: "__edb_e__", Entity: "user", Version: "1"}, true},
		{"ElectroDB without version", map[string]string{"__edb_e__": "user"},
			LibraryEntity{Library: ElectroDB, Attribute: "__edb_e__", Entity: "user"}, true},
		{"toolbox", map[string]string{"_et": "Customer"},
			LibraryEntity{Library: DynamoDBToolbox, Attribute: "_et", Entity: "Customer"}, true},
		{"onetable", map[string]string{"_type": "Account"},
			LibraryEntity{Library: DynamoDBOneTable, Attribute: "_type", Entity: "Account"}, true},
		{"ElectroDB wins", map[string]string{"_type": "x", "_et": "y", "__edb_e__": "z"},
			LibraryEntity{Library: ElectroDB, Attribute: "__edb_e__", Entity: "z"}, true},
		{"empty value is absent", map[string]string{"_et": ""}, LibraryEntity{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := DetectLibraryEntity(tt.attrs)
			if got != tt.want || ok != tt.ok {
				t.Errorf("got %+v %v, want %+v %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestLibraryEntityNaming(t *testing.T) {
	order := LibraryEntity{Library: ElectroDB, Attribute: "__edb_e__", Entity: "order", Version: "1"}
	tests := []struct {
		lib    LibraryEntity
		key    string
		agrees bool
		label  string
	}{
		{order, "ORDER", true, "ORDER (ElectroDB: order v1)"},
		{order, "order", true, "order (ElectroDB: order v1)"},
		{order, "$order_1", true, "$order_1 (ElectroDB: order v1)"},
		{order, "ITEM", false, "ITEM (ElectroDB: order v1)"},
		{LibraryEntity{Library: DynamoDBToolbox, Entity: "OrderItem"}, "ORDER_ITEM", true, "ORDER_ITEM (dynamodb-toolbox: OrderItem)"},
		{LibraryEntity{Library: DynamoDBToolbox, Entity: "Customer"}, "CUST", false, "CUST (dynamodb-toolbox: Customer)"},
		{LibraryEntity{}, "PROFILE", true, "PROFILE"},
	}
	for _, tt := range tests {
		if got := tt.lib.Agrees(tt.key); got != tt.agrees {
			t.Errorf("%v.Agrees(%q) = %v", tt.lib, tt.key, got)
		}
		if got := EntityLabel(tt.key, tt.lib); got != tt.label {
			t.Errorf("EntityLabel(%q, %v) = %q, want %q", tt.key, tt.lib, got, tt.label)
		}
	}
}

func TestParseElectroDBPK(t *testing.T) {
	tests := []struct {
		pk       string
		ok       bool
		want     ElectroDBKey
		template string
	}{
		{"$taskapp#team_purple", true, ElectroDBKey{Service: "taskapp", Facets: []Facet{{"team", "purple"}}, Prefix: "$taskapp#team_"}, "$taskapp#team_*"},
		{"$service#prop3_hij#prop1_a_b", true, ElectroDBKey{Service: "service", Facets: []Facet{{"prop3", "hij"}, {"prop1", "a_b"}}, Prefix: "$service#prop3_"}, "$service#prop3_*#prop1_*"},
		{"$taskapp$user_1#user_t.walch", true, ElectroDBKey{Service: "taskapp", Entity: "user", Version: "1", Facets: []Facet{{"user", "t.walch"}}, Prefix: "$taskapp$user_1#user_"}, "$taskapp$user_1#user_*"},
		{"$taskapp", true, ElectroDBKey{Service: "taskapp", Prefix: "$taskapp"}, "$taskapp"},
		{"$taskapp#team", false, ElectroDBKey{}, ""},  // a segment without attr_value
		{"CUST#42", false, ElectroDBKey{}, ""},        // no $
		{"$#team_x", false, ElectroDBKey{}, ""},       // no service
		{"$app$user#id_1", false, ElectroDBKey{}, ""}, // entity without version
	}
	for _, tt := range tests {
		got, ok := ParseElectroDBPK(tt.pk)
		if ok != tt.ok || ok && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseElectroDBPK(%q) = %+v %v, want %+v %v", tt.pk, got, ok, tt.want, tt.ok)
			continue
		}
		if ok && got.Template() != tt.template {
			t.Errorf("Template(%q) = %q, want %q", tt.pk, got.Template(), tt.template)
		}
	}
}

func TestParseElectroDBSK(t *testing.T) {
	user := LibraryEntity{Library: ElectroDB, Entity: "user", Version: "1"}
	tests := []struct {
		sk   string
		hint LibraryEntity
		ok   bool
		want ElectroDBKey
	}{
		{"$user_1#user_t.walch", LibraryEntity{}, true,
			ElectroDBKey{Entity: "user", Version: "1", Facets: []Facet{{"user", "t.walch"}}, Prefix: "$user_1#user_"}},
		{"$organization#user_1#user_t.walch", LibraryEntity{}, true,
			ElectroDBKey{Collections: []string{"organization"}, Entity: "user", Version: "1", Facets: []Facet{{"user", "t.walch"}}, Prefix: "$organization#user_1#user_"}},
		{"$assignments#user_1", LibraryEntity{}, true,
			ElectroDBKey{Collections: []string{"assignments"}, Entity: "user", Version: "1", Prefix: "$assignments#user_1"}},
		{"$clusters#sub#line_item_2#id_9", LibraryEntity{}, true,
			ElectroDBKey{Collections: []string{"clusters", "sub"}, Entity: "line_item", Version: "2", Facets: []Facet{{"id", "9"}}, Prefix: "$clusters#sub#line_item_2#id_"}},
		// The hint names the segment even when a facet looks like a version.
		{"$orgs#user_1#orgid_7", user, true,
			ElectroDBKey{Collections: []string{"orgs"}, Entity: "user", Version: "1", Facets: []Facet{{"orgid", "7"}}, Prefix: "$orgs#user_1#orgid_"}},
		// A pre-1.0 key is only recognised with the hint.
		{"$user#userid_42", LibraryEntity{Library: ElectroDB, Entity: "user"}, true,
			ElectroDBKey{Entity: "user", Facets: []Facet{{"userid", "42"}}, Prefix: "$user#userid_"}},
		{"$organization", LibraryEntity{}, false, ElectroDBKey{}},
		{"ORDER#1", LibraryEntity{}, false, ElectroDBKey{}},
		{"$user_1#nofacet", LibraryEntity{}, false, ElectroDBKey{}},
	}
	for _, tt := range tests {
		got, ok := ParseElectroDBSK(tt.sk, tt.hint)
		if ok != tt.ok || ok && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseElectroDBSK(%q) = %+v %v, want %+v %v", tt.sk, got, ok, tt.want, tt.ok)
		}
	}
}
