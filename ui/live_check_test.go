package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo/dynamotest"
)

// An item inserted, changed and deleted within one GetRecords batch that
// the proxy reverses: the REMOVE comes first and is kept, the two writes
// before it are dropped as out of order and said in the pane; the items
// pane never shows the deleted item as present (it did: INSERT applied
// last).
func TestLivePaneReversedBatch(t *testing.T) {
	hs, p, put, table := liveRig(t)
	cmd := hs.step(keyPress("T"))
	cmd = nextLive(t, hs, cmd, func() bool { return hs.m.live.polls > 0 })
	p.Inject(dynamotest.Rule{Op: "GetRecords", Count: 1, Fault: dynamotest.Held(2*time.Second, dynamotest.ReverseRecords())})
	gets := p.Count("GetRecords")
	deadline := time.Now().Add(10 * time.Second)
	for p.Count("GetRecords") == gets && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	key := map[string]types.AttributeValue{"PK": sv("CUST#42"), "SK": sv("ORDER#2025-05-01#A30")}
	put(map[string]types.AttributeValue{"PK": sv("CUST#42"), "SK": sv("ORDER#2025-05-01#A30"), "total": nv("5")})
	put(map[string]types.AttributeValue{"PK": sv("CUST#42"), "SK": sv("ORDER#2025-05-01#A30"), "total": nv("6")})
	if _, err := dynamotest.SDK(t).DeleteItem(context.Background(), &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key}); err != nil {
		t.Fatal(err)
	}
	nextLive(t, hs, cmd, func() bool { return len(hs.m.live.lines) >= 2 })
	for _, it := range memItems(hs.m.items) {
		if keyOf(it, "SK") == "ORDER#2025-05-01#A30" {
			t.Errorf("the deleted item shows as present: %v", it)
		}
	}
	var text []string
	for _, l := range hs.m.live.lines {
		text = append(text, l.Text)
	}
	joined := strings.Join(text, "\n")
	if !strings.Contains(joined, "REMOVE") || strings.Contains(joined, "INSERT") || !strings.Contains(joined, "came again or out of order") {
		t.Errorf("live lines:\n%s", joined)
	}
	hs.contains("repeated or reordered records dropped")
	hs.send(keyPress("q"))
}
