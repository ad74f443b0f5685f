package patterns

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
)

const driftFile = `table: App
keys:
  table: PK S / SK S
  indexes: ["GSI1 GSI(GSI1PK S / GSI1SK S)"]
entities:
  - name: Customer
    keys: {PK: "CUST#{customerId}", SK: "PROFILE"}
    params: {customerId: number}
  - name: Order
    keys:
      PK: "CUST#{customerId}"
      SK: "ORDER#{orderDate}#{orderId}"
      GSI1PK: "WH#{warehouseId}"
      GSI1SK: "OPEN#{orderDate}#{orderId}"
    params: {customerId: number, orderDate: date, orderId: text, warehouseId: number}
    optional: [GSI1PK, GSI1SK]
  - name: LineItem
    keys: {PK: "ORDER#{orderId}", SK: "ITEM#{line}"}
    params: {orderId: text, line: number}
patterns:
  - name: profile
    pk: "CUST#{customerId}"
    example: {customerId: "1"}
`

func driftItem(kv ...string) dynamo.Item {
	it := dynamo.Item{}
	for i := 0; i+1 < len(kv); i += 2 {
		it[kv[i]] = &types.AttributeValueMemberS{Value: kv[i+1]}
	}
	return it
}

// Each kind of drift is found, counted and exemplified; what holds (an
// order in GSI1, a sparse order outside it) is none.
func TestDriftKinds(t *testing.T) {
	set, err := ParsePatterns("dynascope.yaml", []byte(driftFile))
	if err != nil {
		t.Fatal(err)
	}
	tbl, _ := set.KeysTable("App")
	if err := set.CheckEntities(tbl); err != nil {
		t.Fatal(err)
	}
	items := []dynamo.Item{
		driftItem("PK", "CUST#1", "SK", "PROFILE"),
		driftItem("PK", "CUST#1", "SK", "ORDER#2025-01-01#A1", "GSI1PK", "WH#1", "GSI1SK", "OPEN#2025-01-01#A1"),
		driftItem("PK", "CUST#1", "SK", "ORDER#2025-01-02#A2"),
		driftItem("PK", "CUST#1", "SK", "ORDER|2025-01-03|A3"),
		driftItem("PK", "CUST#2", "SK", "ORDER|2025-01-04|A4"),
		driftItem("PK", "CUST#1", "SK", "ORDER#2025-13-01#A5"),
		driftItem("PK", "CUST#1", "SK", "ORDER#2025-01-06#A6", "GSI1PK", "WH#2"),
		driftItem("PK", "CUST#1", "SK", "ORDER#2025-01-07#A7", "GSI1PK", "wh#2", "GSI1SK", "OPEN#2025-01-07#A7"),
		driftItem("PK", "x", "SK", "y"),
	}
	got := set.Drift(tbl, items, true)
	var lines []string
	for _, d := range got {
		lines = append(lines, string(d.Kind)+" "+d.Message()+" e.g. "+strings.Join(d.Examples, " · "))
	}
	want := []string{
		"unmatched-key ORDER|…: 2 items whose SK matches no declared template, an old delimiter? (| where Order's SK has #) e.g. CUST#1 / ORDER|2025-01-03|A3 · CUST#2 / ORDER|2025-01-04|A4",
		"unmatched-key x: 1 item whose PK matches no declared template e.g. x / y",
		`param-type 1 item of Order whose orderDate is not a date (YYYY-MM-DD) e.g. CUST#1 / ORDER#2025-13-01#A5 (orderDate = 2025-13-01)`,
		"missing-index-key 1 item of Order lacks GSI1SK, which Order declares: it is silently not in GSI1 (only GSI1PK is there) e.g. CUST#1 / ORDER#2025-01-06#A6",
		`missing-index-key 1 item of Order holds GSI1PK and GSI1SK otherwise than Order declares, so it is not in GSI1 (its GSI1PK is "wh#2", not of WH#{warehouseId}) e.g. CUST#1 / ORDER#2025-01-07#A7`,
		"entity-not-seen LineItem is declared, but no item of it is in the whole table (9 items) e.g. ",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("drift:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if got[0].Count != 2 || got[0].Line != 9 || got[5].Line != 17 {
		t.Errorf("counts and lines: %+v", got)
	}

	// The items that hold: no drift.
	if d := set.Drift(tbl, items[:3], true); len(d) != 1 || d[0].Kind != DriftUnseen {
		t.Errorf("clean items drift: %+v", d)
	}
	// Index keys not declared optional: an order without them is drift.
	strict, err := ParsePatterns("dynascope.yaml", []byte(strings.Replace(driftFile, "    optional: [GSI1PK, GSI1SK]\n", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := strict.CheckEntities(tbl); err != nil {
		t.Fatal(err)
	}
	if d := strict.Drift(tbl, []dynamo.Item{items[0], items[2], driftItem("PK", "ORDER#A2", "SK", "ITEM#1")}, false); len(d) != 1 ||
		d[0].Kind != DriftIndexKey || d[0].Message() != "1 item of Order lacks GSI1PK and GSI1SK, which Order declares: it is silently not in GSI1" {
		t.Errorf("index keys not optional: %+v", d)
	}
}
