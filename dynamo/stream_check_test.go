package dynamo_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// notices gathers a tail's notices.
type notices struct {
	mu   sync.Mutex
	list []dynamo.TailNotice
}

func (n *notices) add(x dynamo.TailNotice) { n.mu.Lock(); n.list = append(n.list, x); n.mu.Unlock() }

func (n *notices) texts() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []string
	for _, x := range n.list {
		out = append(out, x.Text)
	}
	return out
}

// primedRig is a stream rig whose table holds the writes of CUST#1's sort
// keys sks, and the stream's description.
func primedRig(t *testing.T, sks ...string) (*streamRig, dynamo.StreamInfo) {
	t.Helper()
	r := newStreamRig(t, types.StreamViewTypeNewAndOldImages, dynamo.Options{})
	for _, sk := range sks {
		r.put(t, dynamo.Item{"PK": s("CUST#1"), "SK": s(sk)})
	}
	info, err := r.sc.Stream(context.Background(), r.table)
	if err != nil {
		t.Fatal(err)
	}
	return r, info
}

// quiet fails on any record arriving within d.
func quiet(t *testing.T, ch <-chan dynamo.StreamRecord, info dynamo.StreamInfo, d time.Duration) {
	t.Helper()
	select {
	case rec := <-ch:
		t.Errorf("an extra record %s %s seq %s", rec.Event, info.SortKey(rec), rec.Sequence)
	case <-time.After(d):
	}
}

func checkSentence(t *testing.T, s string) {
	t.Helper()
	if len(s) >= 300 || strings.Count(s, ". ") > 0 || !strings.HasSuffix(s, ".") {
		t.Errorf("not one sentence under 300 characters (%d): %q", len(s), s)
	}
}

// A proxy that hands back the iterator it was sent: the shard's records
// come again on every GetRecords. Each is read once; the repeats are
// dropped, counted and said once.
func TestTailRepeatedIterator(t *testing.T) {
	r, info := primedRig(t, "ORDER#1", "ORDER#2", "ORDER#3")
	r.p.Inject(dynamotest.Rule{Op: "GetRecords", Fault: dynamotest.RepeatIterator()})
	var n notices
	var counts dynamo.TailCounts
	ch, stop := r.tailWith(t, info, dynamo.TailOptions{From: dynamo.TailTrimHorizon, OnNotice: n.add, Counts: &counts})
	collect(t, ch, 3)
	quiet(t, ch, info, 2*time.Second)
	if err := stop(); !dynamo.IsTailEnd(err) {
		t.Fatalf("tail ended with %v", err)
	}
	gets := r.p.Count("GetRecords")
	// The last GetRecords may have reached the proxy as the tail stopped,
	// its answer never read.
	if counts.Repeated%3 != 0 || counts.Repeated == 0 || counts.Repeated > 3*(gets-1) || counts.Repeated < 3*(gets-2) {
		t.Errorf("%d repeated records counted for %d GetRecords of 3 records each", counts.Repeated, gets)
	}
	if tx := n.texts(); len(tx) != 1 || !strings.Contains(tx[0], "came again or out of order") {
		t.Errorf("notices %q", tx)
	} else {
		checkSentence(t, tx[0])
	}
	if !strings.Contains(counts.String(), "repeated or reordered records dropped") {
		t.Errorf("counts say %q", counts)
	}
	r.noWrites(t)
}

