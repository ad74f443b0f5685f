package patterns

import (
	"strings"
	"testing"

	"dynascope/dynamo"
)

const entitiesFile = `table: App
keys:
  table: PK S / SK S
  indexes: ["GSI1 GSI(GSI1PK S / GSI1SK S)"]
entities:
  - name: Customer
    keys: {PK: "CUST#{customerId}", SK: PROFILE}
    params: {customerId: number}
  - name: Order
    keys:
      PK: "CUST#{customerId}"
      SK: "ORDER#{orderDate}#{orderId}"
      GSI1PK: "WH#{warehouseId}"
    params: {customerId: number, orderDate: date, orderId: text, warehouseId: number}
patterns:
  - name: profile
    pk: "CUST#{customerId}"
    example: {customerId: "42"}
`

func TestParseReadsEntities(t *testing.T) {
	set, err := ParsePatterns("dynascope.yaml", []byte(entitiesFile))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(set.Entities.Names(), ","); got != "Customer,Order" {
		t.Fatalf("entities %s", got)
	}
	m, ok := set.Entities.Match(map[string]string{"PK": "CUST#42", "SK": "ORDER#2025-03-01#A17", "GSI1PK": "WH#1"})
	if !ok || m.Name() != "Order" || m.Decoded() != "customerId = 42, orderDate = 2025-03-01, orderId = A17, warehouseId = 1" {
		t.Fatalf("match %v %v", m, ok)
	}
	none, err := ParsePatterns("dynascope.yaml", []byte("table: App\npatterns: []\n"))
	if err != nil || none.Entities == nil || len(none.Entities.Entities) != 0 {
		t.Fatalf("a file without entities: %v %v", none, err)
	}
}

func TestEntityErrorsNameFileLineAndColumn(t *testing.T) {
	bad := strings.Replace(entitiesFile, "GSI1PK: \"WH#", "GSI2PK: \"WH#", 1)
	_, err := ParsePatterns("dynascope.yaml", []byte(bad))
	want := `dynascope.yaml:13:7: entity "Order": GSI2PK is not a key attribute of the table or of an index (did you mean "GSI1PK"?); the key attributes are PK, SK, GSI1PK, GSI1SK.`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	bad = strings.Replace(entitiesFile, "orderDate: date", "orderDate: day", 1)
	_, err = ParsePatterns("dynascope.yaml", []byte(bad))
	if err == nil || !strings.HasPrefix(err.Error(), `dynascope.yaml:14:45: `) || !strings.Contains(err.Error(), `entity "Order": orderDate has the unknown type "day"`) {
		t.Fatalf("got %v", err)
	}
	// Without keys: in the file, the table DynamoDB described checks them.
	noKeys := strings.Replace(bad, "orderDate: day", "orderDate: date", 1)
	noKeys = noKeys[strings.Index(noKeys, "entities:"):]
	set, err := ParsePatterns("dynascope.yaml", []byte("table: App\n"+noKeys))
	if err != nil {
		t.Fatal(err)
	}
	table := dynamo.Table{Name: "App", PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	if err := set.CheckEntities(table); err == nil || !strings.Contains(err.Error(), "GSI1PK is not a key attribute") {
		t.Fatalf("checked against a table without GSI1: %v", err)
	}
	table.Indexes = []dynamo.Index{{Name: "GSI1", Kind: "GSI", PK: dynamo.KeyAttr{Name: "GSI1PK", Type: "S"}}}
	if err := set.CheckEntities(table); err != nil {
		t.Fatal(err)
	}
}

func TestPatternNamesAnEntity(t *testing.T) {
	file := entitiesFile + `  - name: orders of a customer
    entity: Order
    example: {customerId: "42"}
  - name: one order
    entity: Order
    sk: {eq: "ORDER#{orderDate}#{orderId}"}
    example: {customerId: "42", orderDate: "2025-03-01", orderId: A17}
  - name: the profile
    entity: Customer
    example: {customerId: "7"}
`
	set, err := ParsePatterns("dynascope.yaml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	table, _ := set.KeysTable("App")
	orders, _ := set.Find("orders of a customer")
	if got := orders.Summary(); got != `pk = "CUST#{customerId}", sk begins_with "ORDER#", entity Order` {
		t.Errorf("summary %s", got)
	}
	r, err := orders.Resolve(table, map[string]string{"customerId": "42"})
	if err != nil || r.Query == nil || r.Query.PK != "CUST#42" || r.Query.SK.Values[0] != "ORDER#" {
		t.Fatalf("resolved %+v %v", r, err)
	}
	if _, err := orders.Resolve(table, map[string]string{"customerId": "forty-two"}); err == nil || err.Error() != `pattern "orders of a customer": customerId is "forty-two", which is not a number (entity Order).` {
		t.Errorf("a parameter of the wrong type: %v", err)
	}
	if got := orders.ParamType("customerId"); got != "number" {
		t.Errorf("type %q", got)
	}
	profile, _ := set.Find("the profile")
	r, err = profile.Resolve(table, profile.Example)
	if err != nil || r.Get == nil || r.Get.PK != "CUST#7" || r.Get.SK != "PROFILE" {
		t.Fatalf("the profile resolved %+v %v; want a GetItem of CUST#7/PROFILE", r, err)
	}
	one, _ := set.Find("one order")
	if r, err := one.Resolve(table, one.Example); err != nil || r.Get == nil || r.Get.SK != "ORDER#2025-03-01#A17" {
		t.Fatalf("one order resolved %+v %v", r, err)
	}
}

func TestPatternEntityErrors(t *testing.T) {
	cases := []struct{ name, pattern, want string }{
		{"unknown entity", "  - name: p\n    entity: Ordr\n    example: {customerId: \"1\"}\n",
			`dynascope.yaml:20: pattern "p": entity "Ordr" is not declared (did you mean "Order"?); the entities are Customer, Order.`},
		{"a placeholder the entity lacks", "  - name: p\n    entity: Order\n    pk: \"CUST#{custId}\"\n    example: {custId: \"1\"}\n",
			`dynascope.yaml:21: pattern "p": pk uses {custId}, which entity Order does not declare; its parameters are customerId, orderDate, orderId, warehouseId.`},
		{"an example of the wrong type", "  - name: p\n    entity: Order\n    sk: {eq: \"ORDER#{orderDate}#{orderId}\"}\n    example: {customerId: \"1\", orderDate: \"March 1\", orderId: A}\n",
			`dynascope.yaml:22: pattern "p": example: orderDate is "March 1", which is not a date (YYYY-MM-DD) (entity Order).`},
		{"a missing parameter", "  - name: p\n    entity: Order\n    example: {}\n",
			`dynascope.yaml:21: pattern "p": placeholder {customerId} has no value in example`},
	}
	for _, c := range cases {
		_, err := ParsePatterns("dynascope.yaml", []byte(entitiesFile+c.pattern))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: got %v\nwant %s", c.name, err, c.want)
		}
	}
	noKeys := "table: App\n" + entitiesFile[strings.Index(entitiesFile, "entities:"):] + "  - name: p\n    entity: Order\n    example: {customerId: \"1\"}\n"
	if _, err := ParsePatterns("dynascope.yaml", []byte(noKeys)); err == nil || !strings.Contains(err.Error(), "it has no pk, and the file has no keys:") {
		t.Errorf("no keys: %v", err)
	}
}
