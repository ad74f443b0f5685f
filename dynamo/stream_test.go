package dynamo_test

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// streamRig tails a table with a stream through the fault proxy; the test
// writes to DynamoDB Local directly, so the proxy sees the tail's requests
// alone.
type streamRig struct {
	api   *dynamodb.Client // writes, around the proxy
	p     *dynamotest.Proxy
	c     *dynamo.Client
	sc    *dynamo.StreamClient
	table string

	mu     sync.Mutex
	log    []dynamo.Request
	events []dynamo.RetryEvent
}

func newStreamRig(t *testing.T, view types.StreamViewType, o dynamo.Options) *streamRig {
	t.Helper()
	ep := dynamotest.Endpoint(t)
	r := &streamRig{api: dynamotest.SDK(t), p: dynamotest.StartProxy(t, ep)}
	def := dynamotest.PKSK()
	if view != "" {
		def = dynamotest.WithStream(def, view)
	}
	r.table = dynamotest.Table(t, r.api, def)
	o.Endpoint, o.Region, o.NoSchemaCache = r.p.URL, "us-east-1", true
	c, err := dynamo.Connect(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	c.OnRequest(func(q dynamo.Request) { r.mu.Lock(); r.log = append(r.log, q); r.mu.Unlock() })
	c.OnRetry(func(e dynamo.RetryEvent) { r.mu.Lock(); r.events = append(r.events, e); r.mu.Unlock() })
	sc, err := dynamo.ConnectStreams(context.Background(), o, c)
	if err != nil {
		t.Fatal(err)
	}
	r.c, r.sc = c, sc
	return r
}

func (r *streamRig) requests(op string) []dynamo.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []dynamo.Request
	for _, q := range r.log {
		if q.Operation == op {
			out = append(out, q)
		}
	}
	return out
}

// tail runs Tail in the background; records arrive on the channel, and
// stop ends the tail and returns its error.
func (r *streamRig) tail(t *testing.T, info dynamo.StreamInfo, from string) (<-chan dynamo.StreamRecord, func() error) {
	t.Helper()
	return r.tailWith(t, info, dynamo.TailOptions{From: from})
}

// tailWith is tail with the options o.
func (r *streamRig) tailWith(t *testing.T, info dynamo.StreamInfo, o dynamo.TailOptions) (<-chan dynamo.StreamRecord, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan dynamo.StreamRecord, 1000)
	done := make(chan error, 1)
	go func() {
		done <- r.sc.Tail(ctx, info, o, func(recs []dynamo.StreamRecord) error {
			for _, rec := range recs {
				ch <- rec
			}
			return nil
		})
	}()
	var once sync.Once
	var err error
	stop := func() error {
		once.Do(func() { cancel(); err = <-done })
		return err
	}
	t.Cleanup(func() { stop() })
	return ch, stop
}

// waitPolling waits until the tail has sent a GetRecords: from then on, a
// tail from the latest position sees every write.
func (r *streamRig) waitPolling(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(r.requests("GetRecords")) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the tail sent no GetRecords within 10 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func collect(t *testing.T, ch <-chan dynamo.StreamRecord, n int) []dynamo.StreamRecord {
	t.Helper()
	var out []dynamo.StreamRecord
	timeout := time.After(15 * time.Second)
	for len(out) < n {
		select {
		case rec := <-ch:
			out = append(out, rec)
		case <-timeout:
			t.Fatalf("got %d of %d records within 15 s: %+v", len(out), n, out)
		}
	}
	return out
}

func (r *streamRig) put(t *testing.T, it dynamo.Item) {
	t.Helper()
	if _, err := r.api.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(r.table), Item: it}); err != nil {
		t.Fatal(err)
	}
}

func (r *streamRig) del(t *testing.T, k dynamo.Item) {
	t.Helper()
	if _, err := r.api.DeleteItem(context.Background(), &dynamodb.DeleteItemInput{TableName: aws.String(r.table), Key: k}); err != nil {
		t.Fatal(err)
	}
}

func (r *streamRig) noWrites(t *testing.T) {
	t.Helper()
	if w := r.p.Writes(); len(w) > 0 {
		t.Errorf("the tail sent writes: %+v", w)
	}
	if r.p.Count("GetRecords") == 0 {
		t.Error("no GetRecords went through the proxy: the no-writes check proves nothing")
	}
}

func order(status string) dynamo.Item {
	return dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17"), "status": s(status), "total": &types.AttributeValueMemberN{Value: "35"}}
}

