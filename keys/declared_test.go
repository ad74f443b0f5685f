package keys_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"dynascope/entities"
	"dynascope/keys"
	"dynascope/keys/keystest"
)

// demoDeclared is a declaration of the demo's CUST# partitions, read by
// package entities as the patterns file would be.
func demoDeclared(t *testing.T) keys.Declared {
	t.Helper()
	return parseDeclared(t, []byte(`
- name: Customer
  keys: {PK: "CUST#{customerId}", SK: PROFILE}
  params: {customerId: number}
- name: Order
  keys: {PK: "CUST#{customerId}", SK: "ORDER#{orderDate}#{orderId}"}
  params: {customerId: number, orderDate: date, orderId: text}
`))
}

// parseDeclared reads an entities: list as the patterns file would, on a
// table keyed PK / SK, and names keys by it.
func parseDeclared(t *testing.T, data []byte) keys.Declared {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	set, err := entities.Parse(doc.Content[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := set.SetKeys([]string{"PK", "SK"}, nil); err != nil {
		t.Fatal(err)
	}
	return set.Namer("PK", "SK")
}

func rowNames(tb keys.EntityTable) string {
	var out []string
	for _, r := range tb.Rows() {
		out = append(out, r.Marked())
	}
	return strings.Join(out, " ")
}

// 39.3: with declarations the entity table names each type by the
// declaration its keys match, exactly; a type with a key no declaration
// matches keeps its inferred name, marked; without, nothing changes.
func TestEntityTableNamesByDeclarations(t *testing.T) {
	d := demoDeclared(t)
	page := func(sks ...string) []keys.LoadedKey {
		out := make([]keys.LoadedKey, len(sks))
		for i, sk := range sks {
			out[i] = keys.LoadedKey{SK: sk, Size: 10}
		}
		return out
	}
	loaded := page("ADDRESS#HOME", "ORDER#2025-01-09#A11", "ORDER#2025-03-01#A17", "ORDER|2023-05-01|X1", "PROFILE")
	plain := keys.NewEntityTable("S", true).Reset("CUST#42", false).Load(loaded, "#", false)
	if got := rowNames(plain); got != "ADDRESS ORDER ORDER| PROFILE" {
		t.Fatalf("inferred: %s", got)
	}
	tb := plain.WithDeclared(d)
	if got := rowNames(tb); got != "~ADDRESS Order ~ORDER| Customer" {
		t.Fatalf("declared: %s", got)
	}
	rows := tb.Rows()
	if !rows[1].Declared || rows[1].Undeclared || !rows[0].Undeclared || rows[0].Declared {
		t.Errorf("flags: %+v", rows)
	}
	if n, ok := tb.Count(1); !ok || n != 2 {
		t.Errorf("Order counts %d %v; naming must not change counts", n, ok)
	}
	// A key of the ORDER# class that breaks the date: the declared key
	// stays Order, the other one is a row of its own, inferred and marked.
	mixed := keys.NewEntityTable("S", true).WithDeclared(d).Reset("CUST#42", false).Load(page("ORDER#2025-01-09#A11", "ORDER#2025-99-01#A12"), "#", false)
	if got := rowNames(mixed); got != "Order ~ORDER" {
		t.Errorf("a type holding an undeclared key: %s", got)
	}
	// Names, for one key at a time (layout, tail, the live pane, index try).
	names := tb.Names("#")
	for sk, want := range map[string]string{
		"ORDER#2024-12-31#B1": "Order", "PROFILE": "Customer",
		"ORDER|2024-01-01|X9": "~ORDER|", "ORDER#2024-13-01#B1": "~ORDER", "ADDRESS#WORK": "~ADDRESS",
	} {
		if got := names.Marked(sk); got != want {
			t.Errorf("Names.Marked(%q) = %q, want %q", sk, got, want)
		}
	}
	if plain.Names("#").Undeclared("ADDRESS#HOME") {
		t.Error("marked undeclared with nothing declared")
	}
	seen := keys.NewSeenNames("S", "").WithDeclared(d)
	if got := seen.Marked("CUST#1", "ORDER#2025-01-01#B7"); got != "Order" {
		t.Errorf("seen: %s", got)
	}
	if got := seen.Marked("CUST#1", "ORDER|2025-01-01|B7"); got != "~ORDER|" { // beside ORDER#, as groups names it
		t.Errorf("seen undeclared: %s", got)
	}
	if got := keys.NamesOfKeys("CUST#1", []string{"PROFILE", "ORDER#2025-01-01#B7"}, "S", "").WithDeclared(d).Marked("PROFILE"); got != "Customer" {
		t.Errorf("NamesOfKeys: %s", got)
	}
}

// 39.3: a type of one prefix whose keys some declaration matches and
// others not (drift inside the prefix) is split: the declared keys are a
// row named by their entity, the others a row of the inferred name,
// marked, each with its own count, in the order of their first keys; both
// are Shared (begins_with ORDER# selects them both).
func TestEntityTableSplitsADriftedType(t *testing.T) {
	d := demoDeclared(t)
	page := func(sks ...string) []keys.LoadedKey {
		out := make([]keys.LoadedKey, len(sks))
		for i, sk := range sks {
			out[i] = keys.LoadedKey{SK: sk, Size: 10 + i}
		}
		return out
	}
	type row struct {
		name        string
		count       int // -1: not known
		first, last string
		shared      bool
	}
	for _, c := range []struct {
		name     string
		declared keys.Declared
		keys     []string
		more     bool // the read stopped after them
		want     []row
	}{
		{"every key declared", d, []string{"ORDER#2025-01-09#A11", "ORDER#2025-03-01#A17", "PROFILE"}, false,
			[]row{{"Order", 2, "ORDER#2025-01-09#A11", "ORDER#2025-03-01#A17", false}, {"Customer", 1, "PROFILE", "PROFILE", false}}},
		{"one drift key", d, []string{"ORDER#2025-01-09#A11", "ORDER#2025-02-02|A99", "ORDER#2025-03-01#A17", "PROFILE"}, false,
			[]row{{"Order", 2, "ORDER#2025-01-09#A11", "ORDER#2025-03-01#A17", true}, {"~ORDER", 1, "ORDER#2025-02-02|A99", "ORDER#2025-02-02|A99", true},
				{"Customer", 1, "PROFILE", "PROFILE", false}}},
		{"drift first", d, []string{"ORDER#2024-12-31|A01", "ORDER#2025-01-09#A11", "PROFILE"}, false,
			[]row{{"~ORDER", 1, "ORDER#2024-12-31|A01", "ORDER#2024-12-31|A01", true}, {"Order", 1, "ORDER#2025-01-09#A11", "ORDER#2025-01-09#A11", true},
				{"Customer", 1, "PROFILE", "PROFILE", false}}},
		{"read past the prefix", d, []string{"ORDER#2025-01-09#A11", "ORDER#2025-02-02|A99", "PROFILE"}, true,
			[]row{{"Order", 1, "ORDER#2025-01-09#A11", "ORDER#2025-01-09#A11", true}, {"~ORDER", 1, "ORDER#2025-02-02|A99", "ORDER#2025-02-02|A99", true},
				{"Customer", 1, "PROFILE", "PROFILE", false}}},
		{"stopped inside the prefix", d, []string{"ORDER#2025-01-09#A11", "ORDER#2025-02-02|A99"}, true,
			[]row{{"Order", -1, "ORDER#2025-01-09#A11", "", true}, {"~ORDER", -1, "ORDER#2025-02-02|A99", "", true}}},
		// A skip-scan's ends are the type's own: the end of the part it is in.
		{"stopped inside, the type's ends found", d, []string{"ORDER#2025-01-09#A11", "ORDER#2025-02-02|A99"}, true,
			[]row{{"Order", -1, "ORDER#2025-01-09#A11", "ORDER#2025-12-31#A99", true}, {"~ORDER", -1, "ORDER#2025-02-02|A99", "", true}}},
		{"no declarations", nil, []string{"ORDER#2025-01-09#A11", "ORDER#2025-02-02|A99", "ORDER#2025-03-01#A17", "PROFILE"}, false,
			[]row{{"ORDER", 3, "ORDER#2025-01-09#A11", "ORDER#2025-03-01#A17", false}, {"PROFILE", 1, "PROFILE", "PROFILE", false}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := keys.NewEntityTable("S", true).WithDeclared(c.declared).Reset("CUST#42", false).Load(page(c.keys...), "#", c.more)
			if strings.Contains(c.name, "found") {
				tb = tb.Discover([]keys.Group{{Entity: "ORDER", Prefix: "ORDER#", Kind: keys.KindLabel, First: "ORDER#2025-01-09#A11", Last: "ORDER#2025-12-31#A99"}}, false, "#", "#")
			}
			var got []row
			for i, r := range tb.Rows() {
				n, ok := tb.Count(i)
				if !ok {
					n = -1
				}
				got = append(got, row{r.Marked(), n, r.First, r.Last, r.Shared})
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("rows\n got %+v\nwant %+v", got, c.want)
			}
			loaded, bytes := 0, 0
			for _, r := range tb.Rows() {
				loaded, bytes = loaded+r.Loaded, bytes+r.Bytes
			}
			if loaded != tb.Loaded() || bytes != tb.Bytes() {
				t.Errorf("the rows hold %d items of %d bytes, the read %d of %d", loaded, bytes, tb.Loaded(), tb.Bytes())
			}
			if c.declared == nil {
				return
			}
			names := tb.Names("#")
			for _, sk := range c.keys {
				want := "~ORDER"
				if n, ok := c.declared("CUST#42", sk); ok {
					want = n
				}
				if got := names.Marked(sk); got != want {
					t.Errorf("Names.Marked(%q) = %q, want %q", sk, got, want)
				}
			}
		})
	}
	// A second read (Reset) keeps each part, what the first loaded a lower bound.
	tb := keys.NewEntityTable("S", true).WithDeclared(d).Reset("CUST#42", false).
		Load(page("ORDER#2025-01-09#A11", "ORDER#2025-02-02|A99", "ORDER#2025-03-01#A17"), "#", false).Reset("CUST#42", false)
	if got := rowNames(tb); got != "Order ~ORDER" || tb.Rows()[0].AtLeast != 2 || tb.Rows()[1].AtLeast != 1 {
		t.Errorf("after a Reset: %s %+v", got, tb.Rows())
	}
	// A count of the prefix counts both parts: it is neither's own.
	counted := keys.NewEntityTable("S", true).WithDeclared(d).Reset("CUST#42", false).
		Load(page("ORDER#2025-01-09#A11", "ORDER#2025-02-02|A99"), "#", true).Counted("^ORDER#", 7)
	if counted.Find("^ORDER#") != 0 {
		t.Fatalf("the prefix's type is not found: %+v", counted.Rows())
	}
	for i := range counted.Rows() {
		if n, ok := counted.Count(i); ok {
			t.Errorf("row %d counted %d from the shared prefix's count", i, n)
		}
	}
}

// TestRealModelsWithADeclaration runs the entity table (groups, the types
// pane) and the layout over every published model with a declaration
// written for one of them (ConnectedVehicles): that model's types are
// named by it, exactly, counts unchanged; every other model's types keep
// their inferred names, each marked undeclared.
func TestRealModelsWithADeclaration(t *testing.T) {
	files, err := keystest.Files(keystest.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if files == nil {
		t.Skip("../shared/real-models is not beside this clone, so the published models can not be read.")
	}
	data, err := os.ReadFile("testdata/entities-connected-vehicles.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d := parseDeclared(t, data)
	const declaredFor = "aws-dynamodb-examples/ConnectedVehiclesSchema.json"
	want := map[string]string{
		"VIN#WDDJK7DA4FF954840": "Vehicle VehicleSubscription VehicleFeature VehicleOwner",
		"ID#cbrawley0":          "User Subscription Preference UserVehicle",
	}
	for rel, path := range files {
		parts, err := keystest.Partitions(path)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		var items []keys.KeyItem
		for pk, sks := range parts {
			page := make([]keys.LoadedKey, len(sks))
			for i, sk := range sks {
				page[i] = keys.LoadedKey{SK: sk}
				items = append(items, keys.KeyItem{PK: pk, SK: sk})
			}
			plain := keys.NewEntityTable("S", true).Reset(pk, false).Load(page, keys.InferDelimiter(sks), false)
			tb := plain.WithDeclared(d)
			if len(tb.Rows()) != len(plain.Rows()) {
				t.Errorf("%s %s: %d types with the declaration, %d without", rel, pk, len(tb.Rows()), len(plain.Rows()))
			}
			for i, r := range tb.Rows() {
				if n, _ := tb.Count(i); n != func() int { m, _ := plain.Count(i); return m }() {
					t.Errorf("%s %s: %s counts %d, %d without the declaration", rel, pk, r.Entity, n, r.Count)
				}
				if rel != declaredFor && (!r.Undeclared || r.Entity != plain.Rows()[i].Entity) {
					t.Errorf("%s %s: %s is not marked undeclared under its inferred name %s", rel, pk, r.Entity, plain.Rows()[i].Entity)
				}
			}
			if rel == declaredFor {
				if got := rowNames(tb); got != want[pk] {
					t.Errorf("%s %s: %s, want %s", rel, pk, got, want[pk])
				}
			}
		}
		lay := keys.AnalyzeLayout(keys.LayoutInput{PKType: "S", SKType: "S", Items: items, Declared: d})
		for _, f := range lay.Families {
			for _, ty := range f.Types {
				if rel == declaredFor && !ty.Declared || rel != declaredFor && !ty.Undeclared {
					t.Errorf("%s layout %s: %s declared %v undeclared %v", rel, f.Pattern, ty.Entity, ty.Declared, ty.Undeclared)
				}
			}
		}
	}
}
