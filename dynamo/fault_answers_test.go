package dynamo_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
)

// answerFaults are the answers DynamoDB never sends, with what the sentence
// must say about each. Every one used to pass as a real answer (an empty or
// short page, the previous attribute's value) or as the SDK's raw text.
var answerFaults = []struct {
	fault     dynamotest.Fault
	says      string
	transient bool // retried, as damage in transit may be
}{
	{dynamotest.EmptyBody200, "with HTTP 200 with an empty body", true},
	{dynamotest.EmptyObject200, "with no Count or no ScannedCount", false},
	{dynamotest.HTML200, `with HTTP 200 with a web page ("<!DOCTYPE html><html><body><h1>Welcome</…") instead of JSON`, true},
	{dynamotest.MalformedJSON200, "with HTTP 200 with broken JSON", true},
	{dynamotest.CRCMismatch, "with a body that does not match its CRC32 checksum (damaged in transit)", true},
	{dynamotest.LyingCounts(9, 5), "with Count 9 larger than ScannedCount 5", false},
	{dynamotest.LyingCounts(-1, -1), "with a negative count (Count -1, ScannedCount -1)", false},
	{dynamotest.InfiniteCapacity, `with a consumed capacity of "Infinity" units, which is not a finite number`, false},
	{dynamotest.BareStatus(404), "with HTTP 404 (Not Found) with an empty body", false},
	{dynamotest.BareStatus(403), "with HTTP 403 (Forbidden) with an empty body", false},
	{dynamotest.BareStatus(413), "with HTTP 413 (Request Entity Too Large) with an empty body", false},
	{dynamotest.BareStatus(301), "with HTTP 301 (Moved Permanently) with an empty body", false},
	{dynamotest.Redirect(301, "https://admin:hunter2@dynamo.example.com/"), "with HTTP 301 (Moved Permanently): the endpoint redirects to https://admin:xxxxx@dynamo.example.com/", false},
	{dynamotest.Redirect(302, "http://127.0.0.1:1/elsewhere"), "with HTTP 302 (Found): the endpoint redirects to http://127.0.0.1:1/elsewhere", false},
	{dynamotest.BadAttribute(`{}`), "with an attribute value {} that is not one type and its value", false},
	{dynamotest.BadAttribute(`{"S":null}`), `with an attribute value {"S":null} that is not a valid S`, false},
	{dynamotest.BadAttribute(`{"X":"1"}`), `with an attribute value {"X":"1"} that is not a valid X`, false},
	// Items the request could not return, and numbers DynamoDB cannot hold.
	{dynamotest.ForeignItem(`{"PK":{"S":"CUST#8"},"SK":{"S":"PROFILE"}}`), `with an item {PK "CUST#8", SK "PROFILE"} from another partition than PK = "CUST#1"`, false},
	{dynamotest.BadAttribute(`{"N":"abc"}`), `with an attribute value {"N":"abc"} that is not a valid N`, false},
	{dynamotest.BadAttribute(`{"N":"1` + strings.Repeat("0", 39) + `1"}`), `with an attribute value {"N":"1000000000000000000000000000000000… that is not a valid N`, false},
	{dynamotest.BadAttribute(`{"NS":["1","x"]}`), `with an attribute value {"NS":["1","x"]} that is not a valid NS`, false},
	{dynamotest.InflatedScanned(3), "with Count 5 smaller than ScannedCount 8 although no filter was asked for", false},
}

// Each answer DynamoDB never sends is one sentence naming the endpoint, the
// operation and what it sent, in the request log too; damage that may be
// transient is tried again first.
func TestFaultAnswersDynamoNeverSends(t *testing.T) {
	t.Parallel()
	for _, tc := range answerFaults {
		t.Run(tc.fault.String(), func(t *testing.T) {
			t.Parallel()
			r := newRig(t, dynamo.Options{MaxAttempts: 2})
			r.p.Inject(dynamotest.Rule{Op: "Query", Fault: tc.fault})
			p, err := r.query(context.Background())
			each := ""
			if tc.transient {
				each = " (each of 2 attempts)"
			}
			want := "query CUST#1 on " + r.table + ": " + r.p.URL + " answered Query" + each + " " + tc.says
			if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), ", which DynamoDB never sends; check --endpoint-url and any proxy in between.") {
				t.Fatalf("got  %v\nwant %s, which DynamoDB never sends; ...", err, want)
			}
			var bad *dynamo.BadAnswerError
			if !errors.As(err, &bad) || len(p.Items) != 0 {
				t.Errorf("not a BadAnswerError, or items kept from a bad answer: %T %d", err, len(p.Items))
			}
			if n := r.p.Count("Query"); tc.transient && n != 2 || !tc.transient && n != 1 {
				t.Errorf("%d attempts (transient %v)", n, tc.transient)
			}
			checkFailedRecord(t, r, err)
		})
	}
}

