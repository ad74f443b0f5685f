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