// An item's INSERT, MODIFY and REMOVE in one batch, reversed by the proxy:
// the REMOVE comes first and is kept, the two before it in the stream are
// dropped: nothing shows the deleted item as present.
func TestTailReversedBatch(t *testing.T) {
	r := newStreamRig(t, types.StreamViewTypeNewAndOldImages, dynamo.Options{})
	r.put(t, order("OPEN"))
	r.put(t, order("SHIPPED"))
	r.del(t, dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17")})
	info, err := r.sc.Stream(context.Background(), r.table)
	if err != nil {
		t.Fatal(err)
	}
	r.p.Inject(dynamotest.Rule{Op: "GetRecords", Fault: dynamotest.ReverseRecords()})
	var counts dynamo.TailCounts
	ch, stop := r.tailWith(t, info, dynamo.TailOptions{From: dynamo.TailTrimHorizon, Counts: &counts})
	recs := collect(t, ch, 1)
	quiet(t, ch, info, 1500*time.Millisecond)
	stop()
	if recs[0].Event != "REMOVE" || counts.Repeated != 2 {
		t.Errorf("got %s, %d dropped", recs[0].Event, counts.Repeated)
	}
}

// DescribeStream answering about another table's stream: the tail ends
// with one sentence naming both, before any GetRecords.
func TestTailOtherTablesStream(t *testing.T) {
	r, info := primedRig(t)
	r.p.Inject(dynamotest.Rule{Op: "DescribeStream", Fault: dynamotest.StreamOfTable("Billing")})
	_, stop := r.tail(t, info, dynamo.TailTrimHorizon)
	deadline := time.Now().Add(10 * time.Second)
	for r.p.Count("DescribeStream") == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	err := stop()
	var bad *dynamo.BadAnswerError
	if err == nil || dynamo.IsTailEnd(err) || !errors.As(err, &bad) && !strings.Contains(err.Error(), "Billing") {
		t.Fatalf("err %v", err)
	}
	if !strings.Contains(err.Error(), "Billing") || !strings.Contains(err.Error(), r.table) {
		t.Errorf("sentence %q", err)
	}
	if n := r.p.Count("GetRecords"); n != 0 {
		t.Errorf("%d GetRecords sent to another table's stream", n)
	}
}

// Records without the table's key, and of an event type that is no write,
// are dropped, counted and said once each.
func TestTailKeylessAndUnknownRecords(t *testing.T) {
	r, info := primedRig(t, "ORDER#1", "ORDER#2", "ORDER#3", "ORDER#4")
	i := 0
	r.p.Inject(dynamotest.Rule{Op: "GetRecords", Fault: dynamotest.RewriteRecord("keyless and unknown", func(rec map[string]json.RawMessage) {
		i++
		switch i {
		case 1:
			rec["eventName"] = json.RawMessage(`"UPSERT"`)
		case 2:
			var d map[string]json.RawMessage
			json.Unmarshal(rec["dynamodb"], &d)
			d["Keys"] = json.RawMessage(`{"id":{"S":"x"}}`)
			rec["dynamodb"], _ = json.Marshal(d)
		}
	})})
	var n notices
	var counts dynamo.TailCounts
	ch, stop := r.tailWith(t, info, dynamo.TailOptions{From: dynamo.TailTrimHorizon, OnNotice: n.add, Counts: &counts})
	recs := collect(t, ch, 2)
	quiet(t, ch, info, 1500*time.Millisecond)
	stop()
	if info.SortKey(recs[0]) != "ORDER#3" || info.SortKey(recs[1]) != "ORDER#4" || counts.Unknown != 1 || counts.Keyless != 1 {
		t.Errorf("kept %s, %s; counts %+v", info.SortKey(recs[0]), info.SortKey(recs[1]), counts)
	}
	tx := n.texts()
	if len(tx) != 2 || !strings.Contains(tx[0], `"UPSERT"`) || !strings.Contains(tx[1], "does not carry the key of table") {
		t.Errorf("notices %q", tx)
	}
	for _, x := range tx {
		checkSentence(t, x)
	}
}

// TrimmedDataAccessException on a GetRecords: one sentence, reading goes
// on after the last sequence number read, nothing is read twice (it
// replayed the whole shard before).
func TestTailTrimmedNoReplay(t *testing.T) {
	r, info := primedRig(t, "ORDER#1", "ORDER#2")
	var n notices
	var counts dynamo.TailCounts
	ch, stop := r.tailWith(t, info, dynamo.TailOptions{From: dynamo.TailTrimHorizon, OnNotice: n.add, Counts: &counts})
	first := collect(t, ch, 2)
	r.p.Inject(dynamotest.Rule{Op: "GetRecords", Count: 1, Fault: dynamotest.TrimmedData})
	r.put(t, dynamo.Item{"PK": s("CUST#1"), "SK": s("ORDER#3")})
	rest := collect(t, ch, 1)
	quiet(t, ch, info, 1500*time.Millisecond)
	if err := stop(); !dynamo.IsTailEnd(err) {
		t.Fatalf("tail ended with %v", err)
	}
	var sks []string
	for _, rec := range append(first, rest...) {
		sks = append(sks, info.SortKey(rec))
	}
	if strings.Join(sks, ",") != "ORDER#1,ORDER#2,ORDER#3" || counts.Trimmed != 1 {
		t.Errorf("got %v, counts %+v", sks, counts)
	}
	tx := n.texts()
	if len(tx) != 1 || !strings.Contains(tx[0], "after sequence number "+first[1].Sequence) {
		t.Errorf("notices %q", tx)
	} else {
		checkSentence(t, tx[0])
	}
}

// ExpiredIteratorException on every GetRecords: renewed after the last
// sequence number read at most 3 times in a row, at the shard's rate,
// then one sentence (it looped, 166 requests in 8 s, and ended silently).
func TestTailExpiredEveryTime(t *testing.T) {
	r, info := primedRig(t)
	r.p.Inject(dynamotest.Rule{Op: "GetRecords", Fault: dynamotest.ExpiredIterator})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	began := time.Now()
	err := r.sc.Tail(ctx, info, dynamo.TailOptions{From: dynamo.TailLatest}, func([]dynamo.StreamRecord) error { return nil })
	took := time.Since(began)
	if err == nil || dynamo.IsTailEnd(err) || !strings.Contains(err.Error(), "ExpiredIteratorException") {
		t.Fatalf("err %v", err)
	}
	checkSentence(t, err.Error())
	if n := r.p.Count("GetRecords"); n != 4 {
		t.Errorf("%d GetRecords, want 4 (the first and 3 renewals)", n)
	}
	if rate := float64(r.p.Count("GetRecords")-1) / took.Seconds(); rate > 5 {
		t.Errorf("%.1f GetRecords a second on one shard, over DynamoDB's 5", rate)
	}
	var last time.Time
	for _, c := range r.p.Calls() {
		if c.Op != "GetRecords" {
			continue
		}
		if !last.IsZero() && c.Arrived.Sub(last) < dynamo.MinShardInterval-10*time.Millisecond {
			t.Errorf("two GetRecords of one shard %s apart, under DynamoDB's 5 a second", c.Arrived.Sub(last))
		}
		last = c.Arrived
	}
}

// A stream throttled at every attempt until the tail's time is up: not an
// idle stream, so the tail ends with a sentence saying it could not be
// read, not as a normal end.
func TestTailThrottledAllAlong(t *testing.T) {
	r, info := primedRig(t)
	r.p.Inject(dynamotest.Rule{Op: "GetRecords", Fault: dynamotest.StreamLimitExceeded})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	err := r.sc.Tail(ctx, info, dynamo.TailOptions{From: dynamo.TailLatest}, func([]dynamo.StreamRecord) error { return nil })
	if err == nil || dynamo.IsTailEnd(err) || !strings.Contains(err.Error(), "could not be read") || !strings.Contains(err.Error(), "throttled") {
		t.Fatalf("err %v", err)
	}
	checkSentence(t, err.Error())
}

// A shard split: the first shard has a closed parent. The parent is read
// to its end first (its GetRecords has no NextShardIterator), the shard
// list read again, and only then the child, whose records arrive in order.
func TestTailFollowsChildShards(t *testing.T) {
	r, info := primedRig(t, "ORDER#1", "ORDER#2")
	r.p.Inject(dynamotest.Rule{Fault: dynamotest.ClosedParent("shardId-00000000000000000001-parent")})
	ch, stop := r.tail(t, info, dynamo.TailTrimHorizon)
	recs := collect(t, ch, 2)
	stop()
	if info.SortKey(recs[0]) != "ORDER#1" || info.SortKey(recs[1]) != "ORDER#2" {
		t.Errorf("got %s, %s", info.SortKey(recs[0]), info.SortKey(recs[1]))
	}
	r.mu.Lock()
	var ops []string
	for _, q := range r.log {
		op := q.Operation
		if op == "GetRecords" {
			op += fmt.Sprintf("(%d,more=%v)", q.Count, q.More)
		}
		ops = append(ops, op)
	}
	r.mu.Unlock()
	got := strings.Join(ops, " ")
	if !strings.HasPrefix(got, "DescribeTable DescribeStream GetShardIterator GetRecords(0,more=false) DescribeStream GetShardIterator GetRecords(2,more=true)") {
		t.Errorf("requests %s", got)
	}
}
