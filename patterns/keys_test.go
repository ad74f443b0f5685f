package patterns

import (
	"reflect"
	"strings"
	"testing"

	"dynascope/dynamo"
)

// The file's keys, written as `dynascope tables` prints them, give the table
// a pattern's code needs without a request; they agree with DescribeTable's
// or CheckKeys names the first difference.
func TestFileKeys(t *testing.T) {
	src := "table: App\nkeys:\n  table: PK S / SK S\n  indexes: [\"GSI1 GSI(GSI1PK S / GSI1SK S)\", \"ByCountry GSI(country S)\"]\npatterns:\n  - name: x\n    index: GSI1\n    pk: \"WH#1\"\n"
	set, err := ParsePatterns("dynascope.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := set.KeysTable("App")
	if !ok {
		t.Fatal("no keys")
	}
	want := demoTable
	want.Indexes = []dynamo.Index{
		{Name: "GSI1", Kind: dynamo.GSI, PK: dynamo.KeyAttr{Name: "GSI1PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "GSI1SK", Type: "S"}},
		{Name: "ByCountry", Kind: dynamo.GSI, PK: dynamo.KeyAttr{Name: "country", Type: "S"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("table %+v\nwant %+v", got, want)
	}
	if err := set.Validate(got); err != nil {
		t.Errorf("the patterns do not validate against the file's keys: %v", err)
	}
	if err := set.CheckKeys(demoTable); err != nil {
		t.Errorf("the demo table's keys differ: %v", err)
	}

	// Each way DynamoDB's table can differ from the file.
	otherSK := demoTable
	otherSK.SK = &dynamo.KeyAttr{Name: "SK", Type: "N"}
	noIndex := demoTable
	noIndex.Indexes = demoTable.Indexes[1:]
	lsi := demoTable
	lsi.Indexes = []dynamo.Index{demoTable.Indexes[0], demoTable.Indexes[1]}
	lsi.Indexes[0].Kind = dynamo.LSI
	for _, c := range []struct {
		t    dynamo.Table
		want string
	}{
		{otherSK, "dynascope.yaml:3: keys: says table App is PK S / SK S, but DynamoDB says PK S / SK N; correct keys: (dynascope tables prints them)."},
		{noIndex, "dynascope.yaml:3: keys: says index GSI1 is GSI(GSI1PK S / GSI1SK S), but DynamoDB says the table has no index GSI1; correct keys: (dynascope tables prints them)."},
		{lsi, "dynascope.yaml:3: keys: says index GSI1 is GSI(GSI1PK S / GSI1SK S), but DynamoDB says LSI(GSI1PK S / GSI1SK S); correct keys: (dynascope tables prints them)."},
	} {
		if err := set.CheckKeys(c.t); err == nil || err.Error() != c.want {
			t.Errorf("got  %v\nwant %s", err, c.want)
		}
	}

	// A file without keys: has no table to print from, and agrees with any.
	bare, err := ParsePatterns("dynascope.yaml", []byte("table: App\npatterns: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := bare.KeysTable("App"); ok || bare.CheckKeys(otherSK) != nil {
		t.Error("a file without keys: has keys")
	}
}

// A mistake in keys: is one sentence with its line.
func TestFileKeysMistakes(t *testing.T) {
	for _, c := range []struct{ keys, want string }{
		{"keys: PK S\n", `dynascope.yaml:2: keys: must be a mapping like {table: "PK S / SK S", indexes: ["GSI1 GSI(GSI1PK S / GSI1SK S)"]}, as dynascope tables prints them.`},
		{"keys: {indexes: []}\n", `dynascope.yaml:2: keys: needs table: with the table's key attributes, like "PK S / SK S".`},
		{"keys: {table: PK}\n", `dynascope.yaml:2: keys: table: must be the key attributes with their types, like "PK S / SK S" (S, N or B), not "PK".`},
		{"keys: {table: PK X}\n", `dynascope.yaml:2: keys: table: must be the key attributes with their types, like "PK S / SK S" (S, N or B), not "PK X".`},
		{"keys: {table: PK S / SK S / X S}\n", `dynascope.yaml:2: keys: table: must be the key attributes with their types, like "PK S / SK S" (S, N or B), not "PK S / SK S / X S".`},
		{"keys: {table: PK S, indexes: GSI1}\n", `dynascope.yaml:2: keys: indexes: must be a list like ["GSI1 GSI(GSI1PK S / GSI1SK S)"].`},
		{"keys: {table: PK S, indexes: [GSI1 (A S)]}\n", `dynascope.yaml:2: keys: each index must be its name, GSI or LSI and its keys, like "GSI1 GSI(GSI1PK S / GSI1SK S)", not "GSI1 (A S)".`},
		{"keys: {table: PK S, indexes: [G GSI(A S), G LSI(A S)]}\n", `dynascope.yaml:2: keys: index G is given twice.`},
		{"keys: {table: PK S, tables: x}\n", `dynascope.yaml:2: keys: has table: and indexes:, not tables:.`},
		{"keys: {table: PK S, table: PK N}\n", `dynascope.yaml:2: keys: table: is given twice.`},
	} {
		_, err := ParsePatterns("dynascope.yaml", []byte("table: App\n"+c.keys+"patterns: []\n"))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s got  %v\nwant %s", strings.TrimSpace(c.keys), err, c.want)
		}
	}
}
