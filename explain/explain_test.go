package explain

import (
	"slices"
	"strings"
	"testing"

	"dynascope/dynamo"
	"dynascope/patterns"
)

// demoTable is the demo's key schema: PK, SK and GSI1 over GSI1PK, GSI1SK.
func demoTable() dynamo.Table {
	s := func(n string) *dynamo.KeyAttr { return &dynamo.KeyAttr{Name: n, Type: "S"} }
	return dynamo.Table{Name: "App", PK: *s("PK"), SK: s("SK"),
		Indexes: []dynamo.Index{{Name: "GSI1", Kind: dynamo.IndexKind("GSI"), PK: *s("GSI1PK"), SK: s("GSI1SK"), Projection: "ALL"}}}
}

// The plan of a partition key alone is one Query of Limit 3, then its
// variants (each other delimiter, the case, no padding) and the same key
// on GSI1, one item each; its bound is what its Limits can read of
// DynamoDB's largest items.
func TestPlanBound(t *testing.T) {
	tb := demoTable()
	ks, _ := tb.Schema("")
	p := NewPlan(tb, ks, Key{Attrs: []string{"PK"}, Values: []string{"CUST|42"}})
	if len(p.Near) != 1 || p.Near[0].Query.Limit != Near || p.Near[0].Query.SK.Op != "" {
		t.Fatalf("near %+v", p.Near)
	}
	var pks []string
	for _, r := range p.Variants {
		pks = append(pks, r.Query.Index+":"+r.Query.PK)
		if r.Query.Limit != 1 {
			t.Errorf("variant %+v: Limit %d, want 1", r.Query, r.Query.Limit)
		}
	}
	if !slices.Contains(pks, ":CUST#42") || !slices.Contains(pks, ":cust|42") || !slices.Contains(pks, "GSI1:CUST|42") || slices.Contains(pks, ":CUST|42") {
		t.Errorf("variants %v", pks)
	}
	if p.Queries() != 1+len(p.Variants) || p.MaxItems() != Near+len(p.Variants) || p.MaxRCU() != float64(p.MaxItems())*50 {
		t.Errorf("%d queries, %d items, %v RCU", p.Queries(), p.MaxItems(), p.MaxRCU())
	}
	// At an average item of 200 bytes each Query's Limit of items fits one
	// 4 KB unit: half a unit a Query; at 3 KB, Limit 3 is 9 KB, 1.5 units.
	if got := p.RCUAt(200); got != 0.5*float64(p.Queries()) {
		t.Errorf("RCU at 200 B: %v, want %v", got, 0.5*float64(p.Queries()))
	}
	if got := p.RCUAt(3 << 10); got != 1.5+0.5*float64(len(p.Variants)) {
		t.Errorf("RCU at 3 KB: %v", got)
	}
	if p.RCUAt(maxItemBytes) != p.MaxRCU() {
		t.Errorf("RCU at 400 KB %v, the bound %v", p.RCUAt(maxItemBytes), p.MaxRCU())
	}
	two := NewPlan(tb, ks, Key{Attrs: []string{"PK", "SK"}, Values: []string{"CUST#42", "ORDER|1"}})
	if len(two.Near) != 2 || two.Near[0].Side != SideAfter || two.Near[1].Side != SideBefore || !two.Near[1].Query.Reverse {
		t.Errorf("two sides %+v", two.Near)
	}
}

// A key as typed is read by the demo's declarations exactly: the entities
// its shape matches with their parameters, none for a typo'd delimiter.
func TestDeclare(t *testing.T) {
	set, err := patterns.LoadPatterns("../dynascope.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		key  Key
		want string
	}{
		{Key{[]string{"PK"}, []string{"CUST#42"}}, "Customer Address Order: customerId=42"},
		{Key{[]string{"PK", "SK"}, []string{"CUST#42", "ORDER#2025-03-01#a17"}}, "Order: customerId=42 orderDate=2025-03-01 orderId=a17"},
		{Key{[]string{"PK", "SK"}, []string{"CUST#42", "ORDER|2025-03-01|A17"}}, "Customer Address Order: customerId=42 (PK only)"},
		{Key{[]string{"PK"}, []string{"CUST|42"}}, ": "},
		{Key{[]string{"PK"}, []string{"cust#42"}}, ": "},
	} {
		d := Declare(set.Entities, tc.key)
		var ps []string
		for _, p := range d.Params {
			ps = append(ps, p.Name+"="+p.Value)
		}
		got := strings.Join(d.Entities, " ") + ": " + strings.Join(ps, " ")
		if d.PKOnly {
			got += " (PK only)"
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.key.Text(), got, tc.want)
		}
	}
}

// InOrder puts the keys before the built one (read backward) first, in
// sort order, then its place, then those after it.
func TestInOrder(t *testing.T) {
	k := func(sk string) Key { return Key{Attrs: []string{"PK", "SK"}, Values: []string{"P", sk}} }
	ex := &Explanation{Built: k("C"), Nearest: []NearKey{
		{Side: SideAfter, Key: k("D")}, {Side: SideAfter, Key: k("E")}, {Side: SideBefore, Key: k("B")}, {Side: SideBefore, Key: k("A")},
	}}
	var got []string
	for _, n := range ex.InOrder() {
		if n.Side == SideBuilt {
			got = append(got, "→")
			continue
		}
		got = append(got, n.Key.Values[1])
	}
	if strings.Join(got, " ") != "A B → D E" {
		t.Errorf("%v", got)
	}
}
