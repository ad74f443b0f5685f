package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo/dynamotest"
)

// 39.3: with entities declared, groups names each type by the declaration
// its keys match, and marks the others undeclared, in text and JSON.
func TestGroupsNamesTypesByDeclarations(t *testing.T) {
	atTop(t)
	table, ep := seededDemo(t)
	out, _, err := runCommand(t, "groups", "--table", table, "--endpoint-url", ep, "--pk", "CUST#42", "--patterns", entityPatterns)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Groups []struct {
			Entity   string
			Declared *bool
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, g := range got.Groups {
		if g.Declared == nil || !*g.Declared {
			t.Errorf("%s: declared %v, want true", g.Entity, g.Declared)
		}
		names = append(names, g.Entity)
	}
	if strings.Join(names, ",") != "Order,Customer" {
		t.Errorf("CUST#42's types: %v", names)
	}
	out, _, err = runCommand(t, "groups", "--table", table, "--endpoint-url", ep, "--pk", "ORDER#A17", "--patterns", entityPatterns, "--output", "table")
	if err != nil || !strings.Contains(out, "\n~ITEM ") || !strings.Contains(out, "\n~SHIPMENT ") {
		t.Errorf("undeclared types in text: %v\n%s", err, out)
	}
	out, _, err = runCommand(t, "groups", "--table", table, "--endpoint-url", ep, "--pk", "ORDER#A17", "--patterns", entityPatterns)
	if err != nil || strings.Count(out, `"declared": false`) != 2 {
		t.Errorf("undeclared types in JSON: %v\n%s", err, out)
	}
	// Without declarations nothing changes: no mark, no field.
	out, _, err = runCommand(t, "groups", "--table", table, "--endpoint-url", ep, "--pk", "ORDER#A17", "--output", "table")
	if err != nil || strings.Contains(out, "~") || !strings.Contains(out, "\nITEM ") {
		t.Errorf("groups without declarations: %v\n%s", err, out)
	}
}

// runCommand runs any dynascope command in-process.
func runCommand(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), err
}

