package dynamo_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// demoEstimate is the announced figure of the rig's table were it the
// demo's size (21,073 items, 3,666,313 bytes): 451 RCU.
func (r *rig) demoEstimate(t *testing.T) dynamo.Estimate {
	t.Helper()
	tb, err := r.c.DescribeTable(context.Background(), r.table)
	if err != nil {
		t.Fatal(err)
	}
	tb.ItemCount, tb.SizeBytes = 21073, 3666313
	e := dynamo.EstimateRead(tb, "", false, 1, 0)
	if e.RCU != 451 {
		t.Fatalf("estimate %v RCU, want 451", e.RCU)
	}
	return e
}

// A PartiQL run answered with endless pages stops at its cap, never past
// it: --max-rcu's, or without it the overrun limit of the bound it
// announced (twice it and a unit, as a Scan's: DescribeTable's sizes may
// be hours old, and a whole read must still end). Each page's Limit is
// sized to what the cap has left and a page without ConsumedCapacity
// counts the most it could cost, so the endless pages of 128 RCU each stop
// after 8 requests at 903 RCU. Its sentence says what it read, what that
// cost as an estimate that AWS would report for real, and how to go on.
// Before, the pages were unsized and counted at their minimum: 1,807
// requests to 903.5 RCU.
func TestFaultEndlessStatementStopsAtTheCap(t *testing.T) {
	t.Parallel()
	r := newRig(t, dynamo.Options{MaxAttempts: 1})
	e := r.demoEstimate(t)
	scan, err := r.c.PlanPartiQL(context.Background(), `SELECT * FROM "`+r.table+`" WHERE total > 5`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		in     dynamo.PartiQLInput
		cap    float64
		stop   dynamo.StopReason
		saysAt string
	}{
		{"Query, announced", dynamo.PartiQLInput{Plan: r.custPlan(t), Est: e}, 903, dynamo.StopEstimate, "stopped at its limit of 903 RCU (2 × the 451 RCU announced + 1)"},
		{"Scan, announced", dynamo.PartiQLInput{Plan: scan, Est: e}, 903, dynamo.StopEstimate, "stopped at its limit of 903 RCU (2 × the 451 RCU announced + 1)"},
		{"Scan, --max-rcu", dynamo.PartiQLInput{Plan: scan, Est: e, MaxRCU: 20}, 20, dynamo.StopMaxRCU, "stopped at the --max-rcu cap of 20 RCU"},
		{"Query, --max-rcu consistent", dynamo.PartiQLInput{Plan: r.custPlan(t), Est: e, MaxRCU: 7, Consistent: true}, 7, dynamo.StopMaxRCU, "stopped at the --max-rcu cap of 7 RCU"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r.p.ClearFaults()
			r.p.Inject(dynamotest.Rule{Op: "ExecuteStatement", Fault: dynamotest.EndlessStatement()})
			before := r.p.Count("ExecuteStatement")
			res, err := r.c.RunPartiQL(context.Background(), tc.in)
			sent := r.p.Count("ExecuteStatement") - before
			var stop *dynamo.CapStop
			if !errors.As(err, &stop) || res.Stop != tc.stop || res.Cap != tc.cap {
				t.Fatalf("stop %q at cap %v: %v", res.Stop, res.Cap, err)
			}
			// At the cap, not past it: no more than it announced, and no
			// room left for another page.
			unit := 0.5
			if tc.in.Consistent {
				unit = 1
			}
			if res.Spent > tc.cap || res.Spent <= tc.cap-unit {
				t.Errorf("counted %v RCU under a cap of %v", res.Spent, tc.cap)
			}
			if sent != len(res.Requests) || sent > 10 {
				t.Errorf("%d requests sent, %d in the result", sent, len(res.Requests))
			}
			for i, q := range res.Requests {
				if q.Limit <= 0 {
					t.Errorf("request %d sent without a Limit", i+1)
				}
			}
			msg := err.Error()
			for _, want := range []string{tc.saysAt, "after 0 items in ", "an estimated " + jsonFigure(res.Spent) + " RCU", "AWS would report the real figure", "to read on, run the line that follows."} {
				if !strings.Contains(msg, want) {
					t.Errorf("sentence lacks %q: %s", want, msg)
				}
			}
			if why := dynamotest.SentenceProblem(msg); why != "" {
				t.Errorf("%s: %s", why, msg)
			}
			if !strings.HasPrefix(res.NextToken, "endless-") {
				t.Errorf("goes on from %q", res.NextToken)
			}
		})
	}
}

