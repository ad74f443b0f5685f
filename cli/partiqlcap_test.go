package cli

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"dynascope/dynamo/dynamotest"
)

// estimatedRE reads the figure a cap's stop says the run cost.
var estimatedRE = regexp.MustCompile(`, (?:an estimated|about)? ?([0-9.]+) RCU[ ;]`)

// partiql under --max-rcu, answered with endless pages that carry no
// ConsumedCapacity, stops at its cap with exit 0: its pages sized to what
// the cap has left, each counted at the most it could cost, so the figure
// it says never passes the cap; its sentence says what it read and cost,
// that AWS would report the real figure, and the go-on line follows. A
// statement planned as a Query, with no cap given, stops at the 451 RCU it
// announced (before: 1,807 requests to 903.5 RCU). Cheap endless pages
// (0.5 RCU each, reported) end at the stated bound, cap / 0.5 requests.
func TestCLIPartiQLStopsAtTheCap(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	scan := `SELECT * FROM "` + table + `" WHERE total > 1000`
	for _, tc := range []struct {
		name     string
		fault    dynamotest.Fault
		args     []string
		cap      float64
		fails    bool // the announced bound: an error, as scan's estimate stop
		stop     string
		says     string
		requests int // exactly, costs reported; 0: at most 10, costs not reported
	}{
		{"--max-rcu", dynamotest.EndlessStatement(), []string{scan, "--yes", "--max-rcu", "20"}, 20, false, "max-rcu",
			"stopped at the --max-rcu cap of 20 RCU after 0 items in ", 0},
		{"announced", dynamotest.EndlessStatement(), []string{`SELECT * FROM "` + table + `" WHERE PK = 'CUST#42'`}, 903, true, "estimate",
			"stopped at its limit of 903 RCU (2 × the 451 RCU announced + 1) after 0 items in ", 0},
		{"cheap endless", dynamotest.CheapEndlessStatement(0.5), []string{scan, "--yes", "--max-rcu", "20"}, 20, false, "max-rcu",
			"stopped at the --max-rcu cap of 20 RCU after 0 items in 40 requests, 20 RCU; to read on, run the line that follows.", 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proxy.ClearFaults()
			proxy.Inject(dynamotest.Rule{Op: "ExecuteStatement", Fault: tc.fault})
			before := proxy.Count("ExecuteStatement")
			out, errOut, err := cli(t, append([]string{"partiql", "--endpoint-url", proxy.URL}, tc.args...)...)
			sent := proxy.Count("ExecuteStatement") - before
			if (err != nil) != tc.fails {
				t.Fatalf("err %v\n%s", err, errOut)
			}
			said := errOut
			if err != nil {
				checkSentence(t, tc.name, err)
				said = err.Error()
			} else if _, ok := goOnArgs(t, errOut); !ok {
				t.Errorf("no go-on line:\n%s", errOut)
			}
			var b bulkJSON
			if jerr := json.Unmarshal([]byte(out), &b); jerr != nil {
				t.Fatalf("%v\n%.400s", jerr, out)
			}
			if b.Stop != tc.stop || !strings.Contains(string(b.Resume), "nextToken") || len(b.Requests) != sent {
				t.Errorf("stop %q, resume %s, %d requests in the output of %d sent", b.Stop, b.Resume, len(b.Requests), sent)
			}
			if tc.requests > 0 && sent != tc.requests || tc.requests == 0 && sent > 10 {
				t.Errorf("%d requests", sent)
			}
			if b.Consumed.Total > tc.cap {
				t.Errorf("%v RCU reported under a cap of %v", b.Consumed.Total, tc.cap)
			}
			if !strings.Contains(said, tc.says) {
				t.Errorf("want …%s…, said:\n%s", tc.says, said)
			}
			m := estimatedRE.FindStringSubmatch(said)
			if m == nil || num(t, m[1]) > tc.cap || num(t, m[1]) <= tc.cap-0.5 {
				t.Errorf("the figure said is not at the cap of %v: %s", tc.cap, said)
			}
			// An estimate is said as one, and only then.
			if estimated := tc.requests == 0; estimated != strings.Contains(said, "AWS would report the real figure") {
				t.Errorf("estimated %v: %s", estimated, said)
			}
		})
	}
}
