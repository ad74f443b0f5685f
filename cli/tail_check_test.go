package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"dynascope/dynamo/dynamotest"
)

// The stream's answers checked, as tail says it (issue 35.3): a repeated
// iterator gives each record once (798 lines for 21 before), one notice
// and the count in the summary; records of no known event type or without
// the table's key are left out and said; all with exit 0.
func TestTailCLIDropsWhatTheStreamCouldNotSend(t *testing.T) {
	table, p := tailedTable(t)
	p.Inject(dynamotest.Rule{Op: "GetRecords", Fault: dynamotest.RepeatIterator()})
	out, errOut, err := cli(t, "tail", "--endpoint-url", p.URL, "--table", table, "--from", "trim-horizon", "--output", "jsonl", "--for", "3s")
	if err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	if n := strings.Count(out, "\n"); n != 5 {
		t.Errorf("%d lines for 5 records:\n%s", n, out)
	}
	if strings.Count(errOut, "came again or out of order") != 1 || !strings.Contains(errOut, "repeated or reordered records dropped") || !strings.Contains(errOut, "tail: 5 records") {
		t.Errorf("stderr %s", errOut)
	}

	p.ClearFaults()
	i := 0
	p.Inject(dynamotest.Rule{Op: "GetRecords", Fault: dynamotest.RewriteRecord("keyless and unknown", func(rec map[string]json.RawMessage) {
		i++
		switch i {
		case 1:
			rec["eventName"] = json.RawMessage(`"UPSERT"`)
		case 2:
			var d map[string]json.RawMessage
			json.Unmarshal(rec["dynamodb"], &d)
			delete(d, "Keys")
			rec["dynamodb"], _ = json.Marshal(d)
		}
	})})
	out, errOut, err = cli(t, "tail", "--endpoint-url", p.URL, "--table", table, "--from", "trim-horizon", "--for", "3s")
	if err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	if n := strings.Count(out, "\n"); n != 3 || strings.Contains(out, "UPSERT") {
		t.Errorf("%d lines for 3 records kept:\n%s", n, out)
	}
	for _, want := range []string{`event type "UPSERT"`, "does not carry the key of table " + table, "1 record without the table's key dropped", "1 record of an unknown event type dropped", "tail: 3 records"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q: %s", want, errOut)
		}
	}
}

// A stream that cannot be read ends tail with one sentence and exit 1:
// expired iterators are renewed 3 times, not in a loop (166 requests in
// 8 s, exit 0 before); a stream throttled all along is not an idle one
// (0 records and exit 0 at --for before); another table's stream is
// refused before any GetRecords.
func TestTailCLIUnreadableStream(t *testing.T) {
	table, p := tailedTable(t)
	p.Inject(dynamotest.Rule{Op: "GetRecords", Fault: dynamotest.ExpiredIterator})
	began := time.Now()
	_, errOut, err := cli(t, "tail", "--endpoint-url", p.URL, "--table", table, "--for", "30s")
	if err == nil || exitCode(false, err) != 1 || !strings.Contains(err.Error(), "ExpiredIteratorException") || time.Since(began) > 15*time.Second {
		t.Errorf("after %s: err %v; stderr %s", time.Since(began), err, errOut)
	}
	if n := p.Count("GetRecords"); n != 4 {
		t.Errorf("%d GetRecords, want 4", n)
	}

	p.ClearFaults()
	p.Inject(dynamotest.Rule{Op: "GetRecords", Fault: dynamotest.StreamLimitExceeded})
	_, errOut, err = cli(t, "tail", "--endpoint-url", p.URL, "--table", table, "--output", "jsonl", "--for", "3s")
	if err == nil || exitCode(false, err) != 1 || !strings.Contains(err.Error(), "could not be read") || !strings.Contains(errOut, "tail: 0 records") {
		t.Errorf("throttled: err %v; stderr %s", err, errOut)
	}

	for _, f := range []dynamotest.Fault{
		dynamotest.APIError(400, "com.amazonaws.dynamodb.v20120810#AccessDeniedException", "User: arn:aws:iam::1:user/x is not authorized to perform: dynamodb:GetRecords"),
		dynamotest.HTML200,
	} {
		p.ClearFaults()
		p.Inject(dynamotest.Rule{Op: "GetRecords", Fault: f})
		_, errOut, err = cli(t, "tail", "--endpoint-url", p.URL, "--table", table, "--for", "4s")
		// The sentence's wording and length are the answer checks' (the
		// HTML one runs over 300 characters with a long table name).
		if err == nil || exitCode(false, err) != 1 || !strings.Contains(err.Error(), "stream of table "+table) || !strings.Contains(errOut, "tail: 0 records") {
			t.Errorf("%s: err %v; stderr %s", f, err, errOut)
		}
	}

	p.ClearFaults()
	before := p.Count("GetRecords")
	p.Inject(dynamotest.Rule{Op: "DescribeStream", Fault: dynamotest.StreamOfTable("Billing")})
	_, errOut, err = cli(t, "tail", "--endpoint-url", p.URL, "--table", table, "--for", "10s")
	if err == nil || exitCode(false, err) != 1 || !strings.Contains(err.Error(), "Billing") {
		t.Errorf("another table's stream: err %v; stderr %s", err, errOut)
	}
	if n := p.Count("GetRecords") - before; n != 0 {
		t.Errorf("%d GetRecords sent to another table's stream", n)
	}
}
