package keys

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// kv builds items from alternating partition and sort keys.
func kv(pairs ...string) []KeyItem {
	out := make([]KeyItem, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, KeyItem{PK: pairs[i], SK: pairs[i+1]})
	}
	return out
}

// shape summarises a layout as text: one line per family with its types,
// so expectations read like the overview itself.
func shape(l Layout) []string {
	var out []string
	for _, f := range l.Families {
		var ts []string
		for _, t := range f.Types {
			ts = append(ts, fmt.Sprintf("%s[%s]=%d", t.Entity, t.Prefix, t.Items))
		}
		out = append(out, fmt.Sprintf("%s p=%d i=%d: %s", f.Pattern, f.Partitions, f.Items, strings.Join(ts, " ")))
	}
	return out
}

func rules(l Layout) []string {
	out := []string{}
	for _, f := range l.Findings {
		out = append(out, f.Rule+"@"+f.Family)
	}
	return out
}

func TestAnalyzeLayoutFamilies(t *testing.T) {
	tests := []struct {
		name   string
		in     LayoutInput
		want   []string
		findin []string
	}{
		{
			name: "the article's example",
			in: LayoutInput{PKType: "S", SKType: "S", Items: kv(
				"CUST#42", "PROFILE", "CUST#42", "ORDER#2025-01-09#A11", "CUST#42", "ORDER#2025-03-01#A17",
				"CUST#7", "PROFILE", "CUST#7", "ADDRESS#HOME",
				"ORDER#A17", "ITEM#1", "ORDER#A11", "ITEM#1", "ORDER#A11", "SHIPMENT#2025-01-10")},
			want: []string{
				"CUST#* p=2 i=5: ADDRESS[ADDRESS#]=1 ORDER[ORDER#]=2 PROFILE[PROFILE]=2",
				"ORDER#* p=2 i=3: ITEM[ITEM#]=2 SHIPMENT[SHIPMENT#]=1",
			},
			findin: []string{},
		},
		{
			name: "a bare label and the label with a suffix are one type",
			in: LayoutInput{PKType: "S", SKType: "S", Items: kv(
				"DOC#1", "METADATA", "DOC#1", "METADATA#v1", "DOC#1", "METADATA#v2", "DOC#2", "METADATA", "DOC#2", "TYPES#v2", "DOC#2", "TYPES")},
			want:   []string{"DOC#* p=2 i=6: METADATA[METADATA#]=4 TYPES[TYPES#]=2"},
			findin: []string{},
		},
		{
			name: "a two-character delimiter names the family with both characters",
			in: LayoutInput{PKType: "S", SKType: "S", Items: kv(
				"pass::0007", "seat::12", "pass::0008", "seat::14")},
			want:   []string{"pass::* p=2 i=2: seat[seat::]=2"},
			findin: []string{},
		},
		{
			name: "pipe, colon and slash delimiters, one per family",
			in: LayoutInput{PKType: "S", SKType: "S", Items: kv(
				"tenant|1", "user|a", "tenant|2", "user|b",
				"org:1", "team:x", "org:1", "team:y",
				"dir/1", "file/a.txt")},
			want: []string{
				"org:* p=1 i=2: team[team:]=2",
				"tenant|* p=2 i=2: user[user|]=2",
				"dir/* p=1 i=1: file[file/]=1",
			},
			findin: []string{"mixed-delimiters@"},
		},
		{
			name: "keys without delimiters",
			in: LayoutInput{PKType: "S", SKType: "S", Items: kv(
				"user1", "profile", "user1", "v0", "user1", "v1", "user2", "profile", "CONFIG", "settings")},
			want: []string{
				"user* p=2 i=4: profile[profile]=2 version[]=2", // v0 and v1 are one item's versions: one value type, as groups and the UI show them
				"CONFIG p=1 i=1: settings[settings]=1",
			},
			findin: []string{},
		},
		{
			// UUID partition keys fall into the catch-all family; timestamp
			// sort keys are one value group named by their shape.
			name: "values as keys: UUID partitions, timestamp sort keys",
			in: LayoutInput{PKType: "S", SKType: "S", Items: kv(
				"7f9c2ba4-e88f-11ec-8ea0-0242ac120002", "2025-03-01T10:00:00Z",
				"0b7e3b2a-e88f-11ec-8ea0-0242ac120002", "2025-03-02T10:00:00Z")},
			want:   []string{"* p=2 i=2: timestamp[]=2"},
			findin: []string{},
		},
		{
			name: "keys that start with the delimiter",
			in: LayoutInput{PKType: "S", SKType: "S", Items: kv(
				"CUST#1", "#META", "CUST#1", "#ADDRESS#HOME", "CUST#2", "#META", "#GLOBAL#1", "#CONFIG")},
			want: []string{
				"CUST#* p=2 i=3: ADDRESS[#ADDRESS#]=1 META[#META]=2",
				"#GLOBAL#* p=1 i=1: CONFIG[#CONFIG]=1",
			},
			findin: []string{},
		},
		{
			name: "numeric sort key",
			in: LayoutInput{PKType: "S", SKType: "N", Items: kv(
				"SENSOR#1", "10", "SENSOR#1", "9", "SENSOR#1", "-2.5")},
			want:   []string{"SENSOR#* p=1 i=3: NUMBER[]=3"},
			findin: []string{},
		},
		{
			name: "no sort key",
			in: LayoutInput{PKType: "S", Items: []KeyItem{
				{PK: "USER#1"}, {PK: "USER#2"}, {PK: "SESSION#9"}}},
			want:   []string{"USER#* p=2 i=2: USER[]=2", "SESSION#* p=1 i=1: SESSION[]=1"},
			findin: []string{},
		},
		{
			name: "ElectroDB",
			in: LayoutInput{PKType: "S", SKType: "S", Items: []KeyItem{
				{PK: "$taskapp#team_purple", SK: "$organization#user_1#user_t.walch", Library: LibraryEntity{Library: ElectroDB, Entity: "user", Version: "1"}},
				{PK: "$taskapp#team_purple", SK: "$organization#team_1", Library: LibraryEntity{Library: ElectroDB, Entity: "team", Version: "1"}},
				{PK: "$taskapp#team_green", SK: "$organization#team_1", Library: LibraryEntity{Library: ElectroDB, Entity: "team", Version: "1"}},
				{PK: "$taskapp#user_t.walch", SK: "$assignments#user_1", Library: LibraryEntity{Library: ElectroDB, Entity: "user", Version: "1"}},
			}},
			want: []string{
				"$taskapp#team_* p=2 i=3: team[$organization#team_1]=2 user[$organization#user_1]=1",
				"$taskapp#user_* p=1 i=1: user[$assignments#user_1]=1",
			},
			findin: []string{},
		},
		{
			name: "many name-like partition keys are values, not families",
			in: LayoutInput{PKType: "S", SKType: "S", Items: kv(
				"alice", "PROFILE", "bob", "PROFILE", "carol", "PROFILE", "dave", "PROFILE", "erin", "PROFILE", "frank", "PROFILE",
				"grace", "PROFILE", "heidi", "PROFILE", "ivan", "PROFILE", "judy", "PROFILE", "mallory", "PROFILE")},
			want:   []string{"* p=11 i=11: PROFILE[PROFILE]=11"},
			findin: []string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := AnalyzeLayout(tt.in)
			if got := shape(l); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("families:\n got  %q\n want %q", got, tt.want)
			}
			if got := rules(l); !reflect.DeepEqual(got, tt.findin) {
				t.Errorf("findings %q, want %q\n%+v", got, tt.findin, l.Findings)
			}
			if l.Items != len(tt.in.Items) {
				t.Errorf("items %d", l.Items)
			}
		})
	}
}

