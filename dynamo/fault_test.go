package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// rig is a client that reaches DynamoDB Local through a fault proxy, with a
// table holding one partition: CUST#1 with ORDER#1..ORDER#4 and PROFILE.
type rig struct {
	c     *dynamo.Client
	p     *dynamotest.Proxy
	table string

	mu     sync.Mutex
	log    []dynamo.Request
	events []dynamo.RetryEvent
}

func newRig(t *testing.T, o dynamo.Options) *rig {
	t.Helper()
	ep := dynamotest.Endpoint(t)
	api := dynamotest.SDK(t)
	r := &rig{table: dynamotest.Table(t, api, dynamotest.PKSK()), p: dynamotest.StartProxy(t, ep)}
	for _, sk := range []string{"ORDER#1", "ORDER#2", "ORDER#3", "ORDER#4", "PROFILE"} {
		put(t, api, r.table, dynamo.Item{"PK": s("CUST#1"), "SK": s(sk)})
	}
	o.Endpoint, o.Region = r.p.URL, "us-east-1"
	o.SchemaCacheDir = t.TempDir() // the rig's own: no other test's entries
	c, err := dynamo.Connect(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	c.OnRequest(func(q dynamo.Request) { r.mu.Lock(); r.log = append(r.log, q); r.mu.Unlock() })
	c.OnRetry(func(e dynamo.RetryEvent) { r.mu.Lock(); r.events = append(r.events, e); r.mu.Unlock() })
	// Describe first, so that faults on Query meet queries only.
	if _, err := c.DescribeTable(context.Background(), r.table); err != nil {
		t.Fatal(err)
	}
	r.c = c
	return r
}

func (r *rig) query(ctx context.Context) (dynamo.Page, error) {
	return r.c.Query(ctx, dynamo.QueryInput{Table: r.table, PK: "CUST#1"})
}

func (r *rig) retries() []dynamo.RetryEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]dynamo.RetryEvent(nil), r.events...)
}

// lastRecord is the request log's last entry: a failed request must be
// there, with the very error its caller got.
func (r *rig) lastRecord(t *testing.T) dynamo.Request {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.log) == 0 {
		t.Fatal("the request log is empty")
	}
	return r.log[len(r.log)-1]
}

func checkFailedRecord(t *testing.T, r *rig, err error) {
	t.Helper()
	rec := r.lastRecord(t)
	if rec.Operation != "Query" || rec.Err == nil || rec.Err.Error() != err.Error() {
		t.Errorf("request log: the failed query is missing or lacks its error: %+v", rec)
	}
}

// transient lists every fault the proxy injects below or within the
// protocol, with how a retry reports it.
var transient = []struct {
	fault     dynamotest.Fault
	reason    string
	throttled bool
}{
	{dynamotest.Throughput, "throttled", true},
	{dynamotest.Throttling, "throttled", true},
	{dynamotest.InternalError, "DynamoDB internal error", false},
	{dynamotest.Plain500, "HTTP 500 from the server", false},
	{dynamotest.Drop, "connection lost", false},
	{dynamotest.Reset, "connection reset", false},
	{dynamotest.Truncate, "answer cut off", false},
}

// Two failed attempts, then the real answer: the SDK's retries carry the
// request through, and each retry is reported as it is decided.
func TestFaultTransientThenSuccess(t *testing.T) {
	t.Parallel()
	for _, tc := range transient {
		t.Run(tc.fault.String(), func(t *testing.T) {
			t.Parallel()
			r := newRig(t, dynamo.Options{})
			r.p.Inject(dynamotest.Rule{Op: "Query", Count: 2, Fault: tc.fault})
			p, err := r.query(context.Background())
			if err != nil {
				t.Fatalf("query failed despite retries: %v", err)
			}
			if len(p.Items) != 5 || p.Request.Err != nil {
				t.Errorf("got %d items, record %+v", len(p.Items), p.Request)
			}
			if n := r.p.Count("Query"); n != 3 {
				t.Errorf("the proxy saw %d queries, want 3 (two faults, one success)", n)
			}
			ev := r.retries()
			if len(ev) != 2 {
				t.Fatalf("retry events: %+v", ev)
			}
			for i, e := range ev {
				want := fmt.Sprintf("%s, retrying (%d/10)", tc.reason, i+2)
				if e.String() != want || e.Operation != "Query" || e.Table != r.table || e.Throttled != tc.throttled || e.Err == nil {
					t.Errorf("event %d: %q %+v, want %q", i, e.String(), e, want)
				}
			}
		})
	}
}