// Pages that cost DynamoDB's minimum or say they were free, with no item
// and a NextToken for ever (cheap endless), end at the stated bound: every
// page counts at least 0.5 RCU, DynamoDB's minimum charge, so at most
// cap / 0.5 requests, said at that figure.
func TestFaultCheapEndlessStatementStopsAtItsBound(t *testing.T) {
	t.Parallel()
	r := newRig(t, dynamo.Options{MaxAttempts: 1})
	e := r.demoEstimate(t)
	for _, tc := range []struct {
		units, cap float64
		maxRCU     float64
		requests   int
	}{
		{0.5, 903, 0, 1806},
		{0, 903, 0, 1806},
		{0.5, 20, 20, 40},
	} {
		r.p.ClearFaults()
		r.p.Inject(dynamotest.Rule{Op: "ExecuteStatement", Fault: dynamotest.CheapEndlessStatement(tc.units)})
		before := r.p.Count("ExecuteStatement")
		res, err := r.c.RunPartiQL(context.Background(), dynamo.PartiQLInput{Plan: r.custPlan(t), Est: e, MaxRCU: tc.maxRCU})
		sent := r.p.Count("ExecuteStatement") - before
		var stop *dynamo.CapStop
		if !errors.As(err, &stop) || sent != tc.requests || len(res.Requests) != sent || res.Spent != tc.cap {
			t.Errorf("%g RCU pages under %v RCU: %d requests, counted %v RCU: %v", tc.units, tc.cap, sent, res.Spent, err)
			continue
		}
		msg := err.Error()
		if want := "after 0 items in " + jsonFigure(float64(tc.requests)) + " requests, " + jsonFigure(tc.cap) + " RCU;"; !strings.Contains(msg, want) || strings.Contains(msg, "estimated") {
			t.Errorf("sentence lacks %q (or estimates what was reported): %s", want, msg)
		}
		if why := dynamotest.SentenceProblem(msg); why != "" {
			t.Errorf("%s: %s", why, msg)
		}
	}
}

func jsonFigure(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// DynamoDB Local answers ExecuteStatement without ConsumedCapacity: a page
// of SELECT * that returned its whole Limit evaluated those items only,
// so it counts what they measure (here DynamoDB's 0.5 RCU minimum each),
// not the most a page of that Limit could cost; the last page, short of
// its Limit, counts that most. So the five items of CUST#1 in pages of 2
// count 0.5 + 0.5 and the last page's worst, 0.5, under a cap of 2 RCU.
func TestStatementPagesOfTheirWholeLimitCountWhatTheyMeasure(t *testing.T) {
	t.Parallel()
	r := newRig(t, dynamo.Options{MaxAttempts: 1})
	var got int
	res, err := r.c.RunPartiQL(context.Background(), dynamo.PartiQLInput{Plan: r.custPlan(t), Limit: 2, MaxRCU: 2, OnPage: func(p dynamo.Page) error {
		got += len(p.Items)
		return nil
	}})
	if err != nil || res.Stop != dynamo.StopComplete || got != 5 {
		t.Fatalf("stop %q, %d items: %v", res.Stop, got, err)
	}
	for i, q := range res.Requests {
		if !q.NoCapacity {
			t.Skipf("request %d reported its capacity: not DynamoDB Local", i+1)
		}
	}
	if len(res.Requests) != 3 || res.Spent != 1.5 {
		t.Errorf("%d requests counted %v RCU, want 3 and 1.5", len(res.Requests), res.Spent)
	}
}
