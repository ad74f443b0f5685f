package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/exp/golden"

	"dynascope/dynamo"
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

// scriptedStream plays a tail that has already checked its answers (the
// checks themselves run against DynamoDB Local above): a notice, then a
// record; it keeps the screen the same every run for the goldens.
type scriptedStream struct {
	notice dynamo.TailNotice
	recs   []dynamo.StreamRecord
}

func (scriptedStream) Stream(ctx context.Context, table string) (dynamo.StreamInfo, error) {
	return dynamo.StreamInfo{Table: table, ARN: "arn:aws:dynamodb:us-east-1:000000000000:table/" + table + "/stream/2026-12-01T00:00:00.000",
		ViewType: "NEW_AND_OLD_IMAGES", PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}, nil
}

func (s scriptedStream) Tail(ctx context.Context, info dynamo.StreamInfo, o dynamo.TailOptions, emit func([]dynamo.StreamRecord) error) error {
	o.OnNotice(s.notice)
	emit(s.recs)
	<-ctx.Done()
	return ctx.Err()
}

// The live pane with a notice of reordered records and the REMOVE kept,
// at the two usual sizes.
func TestGoldenLiveNotice(t *testing.T) {
	key := dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17")}
	script := scriptedStream{
		notice: dynamo.TailNotice{Text: "a record of shard shardId-00000001 came again or out of order (sequence number 000000000000000000101, at or below 000000000000000000103 read): such records are dropped and counted.",
			Counts: dynamo.TailCounts{Repeated: 2}},
		recs: []dynamo.StreamRecord{{Event: "REMOVE", Time: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), Sequence: "000000000000000000103", Shard: "shardId-00000001", Keys: key, Old: key}},
	}
	for _, sz := range [][2]int{{120, 35}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			hs := newHarness(t, Options{Table: "App", PK: "CUST#42", Region: "us-east-1", Endpoint: "http://127.0.0.1:8000", Streams: script}, sz[0], sz[1],
				canned{items: example(), cap: halfRCU()})
			cmd := hs.step(keyPress("T"))
			nextLive(t, hs, cmd, func() bool { return len(hs.m.live.lines) >= 2 })
			hs.contains("REMOVE", "came again or out of order")
			for _, it := range memItems(hs.m.items) {
				if keyOf(it, "SK") == "ORDER#2025-03-01#A17" {
					t.Errorf("the removed item shows as present")
				}
			}
			golden.RequireEqual(t, []byte(hs.screen()))
		})
	}
}