// The same fault on every attempt: after MaxAttempts, one sentence.
func TestFaultPersistent(t *testing.T) {
	t.Parallel()
	sentences := map[string]string{
		"ProvisionedThroughputExceededException": "still throttled by DynamoDB after 3 attempts; wait and retry, or lower the request rate.",
		"ThrottlingException":                    "still throttled by DynamoDB after 3 attempts; wait and retry, or lower the request rate.",
		"InternalServerError":                    "DynamoDB had an internal error on each of 3 attempts; retry in a moment.",
		"plain 500":                              "%s answered HTTP 500 (a server error) to each of 3 attempts; retry in a moment.",
		"drop":                                   "the connection to %s broke before an answer came (3 attempts, each connection lost); check the network or any proxy in between.",
		"reset":                                  "the connection to %s broke before an answer came (3 attempts, each connection reset); check the network or any proxy in between.",
		"truncate":                               "the answer from %s was cut off in transit on each of 3 attempts; check the network or any proxy in between.",
	}
	for _, tc := range transient {
		t.Run(tc.fault.String(), func(t *testing.T) {
			t.Parallel()
			r := newRig(t, dynamo.Options{MaxAttempts: 3})
			r.p.Inject(dynamotest.Rule{Op: "Query", Fault: tc.fault})
			_, err := r.query(context.Background())
			tail := sentences[tc.fault.String()]
			if strings.Contains(tail, "%s") {
				tail = fmt.Sprintf(tail, r.p.URL)
			}
			want := "query CUST#1 on " + r.table + ": " + tail
			if err == nil || err.Error() != want {
				t.Errorf("got  %v\nwant %s", err, want)
			}
			if n, ev := r.p.Count("Query"), r.retries(); n != 3 || len(ev) != 2 || ev[0].Attempt != 2 || ev[1].Attempt != 3 || ev[1].MaxAttempts != 3 {
				t.Errorf("attempts %d, events %+v", n, ev)
			}
			checkFailedRecord(t, r, err)
		})
	}
}

// The default is ten attempts: nine retries are reported, then the sentence.
func TestFaultDefaultMaxAttempts(t *testing.T) {
	t.Parallel()
	r := newRig(t, dynamo.Options{})
	if r.c.MaxAttempts() != dynamo.DefaultMaxAttempts || dynamo.DefaultMaxAttempts != 10 {
		t.Fatalf("max attempts %d", r.c.MaxAttempts())
	}
	r.p.Inject(dynamotest.Rule{Op: "Query", Fault: dynamotest.InternalError})
	_, err := r.query(context.Background())
	want := "query CUST#1 on " + r.table + ": DynamoDB had an internal error on each of 10 attempts; retry in a moment."
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	ev := r.retries()
	if r.p.Count("Query") != 10 || len(ev) != 9 || ev[8].String() != "DynamoDB internal error, retrying (10/10)" {
		t.Errorf("attempts %d, events %v", r.p.Count("Query"), ev)
	}
}

// AWS_MAX_ATTEMPTS is honoured like the AWS CLI honours it; the option wins.
func TestMaxAttemptsFromEnvironment(t *testing.T) {
	t.Setenv("AWS_MAX_ATTEMPTS", "4")
	ep := dynamotest.Endpoint(t)
	c, err := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: ep})
	if err != nil || c.MaxAttempts() != 4 {
		t.Errorf("from AWS_MAX_ATTEMPTS: %v %d", err, c.MaxAttempts())
	}
	c, err = dynamo.Connect(context.Background(), dynamo.Options{Endpoint: ep, MaxAttempts: 2})
	if err != nil || c.MaxAttempts() != 2 {
		t.Errorf("from the option: %v %d", err, c.MaxAttempts())
	}
}

