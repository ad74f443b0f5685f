package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
	"dynascope/keys"
)

// batchPut writes items 25 at a time; sample tests need hundreds of them.
func batchPut(t *testing.T, api *dynamodb.Client, table string, items []dynamo.Item) {
	t.Helper()
	for len(items) > 0 {
		n := min(25, len(items))
		reqs := make([]types.WriteRequest, n)
		for i, it := range items[:n] {
			reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: it}}
		}
		out, err := api.BatchWriteItem(context.Background(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs}})
		if err != nil {
			t.Fatalf("batch write: %v", err)
		}
		if len(out.UnprocessedItems) > 0 {
			t.Fatalf("unprocessed items")
		}
		items = items[n:]
	}
}

// customers makes n customer partitions, each with a profile and orders.
func customers(n, orders, pad int) []dynamo.Item {
	var items []dynamo.Item
	for c := range n {
		pk := fmt.Sprintf("CUST#%d", c)
		items = append(items, dynamo.Item{"PK": s(pk), "SK": s("PROFILE"), "_et": s("Customer"), "pad": s(strings.Repeat("p", pad))})
		for o := range orders {
			items = append(items, dynamo.Item{"PK": s(pk), "SK": s(fmt.Sprintf("ORDER#2025-01-%02d#%d", o+1, c)), "_et": s("Order"), "pad": s(strings.Repeat("o", pad))})
		}
	}
	return items
}