func TestAnalyzeLayoutPartitionsAndLibraries(t *testing.T) {
	var items []KeyItem
	for i := range 30 {
		items = append(items, KeyItem{PK: "CUST#7", SK: fmt.Sprintf("ORDER#%03d", i), Library: LibraryEntity{Library: DynamoDBToolbox, Attribute: "_et", Entity: "Order"}})
	}
	items = append(items,
		KeyItem{PK: "CUST#1", SK: "PROFILE", Library: LibraryEntity{Library: DynamoDBToolbox, Attribute: "_et", Entity: "Customer"}},
		KeyItem{PK: "CUST#1", SK: "ORDER#001", Library: LibraryEntity{Library: DynamoDBToolbox, Attribute: "_et", Entity: "Order"}},
		KeyItem{PK: "CUST#2", SK: "PROFILE", Library: LibraryEntity{Library: DynamoDBToolbox, Attribute: "_et", Entity: "Customer"}},
	)
	l := AnalyzeLayout(LayoutInput{PKType: "S", SKType: "S", Items: items, Largest: 2})
	want := []Partition{{PK: "CUST#7", Family: "CUST#*", Items: 30}, {PK: "CUST#1", Family: "CUST#*", Items: 2}}
	if !reflect.DeepEqual(l.Largest, want) || l.Partitions != 3 || l.Items != 33 {
		t.Errorf("largest %+v partitions %d items %d", l.Largest, l.Partitions, l.Items)
	}
	f := l.Families[0]
	if f.Largest != want[0] || len(f.Types) != 2 {
		t.Fatalf("family %+v", f)
	}
	order, profile := f.Types[0], f.Types[1]
	if order.Label != "ORDER (dynamodb-toolbox: Order)" || order.Disagree || order.Partitions != 2 || order.First != "ORDER#000" || order.Last != "ORDER#029" {
		t.Errorf("order type %+v", order)
	}
	if profile.Label != "PROFILE (dynamodb-toolbox: Customer)" || !profile.Disagree || profile.Libraries[0].Items != 2 {
		t.Errorf("profile type %+v", profile)
	}
}

func TestCompareKeys(t *testing.T) {
	tests := []struct {
		a, b, typ string
		want      int
	}{
		{"9", "10", "N", -1},
		{"-2.5", "-3", "N", 1},
		{"1e2", "100", "N", 0},
		{"9", "10", "S", 1},
		{"AQ==", "/w==", "B", -1}, // 0x01 < 0xFF although "A" > "/"
	}
	for _, tt := range tests {
		if got := CompareKeys(tt.a, tt.b, tt.typ); got != tt.want {
			t.Errorf("CompareKeys(%q, %q, %s) = %d, want %d", tt.a, tt.b, tt.typ, got, tt.want)
		}
	}
}

func TestKeyDelimiter(t *testing.T) {
	tests := map[string]string{
		"ORDER#2025-03-01T10:00": "#",
		"user:42#x":              ":",
		"a/b#c":                  "/",
		"t|1":                    "|",
		"$app#x_1":               "#",
		"2025-03-01T10:00":       "",
		"2025-03-01#A17":         "",
		"#x":                     "",
		"PROFILE":                "",
		"Ärger#1":                "#",
	}
	for k, want := range tests {
		if got := keyDelimiter(k); got != want {
			t.Errorf("keyDelimiter(%q) = %q, want %q", k, got, want)
		}
	}
}
