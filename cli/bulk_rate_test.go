package cli

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"dynascope/dynamo/dynamotest"
	"dynascope/edit"
)

type bulkRateJSON struct {
	Written          struct{ Count int }
	ConsumedCapacity struct{ Total *float64 }
	Rate             *struct {
		MaxPerSecond, LowestPerSecond float64
		ThrottledAttempts             int
		Seconds, MeasuredPerSecond    *float64
	}
}

// The rate holds: 100 writes of 4 WCU (items of 3.6 KB) at
// --max-wcu-per-second 100 take 4 s, and the units DynamoDB reported consumed, over the run's own
// clock (the first write's arrival at the proxy to the last answer), are
// within 10% of 100 per second. The bound is the run's measure, not a
// time the test assumes: a machine too slow to reach 100 writes a second
// would fail it, and 25 writes a second are a small part of what Local
// does with 8 in flight (60 a second on this machine at a load of 28).
func TestBulkRateHeld(t *testing.T) {
	const n, limit = 100, 100.0
	_, table := paddedBulkTable(t, n, 0, 3500)
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	out, _, err := cli(t, "update", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#7", "--entity", "ORDER", "--set", "status=S:ARCHIVED",
		"--yes", "--allow-writes", "--max-wcu-per-second", "100", "--output", "json")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var s bulkRateJSON
	decodeInto(t, out, &s)
	if s.Written.Count != n || s.ConsumedCapacity.Total == nil || *s.ConsumedCapacity.Total != 4*n {
		t.Fatalf("written %d, consumed %v; want %d of 4 WCU each", s.Written.Count, orNaN(s.ConsumedCapacity.Total), n)
	}
	var first, last time.Time
	for _, c := range p.Calls() {
		if c.Op != "UpdateItem" {
			continue
		}
		if first.IsZero() || c.Arrived.Before(first) {
			first = c.Arrived
		}
		if c.Answered.After(last) {
			last = c.Answered
		}
	}
	secs := last.Sub(first).Seconds()
	measured := *s.ConsumedCapacity.Total / secs
	t.Logf("%v WCU in %.3f s: %.1f WCU/s at a cap of %v (the run says %v s, %v WCU/s)", *s.ConsumedCapacity.Total, secs, measured, limit, orNaN(s.Rate.Seconds), orNaN(s.Rate.MeasuredPerSecond))
	if secs < 3 || math.Abs(measured-limit) > limit/10 {
		t.Errorf("%.1f WCU/s over %.3f s, want within 10%% of %v over at least 3 s", measured, secs, limit)
	}
	if s.Rate == nil || s.Rate.MeasuredPerSecond == nil || math.Abs(*s.Rate.MeasuredPerSecond-measured) > limit/10 || s.Rate.ThrottledAttempts != 0 {
		t.Errorf("the rate the run reports: %+v", s.Rate)
	}
}

func orNaN(f *float64) float64 {
	if f == nil {
		return math.NaN()
	}
	return *f
}

// Throttling: three attempts answered ProvisionedThroughputExceeded are
// sent again by the SDK and counted, the rate is halved (at least once),
// and every item is still written once, each conditional on its image.
// Without throttling, the writes go out several at once (the first
// alone), never more than edit.BulkWorkers.
func TestBulkThrottledBacksOff(t *testing.T) {
	const n = 60
	_, table := bulkTable(t, n, 0)
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	p.Inject(dynamotest.Rule{Op: "UpdateItem", From: 10, Count: 3, Fault: dynamotest.Throughput},
		dynamotest.Rule{Op: "UpdateItem", Fault: dynamotest.Delay(20 * time.Millisecond)})
	out, stderr, err := cli(t, "update", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#7", "--entity", "ORDER", "--set", "status=S:ARCHIVED",
		"--yes", "--allow-writes", "--max-wcu-per-second", "1000", "--output", "json")
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, out, stderr)
	}
	var s bulkRateJSON
	decodeInto(t, out, &s)
	if s.Written.Count != n || p.Count("UpdateItem") != n+3 {
		t.Errorf("written %d with %d UpdateItem requests, want %d with %d (3 sent again)", s.Written.Count, p.Count("UpdateItem"), n, n+3)
	}
	if s.Rate == nil || s.Rate.ThrottledAttempts != 3 || s.Rate.LowestPerSecond > 500 || s.Rate.MaxPerSecond != 1000 {
		t.Errorf("rate %+v, want 3 throttled attempts and the rate halved from 1000", s.Rate)
	}
	var calls []dynamotest.Call
	for _, c := range p.Calls() {
		if c.Op == "UpdateItem" {
			calls = append(calls, c)
		}
	}
	if most := dynamotest.MostAtOnce(calls); most < 2 || most > 8 {
		t.Errorf("at most %d writes at once, want between 2 and 8", most)
	}
	if most := dynamotest.MostAtOnce(calls[:1]); most != 1 || calls[1].Arrived.Before(calls[0].Answered) {
		t.Error("the first write did not go alone")
	}
	// And in text: the throttling said.
	out, _, _ = cli(t, "update", "--endpoint-url", p.URL, "--table", table, "--pk", "CUST#7", "--entity", "ORDER", "--set", "status=S:OPEN",
		"--yes", "--allow-writes", "--max-wcu-per-second", "1000")
	if !slices.ContainsFunc(strings.Split(out, "\n"), func(l string) bool { return strings.HasPrefix(l, "sent in ") && strings.Contains(l, "(at most 1000)") }) {
		t.Errorf("text:\n%s", out)
	}
}

func decodeInto(t *testing.T, out string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
}

// The progress line (on a terminal only: newProgressBar gives none for a
// pipe): items ended of the total, the units reported per second so far,
// the cap now and the time left at it, and the throttled attempts.
func TestBulkProgressLine(t *testing.T) {
	var b strings.Builder
	pace := &edit.RatePace{PerSecond: 10}
	p := &bulkProgress{bar: &progressBar{w: &b, table: "bulk update on App", total: 4}, pace: pace, predicted: 40, start: time.Now()}
	if newProgressBar(&b, "x", 1) != nil {
		t.Error("a progress bar on a buffer")
	}
	plan := &edit.Plan{PredictedWCU: 10}
	p.item(edit.BulkOutcome{Plan: plan, Sent: true, Result: edit.Result{WCU: 10, Throttled: 2}})
	note := p.note(2 * time.Second)
	if note != "5 WCU/s (at most 10), 3s left, throttled: 2 attempts sent again" {
		t.Errorf("note %q", note)
	}
	if !strings.Contains(b.String(), "bulk update on App [#######.......................] 1/4 items, ") {
		t.Errorf("line %q", b.String())
	}
	p.item(edit.BulkOutcome{Plan: plan, Sent: true, Result: edit.Result{NoWCU: true}})
	if note := p.note(time.Second); !strings.HasPrefix(note, "? WCU/s") {
		t.Errorf("an answer without units: %q", note)
	}
}