// INSERT, MODIFY and REMOVE with each view type: the images the view type
// carries and no other, the changed attribute, the entity type, and only
// reads sent.
func TestTailEventsPerViewType(t *testing.T) {
	for _, view := range []types.StreamViewType{types.StreamViewTypeNewAndOldImages, types.StreamViewTypeNewImage, types.StreamViewTypeOldImage, types.StreamViewTypeKeysOnly} {
		t.Run(string(view), func(t *testing.T) {
			t.Parallel()
			r := newStreamRig(t, view, dynamo.Options{})
			info, err := r.sc.Stream(context.Background(), r.table)
			if err != nil {
				t.Fatal(err)
			}
			if info.ViewType != string(view) || info.PK.Name != "PK" || info.SK == nil || info.SK.Name != "SK" {
				t.Fatalf("info %+v", info)
			}
			ch, stop := r.tail(t, info, dynamo.TailLatest)
			r.waitPolling(t)
			r.put(t, order("OPEN"))
			r.put(t, order("SHIPPED"))
			r.del(t, dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17")})
			recs := collect(t, ch, 3)
			if err := stop(); !dynamo.IsTailEnd(err) {
				t.Fatalf("tail ended with %v", err)
			}
			var events []string
			names := info.Names("")
			for _, rec := range recs {
				events = append(events, rec.Event)
				if e := names.Entity(rec); info.PartitionKey(rec) != "CUST#42" || info.SortKey(rec) != "ORDER#2025-03-01#A17" || e != "ORDER" {
					t.Errorf("%s: keys %v, entity %q", rec.Event, rec.Keys, e)
				}
				if rec.Sequence == "" || rec.Time.IsZero() {
					t.Errorf("%s: sequence %q time %v", rec.Event, rec.Sequence, rec.Time)
				}
			}
			if strings.Join(events, ",") != "INSERT,MODIFY,REMOVE" {
				t.Fatalf("events %v", events)
			}
			wantOld, wantNew := info.Images()
			for i, rec := range recs {
				hasOld := wantOld && i > 0 // an INSERT has no old image
				hasNew := wantNew && i < 2 // a REMOVE has no new image
				if (rec.Old != nil) != hasOld || (rec.New != nil) != hasNew {
					t.Errorf("%s with %s: old %v new %v", rec.Event, view, rec.Old, rec.New)
				}
			}
			if view == types.StreamViewTypeNewAndOldImages {
				if got := recs[1].Changed(); !slices.Equal(got, []string{"status"}) {
					t.Errorf("changed %v", got)
				}
				line := info.StreamLine(recs[1], "ORDER")
				if !strings.Contains(line, `status: S "OPEN" → S "SHIPPED"`) || !strings.Contains(line, "MODIFY") {
					t.Errorf("line %q", line)
				}
			} else if recs[1].Changed() != nil {
				t.Errorf("changed %v without both images", recs[1].Changed())
			}
			r.noWrites(t)
		})
	}
}

// From the trim horizon, the writes made before the tail started arrive,
// in order.
func TestTailTrimHorizon(t *testing.T) {
	r := newStreamRig(t, types.StreamViewTypeNewAndOldImages, dynamo.Options{})
	for _, sk := range []string{"ORDER#1", "ORDER#2", "ITEM#1"} {
		r.put(t, dynamo.Item{"PK": s("CUST#7"), "SK": s(sk)})
	}
	info, err := r.sc.Stream(context.Background(), r.table)
	if err != nil {
		t.Fatal(err)
	}
	ch, _ := r.tail(t, info, dynamo.TailTrimHorizon)
	recs := collect(t, ch, 3)
	var got []string
	names := info.Names("")
	for _, rec := range recs {
		got = append(got, names.Entity(rec)+" "+info.SortKey(rec))
	}
	if strings.Join(got, ",") != "ORDER ORDER#1,ORDER ORDER#2,ITEM ITEM#1" {
		t.Errorf("got %v", got)
	}
	if n := len(r.requests("DescribeStream")); n == 0 {
		t.Error("no DescribeStream recorded")
	}
	r.noWrites(t)
}

// A table without a stream: one sentence with the command that enables
// one, and nothing sent but the DescribeTable.
func TestTailNoStream(t *testing.T) {
	r := newStreamRig(t, "", dynamo.Options{})
	_, err := r.sc.Stream(context.Background(), r.table)
	var ns *dynamo.NoStreamError
	if !errors.As(err, &ns) {
		t.Fatalf("err %v", err)
	}
	want := "aws dynamodb update-table --table-name " + r.table + " --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES"
	if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "has no stream") || strings.Count(err.Error(), ". ") > 0 {
		t.Errorf("sentence %q", err)
	}
	if ops := r.p.Ops(); !slices.Equal(ops, []string{"DescribeTable"}) {
		t.Errorf("sent %v", ops)
	}
}

