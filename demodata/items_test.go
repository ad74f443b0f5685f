package demodata

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/itemcodec"
)

func demoString(it dynamo.Item, name string) string {
	if s, ok := it[name].(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

func TestItemsDeterministic(t *testing.T) {
	t.Parallel()
	a, b := Items(), Items()
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two calls of DemoItems gave different items")
	}
	if len(a) == 0 || len(a) > 30000 {
		t.Fatalf("DemoItems gave %d items; want some, and well under 30,000", len(a))
	}
}

func TestExamplePartition(t *testing.T) {
	t.Parallel()
	var sks []string
	var items []dynamo.Item
	for _, it := range Items() {
		if demoString(it, "PK") == Partition {
			sks = append(sks, demoString(it, "SK"))
			items = append(items, it)
		}
	}
	slices.Sort(sks)
	want := []string{"ORDER#2025-01-09#A11", "ORDER#2025-03-01#A17", "PROFILE"}
	if !slices.Equal(sks, want) {
		t.Fatalf("partition %s holds %q; want exactly %q", Partition, sks, want)
	}
	// The article's example, attribute for attribute.
	wantItems := map[string]dynamo.Item{
		"PROFILE":              {"PK": demoS("CUST#42"), "SK": demoS("PROFILE"), "name": demoS("Ann")},
		"ORDER#2025-01-09#A11": {"PK": demoS("CUST#42"), "SK": demoS("ORDER#2025-01-09#A11"), "total": demoN("20")},
		"ORDER#2025-03-01#A17": {"PK": demoS("CUST#42"), "SK": demoS("ORDER#2025-03-01#A17"), "total": demoN("35")},
	}
	for _, it := range items {
		if w := wantItems[demoString(it, "SK")]; !reflect.DeepEqual(it, w) {
			t.Errorf("item %s = %s; want %s", demoString(it, "SK"), itemcodec.DynamoJSON(it), itemcodec.DynamoJSON(w))
		}
	}
	var a17 []string
	for _, it := range Items() {
		if demoString(it, "PK") == "ORDER#A17" {
			a17 = append(a17, demoString(it, "SK"))
		}
	}
	// The pattern "order with line items" runs on A17 and promises line
	// items and shipments: A17 has both.
	if want := []string{"ITEM#1", "ITEM#2", "SHIPMENT#2025-03-03"}; !slices.Equal(a17, want) {
		t.Errorf("partition ORDER#A17 holds %q; want %q", a17, want)
	}
}

func TestUniqueKeys(t *testing.T) {
	t.Parallel()
	seen := map[[2]string]bool{}
	for _, it := range Items() {
		k := [2]string{demoString(it, "PK"), demoString(it, "SK")}
		if k[0] == "" || k[1] == "" {
			t.Fatalf("item without a string PK and SK: %s", itemcodec.DynamoJSON(it))
		}
		if seen[k] {
			t.Fatalf("duplicate primary key %q", k)
		}
		seen[k] = true
	}
}

func TestBigPartitionSpansPages(t *testing.T) {
	t.Parallel()
	bytes, orders := 0, 0
	for _, it := range Items() {
		if demoString(it, "PK") != demoBigCustomer {
			continue
		}
		bytes += itemcodec.ItemSize(it)
		if strings.HasPrefix(demoString(it, "SK"), "ORDER#") {
			orders++
		}
	}
	if bytes <= 1_500_000 {
		t.Errorf("partition %s is %d bytes; want more than 1.5 MB so a Query needs several 1 MB pages", demoBigCustomer, bytes)
	}
	if orders != demoBigOrders {
		t.Errorf("partition %s holds %d orders; want %d", demoBigCustomer, orders, demoBigOrders)
	}
}

func TestGSI1HoldsExactlyOpenOrders(t *testing.T) {
	t.Parallel()
	open := 0
	warehouses := map[string]int{}
	for _, it := range Items() {
		sk := demoString(it, "SK")
		isOpen := demoString(it, "status") == "OPEN"
		_, hasPK := it["GSI1PK"]
		_, hasSK := it["GSI1SK"]
		if isOpen != hasPK || isOpen != hasSK {
			t.Fatalf("item %s/%s: status %q but GSI1PK present %v, GSI1SK present %v", demoString(it, "PK"), sk, demoString(it, "status"), hasPK, hasSK)
		}
		if !isOpen {
			continue
		}
		open++
		if !strings.HasPrefix(sk, "ORDER#") {
			t.Fatalf("open item %s is not an order", sk)
		}
		// ORDER#<date>#<id> -> OPEN#<date>#<id>
		if want := "OPEN#" + strings.TrimPrefix(sk, "ORDER#"); demoString(it, "GSI1SK") != want {
			t.Errorf("order %s has GSI1SK %q; want %q", sk, demoString(it, "GSI1SK"), want)
		}
		wh := demoString(it, "GSI1PK")
		if !slices.Contains([]string{"WH#1", "WH#2", "WH#3", "WH#4", "WH#5"}, wh) {
			t.Errorf("order %s is in warehouse %q; want WH#1..WH#5", sk, wh)
		}
		warehouses[wh]++
	}
	if open == 0 || len(warehouses) != demoWarehouses {
		t.Errorf("%d open orders over %d warehouses; want some in each of %d", open, len(warehouses), demoWarehouses)
	}
}

func TestOrderShape(t *testing.T) {
	t.Parallel()
	ids := map[string]bool{}
	lineItems := map[string]int{}
	for _, it := range Items() {
		pk, sk := demoString(it, "PK"), demoString(it, "SK")
		if strings.HasPrefix(pk, "ORDER#") && strings.HasPrefix(sk, "ITEM#") {
			lineItems[strings.TrimPrefix(pk, "ORDER#")]++
		}
		if !strings.HasPrefix(pk, "CUST#") || !strings.HasPrefix(sk, "ORDER#") {
			continue
		}
		parts := strings.Split(sk, "#") // ORDER, date, id
		if len(parts) != 3 || len(parts[1]) != 10 || parts[1] < "2024-01-01" || parts[1] > "2025-12-31" {
			t.Fatalf("order key %q is not ORDER#<yyyy-mm-dd 2024–2025>#<id>", sk)
		}
		if ids[parts[2]] {
			t.Fatalf("order id %s used twice", parts[2])
		}
		ids[parts[2]] = true
	}
	for id := range ids {
		if lineItems[id] == 0 {
			t.Errorf("order %s has no line items in partition ORDER#%s", id, id)
		}
	}
}
