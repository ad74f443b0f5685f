package dynamo_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// Scan and PartiQL page loops stop on a server that will not let them end:
// a key or NextToken sent again, a cache replaying one answer, an answer
// DynamoDB never sends. What was read before stays.
func TestFaultScanAndPartiQLPaging(t *testing.T) {
	t.Parallel()
	for _, f := range []dynamotest.Fault{dynamotest.RepeatKey, dynamotest.Replay()} {
		r := newRig(t, dynamo.Options{})
		r.p.Inject(dynamotest.Rule{Op: "Scan", From: 2, Fault: f})
		pages := 0
		res, err := r.c.Scan(context.Background(), dynamo.ScanInput{Table: r.table, Limit: 2, OnPage: func(dynamo.ScanPage) error { pages++; return nil }})
		// The replayed page's items, or the key, came before.
		if err == nil || !strings.Contains(err.Error(), "it had sent before") {
			t.Errorf("%v: got %v", f, err)
		}
		if res.Stop != dynamo.StopError || pages > 2 || res.Count != 2*pages || len(r.p.Calls()) > 4 {
			t.Errorf("%v: stop %s after %d pages, %d items kept, %d calls", f, res.Stop, pages, res.Count, len(r.p.Calls()))
		}
	}

	r := newRig(t, dynamo.Options{})
	r.p.Inject(dynamotest.Rule{Op: "Scan", Fault: dynamotest.LyingCounts(9, 5)})
	_, err := r.c.Scan(context.Background(), dynamo.ScanInput{Table: r.table, Segments: 2})
	var bad *dynamo.BadAnswerError
	if !errors.As(err, &bad) {
		t.Errorf("lying counts on a scan: %v", err)
	}

	// ExecuteStatement: a cache replaying the first page (and its
	// NextToken) stops at the second; a bad attribute value is refused.
	r = newRig(t, dynamo.Options{})
	r.p.Inject(dynamotest.Rule{Op: "ExecuteStatement", Fault: dynamotest.Replay()})
	plan, err := r.c.PlanPartiQL(context.Background(), `SELECT * FROM "`+r.table+`"`)
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.c.RunPartiQL(context.Background(), dynamo.PartiQLInput{Plan: plan, Limit: 2})
	if err == nil || !strings.Contains(err.Error(), "a NextToken it had sent before") || res.Count != 2 || r.p.Count("ExecuteStatement") != 2 {
		t.Errorf("replayed NextToken: %v, %d items, %d calls", err, res.Count, r.p.Count("ExecuteStatement"))
	}
	r = newRig(t, dynamo.Options{})
	r.p.Inject(dynamotest.Rule{Op: "ExecuteStatement", Fault: dynamotest.BadAttribute(`{"S":null}`)})
	if _, err := r.c.RunPartiQL(context.Background(), dynamo.PartiQLInput{Plan: plan}); !errors.As(err, &bad) {
		t.Errorf("bad attribute in a statement's answer: %v", err)
	}
}
