package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo/dynamotest"
	"dynascope/ui/pane"
)

// 37.9 against DynamoDB Local: ctrl+l on the empty prompt reads within the
// budget the prompt announces (one segment, at most 100 items and 1 RCU,
// as DynamoDB Local's own answers count it), nothing before it, and offers
// partitions that exist.
func TestPromptSampleHoldsItsBudget(t *testing.T) {
	api := dynamotest.SDK(t)
	ep := dynamotest.Endpoint(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const parts, per = 60, 5
	var batch []types.WriteRequest
	flush := func() {
		if _, err := api.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: batch}}); err != nil {
			t.Fatalf("batch write: %v", err)
		}
		batch = nil
	}
	for p := range parts {
		for i := range per {
			batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
				"PK": s(fmt.Sprintf("CUST#%d", p)), "SK": s(fmt.Sprintf("ORDER#%03d", i)), "note": s(strings.Repeat("x", 200)),
			}}})
			if len(batch) == 25 {
				flush()
			}
		}
	}
	client, _, tap := localClient(t, ep)
	hs := newHarnessOn(t, Options{Store: client, Table: table, Region: "us-east-1", Endpoint: ep}, 120, 35)
	if n := len(tap.Exchanges("Scan")) + len(tap.Exchanges("Query")); n != 0 {
		t.Fatalf("the empty prompt sent %d reads, want none", n)
	}
	hs.keys("ctrl+l")
	scans := tap.Exchanges("Scan")
	if len(scans) == 0 {
		t.Fatal("ctrl+l sent no Scan")
	}
	rcu, items := 0.0, 0
	for _, x := range scans {
		rcu += x.Capacity
		items += x.Count
		if strings.Contains(string(x.Request), "Segment") && !strings.Contains(string(x.Request), `"TotalSegments":1`) {
			t.Errorf("a Scan of more than one segment: %s", x.Request)
		}
	}
	if rcu > pane.PromptSampleRCU || items > pane.PromptSampleItems || items == 0 {
		t.Fatalf("the sample read %d items for %v RCU in %d Scans; the prompt announces at most %d items and %v RCU",
			items, rcu, len(scans), pane.PromptSampleItems, pane.PromptSampleRCU)
	}
	t.Logf("ctrl+l read %d items for %v RCU in %d Scans", items, rcu, len(scans))
	if len(hs.m.prompt.Sampled) == 0 {
		t.Fatalf("no partition offered:\n%s", hs.screen())
	}
	for _, sp := range hs.m.prompt.Sampled {
		var p int
		if _, err := fmt.Sscanf(sp.PK, "CUST#%d", &p); err != nil || p >= parts || sp.Items < 1 || sp.Items > per {
			t.Errorf("offered %+v, which the table does not hold", sp)
		}
	}
	hs.containsFlowing(fmt.Sprintf("a sample of %d items", items), "in the sample")
}
