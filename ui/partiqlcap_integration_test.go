package ui

import (
	"strings"
	"testing"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/ui/overlay"
)

// The PartiQL overlay answered with endless pages stops at its limit, 2 ×
// the 451 RCU it announced + 1 (as a Scan's: DescribeTable's sizes may be
// hours old, and a whole read must still end), never past it: each page's
// Limit sized to what the limit has left, each page without
// ConsumedCapacity counted at the most it could cost, so 8 pages of 128
// RCU. It says in one sentence what it read, what that cost as an
// estimate AWS would report for real, and that n reads on, up to the same
// limit again. Cheap endless pages (0.5 RCU each, reported) end at 903 /
// 0.5 = 1806 requests. Before, the pages were unsized and counted at
// their minimum: 1,807 requests to 903.5 RCU however the pages were.
func TestUIPartiQLStopsAtTheBound(t *testing.T) {
	table, ep := demoTable(t)
	statement := `SELECT * FROM "` + table + `" WHERE PK = 'CUST#42'`
	for _, tc := range []struct {
		name      string
		fault     dynamotest.Fault
		requests  int // exactly; 0 for at most 10
		says      string
		estimated bool
	}{
		{"endless", dynamotest.EndlessStatement(), 0, "stopped at its limit of 903 RCU (2 × the 451 RCU announced + 1) after 0 items in ", true},
		{"cheap endless", dynamotest.CheapEndlessStatement(0.5), 1806, "stopped at its limit of 903 RCU (2 × the 451 RCU announced + 1) after 0 items in 1806 requests, 903 RCU; to read on, press n (up to the same limit again).", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newFaultRun(t, ep, table, tc.fault, nil)
			hs := r.harness(r.opts("CUST#42"))
			hs.keys("P", "ctrl+u")
			hs.typeText(statement)
			hs.keys("enter")
			hs.contains("predicted ≤ 451 RCU")
			r.p.Inject(dynamotest.Rule{Op: "ExecuteStatement", Fault: tc.fault})
			for run := 1; run <= 2; run++ {
				before := r.p.Count("ExecuteStatement")
				logged := len(hs.m.log.Reqs)
				hs.keys(map[int]string{1: "enter", 2: "n"}[run]) // n reads on from where it stopped
				sent := r.p.Count("ExecuteStatement") - before
				o, ok := findOverlay[overlay.Bulk](hs.m)
				if !ok {
					t.Fatal("no PartiQL overlay")
				}
				rd := o.Read()
				if rd.Stop != dynamo.StopEstimate || !strings.HasPrefix(rd.NextToken, map[bool]string{true: "endless-", false: "cheap-"}[tc.estimated]) {
					t.Fatalf("run %d: stop %q, next token %q: %s", run, rd.Stop, rd.NextToken, rd.Err)
				}
				if tc.requests > 0 && sent != tc.requests || tc.requests == 0 && sent > 10 {
					t.Errorf("run %d: %d requests", run, sent)
				}
				reqs := hs.m.log.Reqs[logged:]
				if len(reqs) != sent {
					t.Errorf("run %d: %d requests sent, %d logged", run, sent, len(reqs))
				}
				for i, q := range reqs {
					if q.Limit <= 0 {
						t.Errorf("run %d: request %d sent without a Limit", run, i+1)
					}
				}
				if !strings.Contains(rd.Err, tc.says) || strings.Contains(rd.Err, "--max-rcu") {
					t.Errorf("run %d: want …%s…, said %s", run, tc.says, rd.Err)
				}
				if tc.estimated != strings.Contains(rd.Err, "an estimated 903 RCU (") || tc.estimated != strings.Contains(rd.Err, "AWS would report the real figure") {
					t.Errorf("run %d: estimated %v: %s", run, tc.estimated, rd.Err)
				}
				if why := dynamotest.SentenceProblem(rd.Err); why != "" {
					t.Errorf("run %d: %s: %s", run, why, rd.Err)
				}
				hs.contains("incomplete: kept what was read")
				t.Logf("run %d: %d requests; %s", run, sent, rd.Err)
			}
		})
	}
}
