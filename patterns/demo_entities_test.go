package patterns

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/demodata"
	"dynascope/dynamo"
)

// textAttrs are an item's string attributes, as Match reads them.
func textAttrs(it dynamo.Item) map[string]string {
	out := map[string]string{}
	for k, v := range it {
		if s, ok := v.(*types.AttributeValueMemberS); ok {
			out[k] = s.Value
		}
	}
	return out
}

// 39.7: the demo's dynascope.yaml declares its entities, and every item of
// the demo (the seed and the traffic's writes) is of exactly one of them,
// with no drift, checked against the demo table's own keys.
func TestDemoEntitiesNameEveryDemoItem(t *testing.T) {
	set, err := LoadPatterns("../" + PatternsFile)
	if err != nil {
		t.Fatal(err)
	}
	spec := demodata.TableSpec("App")
	if err := set.CheckKeys(dynamo.Table{Name: spec.Name, PK: spec.PK, SK: spec.SK, Indexes: spec.GSIs}); err != nil {
		t.Fatal(err)
	}
	items := demodata.Items()
	traffic := demodata.Traffic(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	for step := range 6 {
		if step == demodata.DriftStep {
			// The traffic's one deliberate drift (ORDER|date|id, the old
			// way): of no entity, as check finds it.
			if m, ok := set.Entities.Match(textAttrs(traffic(step))); ok {
				t.Errorf("the old-way order is of %s", m.Name())
			}
			continue
		}
		items = append(items, traffic(step))
	}
	counts := map[string]int{}
	for _, it := range items {
		m, ok := set.Entities.Match(textAttrs(it))
		if !ok {
			t.Fatalf("the demo item %v is of no declared entity", textAttrs(it))
		}
		if len(m.Drift) > 0 {
			t.Errorf("%v: %s drifts: %q", textAttrs(it), m.Name(), m.Drift)
		}
		counts[m.Name()]++
	}
	if got := slices.Sorted(maps.Keys(counts)); !slices.Equal(got, []string{"Address", "Customer", "LineItem", "Order", "ProductVersion", "Shipment"}) {
		t.Errorf("entities seen %v (%v)", got, counts)
	}
	m, _ := set.Entities.Match(map[string]string{"PK": "CUST#42", "SK": "ORDER#2025-03-01#A17"})
	if m.Name() != "Order" || m.Decoded() != "customerId = 42, orderDate = 2025-03-01, orderId = A17" {
		t.Errorf("the article's order: %s %s", m.Name(), m.Decoded())
	}
}