// A slow answer within the time-out is just slow; beyond it, one sentence,
// and the call returns at the time-out rather than when the server answers.
func TestFaultDelay(t *testing.T) {
	t.Parallel()
	r := newRig(t, dynamo.Options{Timeout: time.Second})
	r.p.Inject(dynamotest.Rule{Op: "Query", Count: 1, Fault: dynamotest.Delay(300 * time.Millisecond)})
	began := time.Now()
	if p, err := r.query(context.Background()); err != nil || len(p.Items) != 5 || time.Since(began) < 300*time.Millisecond {
		t.Errorf("slow but in time: %v, %d items after %v", err, len(p.Items), time.Since(began))
	}

	r.p.Inject(dynamotest.Rule{Op: "Query", Fault: dynamotest.Delay(10 * time.Second)})
	began = time.Now()
	_, err := r.query(context.Background())
	want := "query CUST#1 on " + r.table + ": no answer from " + r.p.URL + " within the time-out; check the endpoint or raise --timeout."
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	if d := time.Since(began); d < time.Second || d > 3*time.Second {
		t.Errorf("returned after %v, want the 1s time-out", d)
	}
	checkFailedRecord(t, r, err)
}

// Throttled beyond the time-out: the sentence says throttled, not silent.
func TestFaultThrottledUntilTimeout(t *testing.T) {
	t.Parallel()
	r := newRig(t, dynamo.Options{Timeout: 1500 * time.Millisecond})
	r.p.Inject(dynamotest.Rule{Op: "Query", Fault: dynamotest.Throughput})
	began := time.Now()
	_, err := r.query(context.Background())
	re := regexp.MustCompile(`^query CUST#1 on \S+: still throttled by DynamoDB after \d+ attempts? when the time-out ran out; wait and retry, lower the request rate, or raise --timeout\.$`)
	if err == nil || !re.MatchString(err.Error()) {
		t.Errorf("got %v", err)
	}
	if d := time.Since(began); d > 3*time.Second {
		t.Errorf("returned after %v, want the 1.5s time-out", d)
	}
	if len(r.retries()) == 0 {
		t.Error("no retry was reported")
	}
	checkFailedRecord(t, r, err)
}

// A server that never answers: the time-out ends the call; cancelling ends
// it at once, whenever it happens.
func TestFaultHang(t *testing.T) {
	t.Parallel()
	r := newRig(t, dynamo.Options{Timeout: 2 * time.Second}) // long enough for the rig's DescribeTable on a busy machine
	r.p.Inject(dynamotest.Rule{Op: "Query", Fault: dynamotest.Hang})
	_, err := r.query(context.Background())
	if want := "query CUST#1 on " + r.table + ": no answer from " + r.p.URL + " within the time-out; check the endpoint or raise --timeout."; err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}

	r = newRig(t, dynamo.Options{Timeout: time.Minute})
	r.p.Inject(dynamotest.Rule{Op: "Query", Fault: dynamotest.Hang})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	began := time.Now()
	_, err = r.query(ctx)
	if want := "query CUST#1 on " + r.table + ": cancelled."; err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	if d := time.Since(began); d > time.Second {
		t.Errorf("cancelling took %v", d)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("%v does not wrap context.Canceled", err)
	}
	checkFailedRecord(t, r, err)
}

// Cancelling during the backoff wait ends the request before the next
// attempt: Esc works while the UI says "retrying".
func TestFaultCancelDuringBackoff(t *testing.T) {
	t.Parallel()
	r := newRig(t, dynamo.Options{})
	r.p.Inject(dynamotest.Rule{Op: "Query", Fault: dynamotest.Throttling})
	ctx, cancel := context.WithCancel(context.Background())
	var seen []string
	ctx = dynamo.WithRetryObserver(ctx, func(e dynamo.RetryEvent) { seen = append(seen, e.String()); cancel() })
	began := time.Now()
	_, err := r.query(ctx)
	if want := "query CUST#1 on " + r.table + ": cancelled."; err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	if d := time.Since(began); d > 500*time.Millisecond {
		t.Errorf("cancelling during the backoff took %v", d)
	}
	if strings.Join(seen, "|") != "throttled, retrying (2/10)" || r.p.Count("Query") != 1 {
		t.Errorf("context observer saw %v; the proxy %d queries", seen, r.p.Count("Query"))
	}
	if ev := r.retries(); len(ev) != 1 {
		t.Errorf("the client's observer saw %v", ev)
	}
}

