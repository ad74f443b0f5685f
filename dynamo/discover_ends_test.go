package dynamo_test

import (
	"context"
	"fmt"
	"testing"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// A prefix type's last key is read only where a jump lands on it, so a
// type holding its bare label (METADATA beside METADATA#v01 …) can be
// found with its last key unread: its condition still selects exactly its
// items, no more (PROFILE after it) and no fewer.
func TestGroupConditionOfABareTypeWithoutItsLastKey(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	items := []dynamo.Item{{"PK": s("DOC#1"), "SK": s("METADATA")}, {"PK": s("DOC#1"), "SK": s("PROFILE")}, {"PK": s("DOC#1"), "SK": s("METADATA$")}}
	for i := range 40 {
		items = append(items, dynamo.Item{"PK": s("DOC#1"), "SK": s(fmt.Sprintf("METADATA#v%02d", i))})
	}
	batchPut(t, api, table, items)
	c, _ := connect(t)
	ctx := context.Background()
	d, err := c.Discover(ctx, dynamo.DiscoverInput{Table: table, PK: "DOC#1", OneWay: true})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, g := range d.Groups {
		if !g.Bare {
			continue
		}
		found = true
		if g.Last != "" {
			t.Errorf("the bare type's last key was read: %+v (the test needs it unread)", g)
		}
		p, err := c.Query(ctx, dynamo.QueryInput{Table: table, PK: "DOC#1", SK: dynamo.GroupCondition(g, "S"), CountOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if p.Request.Count != 41 {
			t.Errorf("%+v: its condition %+v counts %d items, want 41", g, dynamo.GroupCondition(g, "S"), p.Request.Count)
		}
	}
	if !found {
		t.Errorf("no bare type in %+v", d.Groups)
	}
}