func TestSampleWholeTable(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	batchPut(t, api, table, customers(40, 4, 100))
	c, log := connect(t)
	var mu sync.Mutex
	var progress []dynamo.SampleProgress
	smp, err := c.Sample(context.Background(), dynamo.SampleInput{Table: table, Progress: func(p dynamo.SampleProgress) {
		mu.Lock()
		progress = append(progress, p)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	// DescribeTable says the table fits the caps and one page: it is read
	// whole in one Scan, without a Limit, at what reading it costs.
	if smp.Stop != dynamo.StopComplete || len(smp.Items) != 200 || smp.Segments != 1 || smp.MaxItems != dynamo.DefaultSampleItems || len(smp.Requests) != 1 {
		t.Fatalf("stop %s, %d items, %d segments", smp.Stop, len(smp.Items), smp.Segments)
	}
	// Keys only, plus the library attribute: no "pad".
	for _, it := range smp.Items {
		if it.Library.Library != keys.DynamoDBToolbox || it.Size != 0 || !strings.HasPrefix(it.PK, "CUST#") {
			t.Fatalf("item %+v", it)
		}
	}
	var sum float64
	pageItems := 0
	for _, r := range smp.Requests {
		if r.Operation != "Scan" || r.Table != table || !strings.HasPrefix(r.KeyCondition, "segment ") || !strings.HasSuffix(r.KeyCondition, "of 1, keys only") || r.Limit != 0 {
			t.Errorf("request %+v", r)
		}
		sum += r.Capacity.Total
	}
	for _, p := range smp.Pages {
		pageItems += p.Count
	}
	scans := 0
	for _, r := range *log {
		if r.Operation == "Scan" {
			scans++
		}
	}
	if scans != len(smp.Requests) || smp.Capacity().Total != sum || sum == 0 || pageItems != 200 || len(smp.Pages) != len(smp.Requests) {
		t.Errorf("%d scans logged, %d requests, capacity %v/%v, %d page items", scans, len(smp.Requests), smp.Capacity().Total, sum, pageItems)
	}
	// Each report carries the request it follows, in order, each once.
	for i, p := range progress {
		if p.Requests != i+1 || p.Request.Seq != smp.Requests[i].Seq || p.Request.Capacity.Total != smp.Requests[i].Capacity.Total {
			t.Errorf("report %d: %d requests, request seq %d, want %d", i+1, p.Requests, p.Request.Seq, smp.Requests[i].Seq)
		}
	}
	last := progress[len(progress)-1]
	if len(progress) != len(smp.Requests) || last.Items != 200 || last.SegmentsDone != 1 || last.Fraction() != 1 {
		t.Errorf("progress %+v (%d calls)", last, len(progress))
	}

	l := smp.Layout(0)
	if len(l.Families) != 1 || l.Families[0].Pattern != "CUST#*" || l.Families[0].Partitions != 40 || len(l.Families[0].Types) != 2 {
		t.Fatalf("layout %+v", l.Families)
	}
	if ty := l.Families[0].Types[0]; ty.Label != "ORDER (dynamodb-toolbox: Order)" || ty.Items != 160 || ty.Partitions != 40 {
		t.Errorf("order type %+v", ty)
	}
}

func TestSampleCaps(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	batchPut(t, api, table, customers(60, 4, 2000)) // 300 items of about 2 KB
	c, _ := connect(t)

	smp, err := c.Sample(context.Background(), dynamo.SampleInput{Table: table, MaxItems: 50})
	if err != nil {
		t.Fatal(err)
	}
	if smp.Stop != dynamo.StopMaxItems || len(smp.Items) != 50 {
		t.Errorf("item cap: stop %s, %d items", smp.Stop, len(smp.Items))
	}

	for _, maxRCU := range []float64{0.5, 5, 20} {
		smp, err = c.Sample(context.Background(), dynamo.SampleInput{Table: table, MaxRCU: maxRCU, Segments: 3})
		if err != nil {
			t.Fatal(err)
		}
		got := smp.Capacity().Total
		// Items of one size: the cap holds (CapSizer sizes each page).
		if smp.Stop != dynamo.StopMaxRCU || got > maxRCU || len(smp.Items) == 0 {
			t.Errorf("RCU cap %v: stop %s, %v RCU, %d items", maxRCU, smp.Stop, got, len(smp.Items))
		}
		t.Logf("RCU cap %v: %v RCU, %d items, %d requests", maxRCU, got, len(smp.Items), len(smp.Requests))
	}

	_, err = c.Sample(context.Background(), dynamo.SampleInput{Table: table, Segments: 65})
	if err == nil || err.Error() != "the number of segments must be between 1 and 64, not 65." {
		t.Errorf("segments: %v", err)
	}
}

func TestSampleCancelKeepsPartialResults(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	batchPut(t, api, table, customers(100, 4, 10))
	c, _ := connect(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	smp, err := c.Sample(ctx, dynamo.SampleInput{Table: table, PageLimit: 20, Progress: func(p dynamo.SampleProgress) {
		if p.Items >= 40 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || smp.Stop != dynamo.StopCancelled {
		t.Fatalf("err %v, stop %s", err, smp.Stop)
	}
	if len(smp.Items) < 40 || len(smp.Items) >= 500 || len(smp.Requests) == 0 {
		t.Errorf("partial sample: %d items, %d requests", len(smp.Items), len(smp.Requests))
	}
	if l := smp.Layout(0); l.Items != len(smp.Items) || len(l.Families) != 1 {
		t.Errorf("partial layout %+v", l)
	}
}

func TestSampleIndexAndSizes(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	def := dynamotest.PKSK()
	def.AttributeDefinitions = append(def.AttributeDefinitions,
		types.AttributeDefinition{AttributeName: aws.String("GSI1PK"), AttributeType: "S"},
		types.AttributeDefinition{AttributeName: aws.String("GSI1SK"), AttributeType: "S"})
	def.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{
		IndexName:  aws.String("GSI1"),
		KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("GSI1PK"), KeyType: "HASH"}, {AttributeName: aws.String("GSI1SK"), KeyType: "RANGE"}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
	}}
	table := dynamotest.Table(t, api, def)
	big := strings.Repeat("x", 350*1024)
	put(t, api, table,
		dynamo.Item{"PK": s("DOC#1"), "SK": s("BODY"), "body": s(big), "_et": s("Doc")},
		dynamo.Item{"PK": s("DOC#1"), "SK": s("META"), "GSI1PK": s("WH#1"), "GSI1SK": s("OPEN#2025-01-01")},
		dynamo.Item{"PK": s("DOC#2"), "SK": s("META"), "GSI1PK": s("WH#1"), "GSI1SK": s("OPEN#2025-01-02")},
	)
	c, _ := connect(t)
	ctx := context.Background()

	// A KEYS_ONLY index: only its keys are projected, or DynamoDB refuses.
	smp, err := c.Sample(ctx, dynamo.SampleInput{Table: table, Index: "GSI1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(smp.Items) != 2 || smp.Items[0].PK != "WH#1" || smp.Keys.PK.Name != "GSI1PK" || smp.Requests[0].Index != "GSI1" {
		t.Errorf("index sample %+v", smp.Items)
	}

	// Keys only, one item per page: the page's capacity proves the size.
	smp, err = c.Sample(ctx, dynamo.SampleInput{Table: table, PageLimit: 1, Segments: 1})
	if err != nil {
		t.Fatal(err)
	}
	l := smp.Layout(0)
	if len(l.Findings) != 1 || l.Findings[0].Rule != keys.RuleNearSizeLimit || l.Findings[0].Example.SK != "BODY" ||
		!strings.Contains(l.Findings[0].Message, "from the read capacity of its Scan page") {
		t.Errorf("page-inferred size: %+v", l.Findings)
	}

	// Whole items: exact sizes, same capacity.
	full, err := c.Sample(ctx, dynamo.SampleInput{Table: table, PageLimit: 1, Segments: 1, ItemSizes: true})
	if err != nil {
		t.Fatal(err)
	}
	l = full.Layout(0)
	want := itemcodec.ItemSize(dynamo.Item{"PK": s("DOC#1"), "SK": s("BODY"), "body": s(big), "_et": s("Doc")})
	if len(l.Findings) != 1 || !strings.Contains(l.Findings[0].Message, "the largest is \"DOC#1\" / \"BODY\"") || full.Items[0].Size+full.Items[1].Size+full.Items[2].Size < want {
		t.Errorf("measured size: %+v %+v", l.Findings, full.Items)
	}
	if full.Capacity().Total != smp.Capacity().Total || !strings.HasSuffix(full.Requests[0].KeyCondition, "whole items") {
		t.Errorf("capacity keys-only %v, whole items %v", smp.Capacity().Total, full.Capacity().Total)
	}
}

// A server that answers every Scan page with nothing, at 0 RCU and with a
// new key each time: the sample counts each page at DynamoDB's minimum of
// 0.5 RCU against its cap and stops there. Before, it read on for ever (the
// overview sat at 0%).
func TestSampleFreeEndlessPagesStopAtCap(t *testing.T) {
	t.Parallel()
	r := newRig(t, dynamo.Options{MaxAttempts: 1})
	// 400 pages at most: an end should the cap not hold.
	r.p.Inject(dynamotest.Rule{Op: "Scan", Count: 400, Fault: dynamotest.FreeEndlessScan()})
	smp, err := r.c.Sample(context.Background(), dynamo.SampleInput{Table: r.table, MaxRCU: 5, Segments: 2})
	if err != nil {
		t.Fatal(err)
	}
	if smp.Stop != dynamo.StopMaxRCU || len(smp.Requests) > 12 || r.p.Count("Scan") != len(smp.Requests) {
		t.Errorf("stop %s after %d requests (%d reached the server), want max-rcu after 10", smp.Stop, len(smp.Requests), r.p.Count("Scan"))
	}
}