// Pages kept when a later page fails are the product's business, not this
// package's: cli_faults_test.go (package main) checks them on the output of
// query --all-pages, groups --count and layout.

// Access denied on one operation: that operation says so in one sentence,
// is not retried, and every other operation keeps working.
func TestAccessDeniedOnOneOperation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	r := newRig(t, dynamo.Options{})
	r.p.Inject(dynamotest.Rule{Op: "Query", Fault: dynamotest.AccessDenied})
	_, err := r.query(ctx)
	prefix := "query CUST#1 on " + r.table + ": access denied: these credentials may not call dynamodb:Query on arn:aws:dynamodb:us-east-1:123456789012:table/" + r.table + "; an IAM policy must allow it."
	if err == nil || !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), "dynamodb:Query") || r.p.Count("Query") != 1 {
		t.Errorf("denied query: %v (%d attempts)", err, r.p.Count("Query"))
	}
	if _, err := r.c.GetItem(ctx, dynamo.GetInput{Table: r.table, PK: "CUST#1", SK: "PROFILE"}); err != nil {
		t.Errorf("GetItem must still work: %v", err)
	}
	if _, err := r.c.ListTables(ctx); err != nil {
		t.Errorf("ListTables must still work: %v", err)
	}
	if _, err := r.c.Discover(ctx, dynamo.DiscoverInput{Table: r.table, PK: "CUST#1"}); err == nil || !strings.Contains(err.Error(), "access denied") {
		t.Errorf("discovery needs Query: %v", err)
	}

	// Scan is for sampling only: denying it costs the rest nothing.
	r = newRig(t, dynamo.Options{})
	r.p.Inject(dynamotest.Rule{Op: "Scan", Fault: dynamotest.AccessDenied})
	raw, err := dynamo.ConnectWriter(ctx, dynamo.Options{Endpoint: r.p.URL, Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = raw.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(r.table), Limit: aws.Int32(1)})
	err = dynamo.Explain(err, "sample "+r.table, r.p.URL)
	if err == nil || !strings.HasPrefix(err.Error(), "sample "+r.table+": access denied: ") || !strings.Contains(err.Error(), "dynamodb:Scan") {
		t.Errorf("denied scan: %v", err)
	}
	if p, err := r.query(ctx); err != nil || len(p.Items) != 5 {
		t.Errorf("Query must still work: %v", err)
	}

	// DescribeTable denied: the table cannot be read, but listing works.
	r = newRig(t, dynamo.Options{})
	r.p.Inject(dynamotest.Rule{Op: "DescribeTable", Fault: dynamotest.AccessDenied})
	// No schema cache: with the keys cached, a query needs no DescribeTable.
	fresh, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: r.p.URL, Region: "us-east-1", NoSchemaCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fresh.Query(ctx, dynamo.QueryInput{Table: r.table, PK: "CUST#1"}); err == nil || !strings.HasPrefix(err.Error(), "describe table "+r.table+": access denied: ") {
		t.Errorf("denied describe: %v", err)
	}
	if _, err := fresh.ListTables(ctx); err != nil {
		t.Errorf("ListTables must still work: %v", err)
	}
}

// Credentials the service refuses: one sentence each, never retried.
func TestCredentialErrorSentences(t *testing.T) {
	t.Parallel()
	cases := []struct {
		fault dynamotest.Fault
		want  string
	}{
		{dynamotest.ExpiredToken, "list tables: the AWS session token has expired; run 'aws sso login' or refresh your credentials."},
		{dynamotest.UnrecognizedClient, "list tables: the AWS credentials are not valid for this account or region; check --profile and --region."},
	}
	for _, tc := range cases {
		r := newRig(t, dynamo.Options{})
		r.p.Inject(dynamotest.Rule{Fault: tc.fault})
		_, err := r.c.ListTables(context.Background())
		if err == nil || err.Error() != tc.want || r.p.Count("ListTables") != 1 || len(r.retries()) != 0 {
			t.Errorf("%s: got %v after %d attempts\nwant %s", tc.fault, err, r.p.Count("ListTables"), tc.want)
		}
	}
}
