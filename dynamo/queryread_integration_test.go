package dynamo_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
)

// ReadQuery against DynamoDB Local: one read to the end equals a read
// stopped by its page cap and resumed from its go-on key; a limit met is
// no stop short; each page's Limit is what is left of it.
func TestReadQueryAgainstLocal(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	var want []string
	for i := range 30 {
		sk := fmt.Sprintf("ITEM#%02d", i)
		put(t, api, table, dynamo.Item{"PK": s("P#1"), "SK": s(sk)})
		want = append(want, sk)
	}
	put(t, api, table, dynamo.Item{"PK": s("P#2"), "SK": s("ITEM#00")})
	c, _ := connect(t)
	ctx := context.Background()
	q := dynamo.QueryInput{Table: table, PK: "P#1", Limit: 7}
	var got []string
	keep := func(p dynamo.Page) error {
		for _, it := range p.Items {
			got = append(got, itemcodec.KeyString(it["SK"]))
		}
		return nil
	}

	whole, err := c.ReadQuery(ctx, dynamo.QueryRead{Query: q, OnPage: keep})
	if err != nil || whole.Stop != dynamo.StopComplete || whole.Count != 30 || whole.LastKey != nil || whole.GoOn() != nil {
		t.Fatalf("whole read: %v, %+v", err, whole)
	}
	if !slices.Equal(got, want) || whole.Pages != 5 || whole.Capacity().Total <= 0 {
		t.Fatalf("whole read: %d pages, %v", whole.Pages, got)
	}

	got = nil
	from := q
	for runs := 1; ; runs++ {
		r, err := c.ReadQuery(ctx, dynamo.QueryRead{Query: from, MaxPages: 2, OnPage: keep})
		if err != nil {
			t.Fatal(err)
		}
		if r.GoOn() == nil {
			if r.Stop != dynamo.StopComplete || runs != 3 {
				t.Fatalf("run %d ended with %q", runs, r.Stop)
			}
			break
		}
		if r.Stop != dynamo.StopPages || r.Pages != 2 {
			t.Fatalf("run %d: %+v", runs, r)
		}
		from.StartKey = r.GoOn()
	}
	if !slices.Equal(got, want) {
		t.Errorf("resumed: %v", got)
	}

	var limits []int32
	limited, err := c.ReadQuery(ctx, dynamo.QueryRead{Query: dynamo.QueryInput{Table: table, PK: "P#1", Limit: 4}, MaxItems: 10,
		OnPage: func(p dynamo.Page) error { limits = append(limits, p.Request.Limit); return nil }})
	if err != nil || limited.Stop != dynamo.StopLimit || limited.Count != 10 || fmt.Sprint(limits) != "[4 4 2]" || limited.LastKey == nil || limited.GoOn() != nil {
		t.Errorf("limited: %v, limits %v, %+v", err, limits, limited)
	}
}