// Damage in transit once, then the real answer: the read succeeds whole.
func TestFaultAnswerDamagedOnce(t *testing.T) {
	t.Parallel()
	for _, tc := range answerFaults {
		if !tc.transient {
			continue
		}
		t.Run(tc.fault.String(), func(t *testing.T) {
			t.Parallel()
			r := newRig(t, dynamo.Options{})
			r.p.Inject(dynamotest.Rule{Op: "Query", Count: 1, Fault: tc.fault})
			p, err := r.query(context.Background())
			if err != nil || len(p.Items) != 5 {
				t.Fatalf("%d items, %v", len(p.Items), err)
			}
			if ev := r.retries(); len(ev) != 1 || ev[0].String() != "not a DynamoDB answer, retrying (2/10)" {
				t.Errorf("retry events %v", ev)
			}
		})
	}
}

// DescribeTable answered with nothing in it: a sentence, not a panic.
func TestFaultDescribeWithoutTable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		fault dynamotest.Fault
		says  string
	}{
		{dynamotest.EmptyBody200, "with HTTP 200 with an empty body"},
		{dynamotest.EmptyObject200, "with no Table,"},
	} {
		t.Run(tc.fault.String(), func(t *testing.T) {
			t.Parallel()
			r := newRig(t, dynamo.Options{MaxAttempts: 1})
			r.p.Inject(dynamotest.Rule{Op: "DescribeTable", Fault: tc.fault})
			c, err := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: r.p.URL, Region: "us-east-1", NoSchemaCache: true, MaxAttempts: 1})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.DescribeTable(context.Background(), r.table)
			want := "describe table " + r.table + ": " + r.p.URL + " answered DescribeTable " + tc.says
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("got  %v\nwant %s...", err, want)
			}
			if _, err := c.Query(context.Background(), dynamo.QueryInput{Table: r.table, PK: "CUST#1"}); err == nil || !strings.Contains(err.Error(), "answered DescribeTable") {
				t.Errorf("query without keys: %v", err)
			}
		})
	}
}

