package dynamo

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo/dynamotest"
)

// sdkVia is an SDK client that talks to DynamoDB Local through url (a
// fault proxy), without the SDK's retries: each request is one attempt.
func sdkVia(url string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(url),
		Credentials: credentials.NewStaticCredentialsProvider("local", "local", ""), RetryMaxAttempts: 1})
}

// 35.2: an answer whose UnprocessedItems holds an item the batch never
// held stops the load in one sentence; the foreign item is never written,
// and the batch whose answer cannot be trusted is in doubt, not counted.
func TestSeedRefusesAForeignUnprocessedItem(t *testing.T) {
	t.Parallel()
	sdk := dynamotest.SDK(t)
	table := seedTable(t, sdk, TableSpec{PK: KeyAttr{Name: "PK", Type: "S"}, SK: &KeyAttr{Name: "SK", Type: "S"}})
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	p.Inject(dynamotest.Rule{Op: "BatchWriteItem", Count: 1, Fault: dynamotest.ForeignUnprocessed(`{"PK":{"S":"FOREIGN"},"SK":{"S":"X"}}`)})
	res, err := Seed(testCtx(t), sdkVia(p.URL), table, simpleItems(30, "A"), SeedOptions{Workers: 1})
	var stop *SeedStopError
	if !errors.As(err, &stop) || !strings.Contains(err.Error(), "the answer names as unprocessed an item never sent; not written; 0 of 30 items reached the table") {
		t.Fatalf("Seed: %v", err)
	}
	if len(err.Error()) > 300 {
		t.Errorf("the sentence is %d characters: %s", len(err.Error()), err)
	}
	if res.Written != 0 || res.InDoubt != 25 || p.Count("BatchWriteItem") != 1 {
		t.Errorf("result %+v after %d BatchWriteItem; want 25 in doubt, 1 sent", res, p.Count("BatchWriteItem"))
	}
	out, err := sdk.GetItem(testCtx(t), &dynamodb.GetItemInput{TableName: aws.String(table), Key: Item{"PK": strAttr("FOREIGN"), "SK": strAttr("X")}, ConsistentRead: aws.Bool(true)})
	if err != nil || out.Item != nil {
		t.Errorf("the foreign item was written (%v)", err)
	}
}

// checkUnprocessed against every shape of a broken answer.
func TestCheckUnprocessed(t *testing.T) {
	items := simpleItems(3, "A")
	sent := putRequests(items)
	for _, tc := range []struct {
		name string
		left map[string][]types.WriteRequest
		bad  string
	}{
		{"none", nil, ""},
		{"a subset", map[string][]types.WriteRequest{"T": putRequests(items[1:])}, ""},
		{"all", map[string][]types.WriteRequest{"T": sent}, ""},
		{"foreign item", map[string][]types.WriteRequest{"T": putRequests(simpleItems(1, "B"))}, "never sent"},
		{"one twice", map[string][]types.WriteRequest{"T": putRequests([]Item{items[0], items[0]})}, "never sent"},
		{"same key, other value", map[string][]types.WriteRequest{"T": putRequests([]Item{{"PK": items[0]["PK"], "SK": items[0]["SK"]}})}, "never sent"},
		{"a delete", map[string][]types.WriteRequest{"T": {{DeleteRequest: &types.DeleteRequest{Key: Item{"PK": items[0]["PK"], "SK": items[0]["SK"]}}}}}, "never sent"},
		{"another table", map[string][]types.WriteRequest{"U": sent[:1]}, "items of table U"},
	} {
		err := checkUnprocessed("seed table T", "T", sent, tc.left)
		if (tc.bad == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.bad) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

func putRequests(items []Item) []types.WriteRequest {
	out := make([]types.WriteRequest, len(items))
	for i, it := range items {
		out[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: it}}
	}
	return out
}

// 35.4: a batch held by a slow link past its time-out and delivered to
// DynamoDB Local after: seed counts only what was acknowledged, says the
// batch is in doubt (it landed), never that its items were not written.
func TestSeedCountsALostBatchInDoubt(t *testing.T) {
	t.Parallel()
	sdk := dynamotest.SDK(t)
	table := seedTable(t, sdk, TableSpec{PK: KeyAttr{Name: "PK", Type: "S"}, SK: &KeyAttr{Name: "SK", Type: "S"}})
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	late := dynamotest.DeliverLate(1500 * time.Millisecond)
	p.Inject(dynamotest.Rule{Op: "BatchWriteItem", Count: 1, Fault: late})
	o := SeedOptions{Workers: 1, retry: seedRetryPolicy{attempts: 3, base: time.Millisecond, max: 4 * time.Millisecond, call: 500 * time.Millisecond}}
	res, err := Seed(testCtx(t), sdkVia(p.URL), table, simpleItems(60, "A"), o)
	var stop *SeedStopError
	if !errors.As(err, &stop) || stop.Stopped {
		t.Fatalf("Seed: %v", err)
	}
	want := "; 0 of 60 items reached the table (acknowledged), 25 more in 1 batch in doubt (may have been applied; first "
	if !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "cancelled") {
		t.Errorf("the sentence: %v", err)
	}
	if res.Written != 0 || res.InDoubt != 25 || len(res.InDoubtBatches) != 1 {
		t.Errorf("result %+v", res)
	}
	if !late.WaitLanded(10 * time.Second) {
		t.Fatal("the held batch never reached DynamoDB Local")
	}
	if n := countItems(t, sdk, table); n != 25 {
		t.Errorf("the table holds %d items after the late batch; want the 25 in doubt", n)
	}
}

// 35.4: a table that stays CREATING is no silent wait: EnsureTableSaying
// says what it waits for and its bound, and gives up at the bound in one
// sentence. (Not parallel: it shortens the package's wait bounds.)
func TestEnsureTableSaysWhatItWaitsFor(t *testing.T) {
	sdk := dynamotest.SDK(t)
	spec := TableSpec{PK: KeyAttr{Name: "PK", Type: "S"}, SK: &KeyAttr{Name: "SK", Type: "S"}}
	spec.Name = seedTable(t, sdk, spec)
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	p.Inject(dynamotest.Rule{Op: "DescribeTable", Fault: dynamotest.TableStatus("CREATING")})
	defer func(w, a, e time.Duration) { tableActiveWait, waitNoteAfter, waitNoteEvery = w, a, e }(tableActiveWait, waitNoteAfter, waitNoteEvery)
	tableActiveWait, waitNoteAfter, waitNoteEvery = 8*time.Second, 200*time.Millisecond, 2*time.Second
	var said []string
	began := time.Now()
	_, err := EnsureTableSaying(testCtx(t), sdkVia(p.URL), spec, func(s string) { said = append(said, s) })
	if took := time.Since(began); err == nil || took > 40*time.Second {
		t.Fatalf("EnsureTableSaying: %v after %s", err, took)
	}
	if want := "table " + spec.Name + " is not ACTIVE after 8s (it is CREATING); wait until it is and retry."; err.Error() != want && !strings.Contains(err.Error(), "did not become ACTIVE within 8s") {
		t.Errorf("the sentence: %v", err)
	}
	if len(said) < 1 || len(said) > 5 || !strings.HasPrefix(said[0], "waiting for "+spec.Name+" to become ACTIVE (it is CREATING), ") || !strings.HasSuffix(said[0], " so far, at most 8s") {
		t.Errorf("said %q; %v", said, err)
	}
}