// 39.3: item names the item's declared entity and decodes its keys.
func TestItemDecodesItsKeys(t *testing.T) {
	atTop(t)
	table, ep := seededDemo(t)
	conn := []string{"--table", table, "--endpoint-url", ep, "--patterns", entityPatterns}
	out, _, err := runCommand(t, append([]string{"item", "--pk", "CUST#42", "--sk", "ORDER#2025-03-01#A17"}, conn...)...)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Entity struct {
			Name     *string
			Declared bool
			Params   json.RawMessage
			Drift    []string
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	var params bytes.Buffer
	if err := json.Compact(&params, got.Entity.Params); err != nil {
		t.Fatal(err)
	}
	if e := got.Entity; e.Name == nil || *e.Name != "Order" || !e.Declared || params.String() != `{"customerId":"42","orderDate":"2025-03-01","orderId":"A17"}` || len(e.Drift) != 0 {
		t.Errorf("entity %+v %s\n%s", e, e.Params, out)
	}
	out, _, err = runCommand(t, append([]string{"item", "--pk", "CUST#42", "--sk", "ORDER#2025-03-01#A17", "--output", "table"}, conn...)...)
	if err != nil || !strings.Contains(out, "\nentity Order: customerId = 42, orderDate = 2025-03-01, orderId = A17\n") {
		t.Errorf("item as a table: %v\n%s", err, out)
	}
	out, _, err = runCommand(t, append([]string{"item", "--pk", "ORDER#A17", "--sk", "ITEM#1", "--output", "table"}, conn...)...)
	if err != nil || !strings.Contains(out, "\nentity: undeclared (its keys match no declared entity)\n") {
		t.Errorf("an undeclared item: %v\n%s", err, out)
	}
	out, _, err = runCommand(t, "item", "--table", table, "--endpoint-url", ep, "--pk", "ORDER#A17", "--sk", "ITEM#1")
	if err != nil || strings.Contains(out, `"entity"`) {
		t.Errorf("item without declarations: %v\n%s", err, out)
	}
}

// declaredLayoutJSON is what the tests read of layout's JSON: the
// families' types, named by the declarations.
type declaredLayoutJSON struct {
	Families []struct {
		Family      string
		EntityTypes []struct {
			Entity   string
			Declared *bool
			Prefix   string
			Items    int
		}
	}
}

// 39.3: layout names the sort-key types by the declared entities, the
// others marked, in text and JSON.
func TestLayoutNamesTypesByDeclarations(t *testing.T) {
	atTop(t)
	table, ep := seededDemo(t)
	out, _, err := runCommand(t, "layout", "--table", table, "--endpoint-url", ep, "--patterns", entityPatterns, "--output", "json")
	if err != nil {
		t.Fatal(err)
	}
	var got declaredLayoutJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range got.Families {
		for _, ty := range f.EntityTypes {
			if ty.Declared == nil {
				t.Fatalf("%s %s: no declared field", f.Family, ty.Entity)
			}
			seen[ty.Entity+"/"+strconv.FormatBool(*ty.Declared)] = true
		}
	}
	for _, want := range []string{"Order/true", "Customer/true", "ADDRESS/false", "ITEM/false"} {
		if !seen[want] {
			t.Errorf("layout lacks %s: %v", want, seen)
		}
	}
	out, _, err = runCommand(t, "layout", "--table", table, "--endpoint-url", ep, "--patterns", entityPatterns, "--output", "table")
	if err != nil || !strings.Contains(out, "Order ") || !strings.Contains(out, "~ADDRESS ") {
		t.Errorf("layout text: %v\n%s", err, out)
	}
}

// 39.3: index try and the layout's index map name the members by the
// declared entities their table keys match, the others by inference and
// marked: "~ITEM" in text, "declared": false in JSON.
func TestIndexStatsNameTypesByDeclarations(t *testing.T) {
	atTop(t)
	table, ep := seededDemo(t)
	out, _, err := runCommand(t, "index", "try", "--table", table, "--endpoint-url", ep, "--patterns", entityPatterns,
		"--pk-attr", "SK", "--sk-attr", "PK", "--max-items", "3000", "--output", "table")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Order ", "Customer ", "~ITEM ", "~ADDRESS "} {
		if !strings.Contains(out, want) {
			t.Errorf("index try text without %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "~Order") || strings.Contains(out, " ORDER ") {
		t.Errorf("index try text names a declared type by inference:\n%s", out)
	}
	out, _, err = runCommand(t, "layout", "--table", table, "--endpoint-url", ep, "--patterns", entityPatterns,
		"--index-map", "--max-items", "3000", "--output", "json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		IndexMap struct {
			Indexes []struct {
				Name        string
				EntityTypes []struct {
					Entity   string
					Declared *bool
					Items    int
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	named := 0
	for _, ix := range got.IndexMap.Indexes {
		for _, ty := range ix.EntityTypes {
			if ty.Declared == nil || *ty.Declared != (ty.Entity == "Order" || ty.Entity == "Customer") {
				t.Errorf("%s: type %s declared %v", ix.Name, ty.Entity, ty.Declared)
			}
			named += ty.Items
		}
	}
	if named == 0 {
		t.Errorf("the index map named no members: %s", out)
	}
}

// 39.3: a key of Order's prefix in another shape (ORDER#2025-02-02|A99,
// an old delimiter between date and id) does not take Order's name from
// CUST#42's declared orders: groups shows Order with the declared orders
// and ~ORDER with the drift item, each counted apart by --count, in text
// and JSON; the layout of the whole table names them the same way.
func TestGroupsSplitsADriftedType(t *testing.T) {
	atTop(t)
	table, ep := seededDemo(t)
	sdk := dynamotest.SDK(t)
	putDrift(t, sdk, table, map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: "CUST#42"}, "SK": &types.AttributeValueMemberS{Value: "ORDER#2025-02-02|A99"}})
	orders := partitionSKs(t, sdk, table, "CUST#42", declaredOrder)
	type group struct {
		Entity   string
		Declared *bool
		Prefix   string
		Count    *int
		First    string
		Last     string
	}
	groups := func(more ...string) []group {
		t.Helper()
		out, stderr, err := runCommand(t, slices.Concat([]string{"groups", "--table", table, "--endpoint-url", ep, "--pk", "CUST#42", "--patterns", entityPatterns}, more)...)
		if err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		var got struct{ Groups []group }
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		return got.Groups
	}
	for _, counted := range []bool{false, true} {
		var more []string
		if counted {
			more = []string{"--count"}
		}
		got := groups(more...)
		if len(got) != 3 {
			t.Fatalf("CUST#42's types %v: %+v", more, got)
		}
		o, d := got[0], got[1]
		if o.Entity != "Order" || o.Declared == nil || !*o.Declared || o.Prefix != "ORDER#" || o.First != orders[0] || o.Last != orders[len(orders)-1] {
			t.Errorf("%v: the declared orders' row %+v, want Order from %s to %s", more, o, orders[0], orders[len(orders)-1])
		}
		if d.Entity != "ORDER" || d.Declared == nil || *d.Declared || d.Prefix != "ORDER#" || d.First != "ORDER#2025-02-02|A99" || d.Last != d.First {
			t.Errorf("%v: the drift row %+v, want ORDER, undeclared, its one key", more, d)
		}
		if got[2].Entity != "Customer" {
			t.Errorf("%v: then %+v", more, got[2])
		}
		switch {
		case !counted && (o.Count != nil || d.Count != nil):
			t.Errorf("counted without --count: %v %v", o.Count, d.Count)
		case counted && (o.Count == nil || *o.Count != len(orders) || d.Count == nil || *d.Count != 1):
			t.Errorf("--count: Order %v, ~ORDER %v; want %d and 1", o.Count, d.Count, len(orders))
		}
	}
	out, _, err := runCommand(t, "groups", "--table", table, "--endpoint-url", ep, "--pk", "CUST#42", "--patterns", entityPatterns, "--count", "--output", "table")
	lines := strings.Split(out, "\n")
	if err != nil || len(lines) < 4 || !strings.HasPrefix(lines[1], "Order ") || !strings.Contains(lines[1], " "+strconv.Itoa(len(orders))+" ") ||
		!strings.HasPrefix(lines[2], "~ORDER ") || !strings.Contains(lines[2], " 1 ") || !strings.HasPrefix(lines[3], "Customer ") {
		t.Errorf("groups --count in text: %v\n%s", err, out)
	}

	out, _, err = runCommand(t, "layout", "--table", table, "--endpoint-url", ep, "--patterns", entityPatterns, "--output", "json", "--max-items", "30000", "--max-rcu", "1000")
	if err != nil {
		t.Fatal(err)
	}
	var layout declaredLayoutJSON
	if err := json.Unmarshal([]byte(out), &layout); err != nil {
		t.Fatal(err)
	}
	var cust []string
	for _, f := range layout.Families {
		if f.Family != "CUST#*" {
			continue
		}
		for _, ty := range f.EntityTypes {
			if ty.Prefix == "ORDER#" {
				cust = append(cust, fmt.Sprintf("%s/%v", ty.Entity, ty.Declared != nil && *ty.Declared))
				if !*ty.Declared && ty.Items != 1 {
					t.Errorf("layout's drift row: %+v, want its one item", ty)
				}
			}
		}
	}
	if strings.Join(cust, " ") != "Order/true ORDER/false" {
		t.Errorf("layout's ORDER# types of CUST#*: %v\n%s", cust, out)
	}
}