// An iterator that expired (the proxy answers ExpiredIteratorException in
// DynamoDB's words) is renewed after the last sequence number read: every
// write arrives exactly once.
func TestTailExpiredIterator(t *testing.T) {
	r := newStreamRig(t, types.StreamViewTypeNewAndOldImages, dynamo.Options{})
	r.put(t, dynamo.Item{"PK": s("CUST#1"), "SK": s("ORDER#1")})
	r.put(t, dynamo.Item{"PK": s("CUST#1"), "SK": s("ORDER#2")})
	info, err := r.sc.Stream(context.Background(), r.table)
	if err != nil {
		t.Fatal(err)
	}
	ch, _ := r.tail(t, info, dynamo.TailTrimHorizon)
	first := collect(t, ch, 2)
	r.p.Inject(dynamotest.Rule{Op: "GetRecords", Count: 1, Fault: dynamotest.ExpiredIterator})
	r.put(t, dynamo.Item{"PK": s("CUST#1"), "SK": s("ORDER#3")})
	r.put(t, dynamo.Item{"PK": s("CUST#1"), "SK": s("ORDER#4")})
	rest := collect(t, ch, 2)
	seen := map[string]bool{}
	var sks []string
	for _, rec := range append(first, rest...) {
		if seen[rec.Sequence] {
			t.Errorf("sequence %s read twice", rec.Sequence)
		}
		seen[rec.Sequence] = true
		sks = append(sks, info.SortKey(rec))
	}
	if strings.Join(sks, ",") != "ORDER#1,ORDER#2,ORDER#3,ORDER#4" {
		t.Errorf("got %v", sks)
	}
	select {
	case rec := <-ch:
		t.Errorf("an extra record %s %s", rec.Event, info.SortKey(rec))
	case <-time.After(1500 * time.Millisecond):
	}
	var renewed bool
	for _, q := range r.requests("GetShardIterator") {
		renewed = renewed || q.Note == "AFTER_SEQUENCE_NUMBER"
	}
	if !renewed {
		t.Errorf("no iterator renewed after a sequence number: %+v", r.requests("GetShardIterator"))
	}
	r.noWrites(t)
}

// Throttled GetRecords (Streams' LimitExceededException) is retried with
// backoff and reported as throttling; the records still arrive. Throttled
// for good, the tail ends with the client's one sentence.
func TestTailThrottled(t *testing.T) {
	r := newStreamRig(t, types.StreamViewTypeNewAndOldImages, dynamo.Options{MaxAttempts: 3})
	r.put(t, dynamo.Item{"PK": s("CUST#1"), "SK": s("ORDER#1")})
	info, err := r.sc.Stream(context.Background(), r.table)
	if err != nil {
		t.Fatal(err)
	}
	r.p.Inject(dynamotest.Rule{Op: "GetRecords", Count: 2, Fault: dynamotest.StreamLimitExceeded})
	ch, stop := r.tail(t, info, dynamo.TailTrimHorizon)
	collect(t, ch, 1)
	stop()
	r.mu.Lock()
	var throttled int
	for _, e := range r.events {
		if e.Operation == "GetRecords" && e.Throttled {
			throttled++
		}
	}
	r.mu.Unlock()
	if throttled != 2 {
		t.Errorf("%d throttled retries reported, want 2: %+v", throttled, r.events)
	}

	r.p.ClearFaults()
	r.p.Inject(dynamotest.Rule{Op: "GetRecords", Fault: dynamotest.StreamLimitExceeded})
	_, stop = r.tail(t, info, dynamo.TailTrimHorizon)
	deadline := time.Now().Add(20 * time.Second)
	for r.p.Count("GetRecords") < 2+1+3 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	err = stop()
	if err == nil || dynamo.IsTailEnd(err) || !strings.Contains(err.Error(), "throttled") || !strings.Contains(err.Error(), "read the stream of table "+r.table) {
		t.Errorf("err %v", err)
	}
	r.noWrites(t)
}

// The Streams client is read-only by type: StreamAPI has exactly the three
// reads, and the recording proxy counts none of them as a write.
func TestStreamAPIReadsOnly(t *testing.T) {
	typ := reflect.TypeOf((*dynamo.StreamAPI)(nil)).Elem()
	var methods []string
	for i := range typ.NumMethod() {
		methods = append(methods, typ.Method(i).Name)
	}
	want := []string{"DescribeStream", "GetRecords", "GetShardIterator"}
	if !slices.Equal(methods, want) {
		t.Errorf("StreamAPI has %v, want exactly %v", methods, want)
	}
	for _, op := range want {
		if dynamotest.IsWrite(op, nil) {
			t.Errorf("the proxy counts %s as a write", op)
		}
	}
}
