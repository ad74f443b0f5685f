package cli

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo/dynamotest"
)

// 35.4: SIGTERM while seed's batches are in flight (the proxy holds their
// answers; DynamoDB Local has applied them). seed waits for the batches
// sent, says how many items reached the table — exactly what the table
// holds — and names the signal: no "time-out", no "cancelled".
func TestSeedStoppedBySIGTERMSaysWhatReachedTheTable(t *testing.T) {
	sdk := dynamotest.SDK(t)
	table := dynamotest.UniqueName("seed-sigterm")
	dynamotest.DeleteAtEnd(t, sdk, table)
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	p.Inject(dynamotest.Rule{Op: "BatchWriteItem", Fault: dynamotest.LateAnswer(400 * time.Millisecond)})
	_, stderr, status := signalAfter(t, p, "BatchWriteItem", 4, syscall.SIGTERM, "seed", "--endpoint-url", p.URL, "--table", table, "--demo")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := sdk.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(table), Select: types.SelectCount, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("seed table %s: stopped by SIGTERM; %d of ", table, out.Count)
	if status != exitInterrupted || !strings.Contains(stderr, want) || !strings.Contains(stderr, " items reached the table (acknowledged); seed again with --force") {
		t.Errorf("exit %d, stderr:\n%s\nwant %q", status, stderr, want)
	}
	if out.Count == 0 || strings.Contains(stderr, "time-out") || strings.Contains(stderr, "cancelled") {
		t.Errorf("%d items in the table; stderr:\n%s", out.Count, stderr)
	}
}
