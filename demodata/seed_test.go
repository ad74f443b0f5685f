package demodata

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
)

// seedTable creates a uniquely named demo table through EnsureTable and
// deletes it when the test ends.
func seedTable(t *testing.T, api *dynamodb.Client) string {
	t.Helper()
	spec := TableSpec(dynamotest.UniqueName("demo"))
	dynamotest.DeleteAtEnd(t, api, spec.Name)
	if created, err := dynamo.EnsureTable(testCtx(t), api, spec); err != nil || !created {
		t.Fatalf("EnsureTable(%s) = %v, %v; want a new table", spec.Name, created, err)
	}
	return spec.Name
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// The demo data seeds into DynamoDB Local and answers its access patterns:
// the example customer, the latest order, the big customer over more than
// one page, and the open orders of a warehouse in GSI1.
func TestSeed(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := seedTable(t, api)
	items := Items()

	var calls, last int
	res, err := dynamo.Seed(testCtx(t), api, table, items, dynamo.SeedOptions{Progress: func(written, total int) {
		calls++
		if written < last || total != len(items) {
			t.Errorf("progress went %d -> %d of %d", last, written, total)
		}
		last = written
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("seeded %d demo items in %s: %d batches, %d retries, %.1f WCU", res.Written, res.Duration.Round(time.Millisecond), res.Batches, res.Retries, res.WCU)
	wantBatches := (len(items) + 24) / 25
	if res.Written != len(items) || res.Duplicates != 0 || res.Batches < wantBatches || res.WCU <= 0 {
		t.Errorf("result %+v; want %d written in at least %d batches with WCU reported", res, len(items), wantBatches)
	}
	if last != len(items) || calls != wantBatches {
		t.Errorf("progress called %d times ending at %d; want %d calls ending at %d", calls, last, wantBatches, len(items))
	}

	c := dynamo.NewWithAPI(api, dynamo.Options{Endpoint: dynamotest.Endpoint(t)})
	t.Run("customer with orders", func(t *testing.T) {
		p, err := c.Query(testCtx(t), dynamo.QueryInput{Table: table, PK: Partition})
		if err != nil {
			t.Fatal(err)
		}
		var sks []string
		for _, it := range p.Items {
			sks = append(sks, demoString(it, "SK"))
		}
		if want := []string{"ORDER#2025-01-09#A11", "ORDER#2025-03-01#A17", "PROFILE"}; !slices.Equal(sks, want) || p.LastEvaluatedKey != nil {
			t.Errorf("Query %s = %q (more: %v); want %q", Partition, sks, p.LastEvaluatedKey != nil, want)
		}
	})
	t.Run("latest order", func(t *testing.T) {
		p, err := c.Query(testCtx(t), dynamo.QueryInput{Table: table, PK: Partition,
			SK: dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"ORDER#"}}, Reverse: true, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Items) != 1 || itemcodec.KeyString(p.Items[0]["total"]) != "35" || p.Request.Capacity.Total != 0.5 {
			t.Errorf("latest order: %d items, first %v, capacity %+v; want one item with total 35 costing 0.5", len(p.Items), p.Items, p.Request.Capacity)
		}
	})
	t.Run("big customer spans pages", func(t *testing.T) {
		var start dynamo.Item
		pages, count := 0, 0
		for {
			p, err := c.Query(testCtx(t), dynamo.QueryInput{Table: table, PK: demoBigCustomer, StartKey: start})
			if err != nil {
				t.Fatal(err)
			}
			pages++
			count += len(p.Items)
			if p.LastEvaluatedKey == nil {
				break
			}
			start = p.LastEvaluatedKey
		}
		t.Logf("Query %s: %d items in %d pages", demoBigCustomer, count, pages)
		if count != demoBigOrders+1 || pages < 2 {
			t.Errorf("Query %s read %d items in %d pages; want %d items over 2 or more pages", demoBigCustomer, count, pages, demoBigOrders+1)
		}
	})
	t.Run("open orders per warehouse", func(t *testing.T) {
		want := 0
		for _, it := range items {
			if demoString(it, "GSI1PK") == "WH#3" {
				want++
			}
		}
		p, err := c.Query(testCtx(t), dynamo.QueryInput{Table: table, Index: "GSI1", PK: "WH#3"})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Items) != want || want == 0 {
			t.Errorf("GSI1 WH#3 holds %d items; want the %d open orders", len(p.Items), want)
		}
		for _, it := range p.Items {
			if demoString(it, "status") != "OPEN" {
				t.Errorf("GSI1 holds %s with status %s", demoString(it, "SK"), demoString(it, "status"))
			}
		}
	})
}