// 503 with an empty body is a server error: retried, and named by its status.
func TestFault503(t *testing.T) {
	t.Parallel()
	r := newRig(t, dynamo.Options{MaxAttempts: 3})
	r.p.Inject(dynamotest.Rule{Op: "Query", Fault: dynamotest.Unavailable503})
	_, err := r.query(context.Background())
	want := "query CUST#1 on " + r.table + ": " + r.p.URL + " answered HTTP 503 (a server error) to each of 3 attempts; retry in a moment."
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

// Repeated 500s until the time-out: each attempt was answered, so the
// sentence says what the answers were, not "no answer".
func TestFaultServerErrorsUntilTimeout(t *testing.T) {
	t.Parallel()
	r := newRig(t, dynamo.Options{Timeout: 300 * time.Millisecond})
	r.p.Inject(dynamotest.Rule{Op: "Query", Fault: dynamotest.Plain500})
	_, err := r.query(context.Background())
	if err == nil || !strings.Contains(err.Error(), " answered HTTP 500 (a server error) to each of ") || !strings.HasSuffix(err.Error(), " attempts until the time-out ran out; retry in a moment, or raise --timeout.") {
		t.Errorf("got %v", err)
	}
}

// A body that stops in the middle: the time-out ends the wait.
func TestFaultStallMidBody(t *testing.T) {
	t.Parallel()
	r := newRig(t, dynamo.Options{Timeout: 400 * time.Millisecond})
	r.p.Inject(dynamotest.Rule{Op: "Query", Fault: dynamotest.StallMidBody})
	began := time.Now()
	_, err := r.query(context.Background())
	if err == nil || !strings.Contains(err.Error(), "within the time-out") {
		t.Errorf("got %v", err)
	}
	if d := time.Since(began); d > 3*time.Second {
		t.Errorf("took %v", d)
	}
	checkFailedRecord(t, r, err)
}

// A server that sends the reader back to its start key, or an empty page
// with the same key: the second such page is refused, never read again.
func TestFaultKeyDoesNotMove(t *testing.T) {
	t.Parallel()
	for _, f := range []dynamotest.Fault{dynamotest.RepeatKey, dynamotest.EmptyPageWithKey} {
		t.Run(f.String(), func(t *testing.T) {
			t.Parallel()
			r := newRig(t, dynamo.Options{})
			r.p.Inject(dynamotest.Rule{Op: "Query", From: 2, Fault: f})
			q := dynamo.QueryInput{Table: r.table, PK: "CUST#1", Limit: 2}
			p, err := r.c.Query(context.Background(), q)
			if err != nil || p.LastEvaluatedKey == nil {
				t.Fatalf("page 1: %v", err)
			}
			q.StartKey = p.LastEvaluatedKey
			_, err = r.c.Query(context.Background(), q)
			want := `a LastEvaluatedKey {PK "CUST#1", SK "ORDER#2"} equal to the ExclusiveStartKey it was sent (paging would never end)`
			if err == nil || !strings.Contains(err.Error(), r.p.URL+" answered Query with "+want) {
				t.Errorf("got %v", err)
			}
			checkFailedRecord(t, r, err)
		})
	}
	// Backwards is as endless as standing still.
	r := newRig(t, dynamo.Options{})
	q := dynamo.QueryInput{Table: r.table, PK: "CUST#1", Limit: 2, SK: dynamo.SKCond{Op: dynamo.SKGe, Values: []string{"ORDER#3"}}}
	p, err := r.c.Query(context.Background(), q)
	if err != nil || itemcodec.KeyString(p.LastEvaluatedKey["SK"]) != "ORDER#4" {
		t.Fatalf("page 1: %v %v", err, p.LastEvaluatedKey)
	}
	q.StartKey = p.LastEvaluatedKey
	q.Reverse = true // the next page goes down from ORDER#4, so its key ORDER#3... is fine
	q.SK = dynamo.SKCond{}
	q.Limit = 1
	if _, err := r.c.Query(context.Background(), q); err != nil {
		t.Errorf("reverse page: %v", err)
	}
}

// A server that answers every skip-scan query with the same item (a cache
// that ignores the condition): the walk stops with a sentence instead of
// asking for ever. The item is outside the condition asked, so the answer
// check refuses it before the walk sees it.
func TestFaultSkipScanKeyDoesNotMove(t *testing.T) {
	t.Parallel()
	for _, reverse := range []bool{false, true} {
		r := newRig(t, dynamo.Options{})
		// A first page of one item, so the walk jumps at least twice: one
		// way past ORDER to PROFILE and past it, backwards past PROFILE to
		// ORDER and past it (a prefix type's far end is not looked up, so a
		// page ending inside ORDER backwards would leave one jump only).
		first, err := r.c.Query(context.Background(), dynamo.QueryInput{Table: r.table, PK: "CUST#1", Reverse: reverse, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		r.p.Inject(dynamotest.Rule{Op: "Query", Fault: dynamotest.Replay()})
		// One way, the replayed answer is the first jump's, which no later
		// condition holds.
		d, err := r.c.Discover(context.Background(), dynamo.DiscoverInput{Table: r.table, PK: "CUST#1", Reverse: reverse, First: &first, OneWay: true})
		if err == nil || !strings.Contains(err.Error(), r.p.URL+" answered Query with an item {PK \"CUST#1\", SK ") ||
			!strings.Contains(err.Error(), " outside the sort-key condition SK ") {
			t.Errorf("reverse %v: %v", reverse, err)
		}
		if len(d.Groups) == 0 || len(d.Groups) > 2 || r.p.Count("Query") > 5 {
			t.Errorf("reverse %v: groups %+v after %d queries", reverse, d.Groups, r.p.Count("Query"))
		}
		// From both ends, whichever half's answer is replayed, the walk
		// ends in a few requests: refused, or where the halves meet.
		before := r.p.Count("Query")
		d, err = r.c.Discover(context.Background(), dynamo.DiscoverInput{Table: r.table, PK: "CUST#1", Reverse: reverse, First: &first})
		if n := r.p.Count("Query") - before; n > 6 || err == nil && d.Partial {
			t.Errorf("reverse %v, both ends: %v, groups %+v after %d queries", reverse, err, d.Groups, n)
		}
	}
}
