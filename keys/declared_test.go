package keys_test

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"dynascope/entities"
	"dynascope/keys"
)

// demoDeclared is a declaration of the demo's CUST# partitions, read by
// package entities as the patterns file would be.
func demoDeclared(t *testing.T) keys.Declared {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(`
- name: Customer
  keys: {PK: "CUST#{customerId}", SK: PROFILE}
  params: {customerId: number}
- name: Order
  keys: {PK: "CUST#{customerId}", SK: "ORDER#{orderDate}#{orderId}"}
  params: {customerId: number, orderDate: date, orderId: text}
`), &doc); err != nil {
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
	// A key of the ORDER# class that breaks the date: the type is not one
	// declaration, so its name stays inferred and marked.
	mixed := keys.NewEntityTable("S", true).WithDeclared(d).Reset("CUST#42", false).Load(page("ORDER#2025-01-09#A11", "ORDER#2025-99-01#A12"), "#", false)
	if got := rowNames(mixed); got != "~ORDER" {
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
