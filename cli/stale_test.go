package cli

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"dynascope/demodata"
	"dynascope/dynamo/dynamotest"
)

// bulkOut is the part of scan's and partiql's JSON these tests read.
type bulkOut struct {
	Items    []json.RawMessage `json:"items"`
	Count    int               `json:"count"`
	Complete bool              `json:"complete"`
	Stop     string            `json:"stop"`
	Resume   json.RawMessage   `json:"resume"`
}

func decodeBulk(t *testing.T, out string) bulkOut {
	t.Helper()
	var b bulkOut
	if err := json.Unmarshal([]byte(out), &b); err != nil {
		t.Fatalf("%v; printed:\n%.600s", err, out)
	}
	return b
}

// DescribeTable's figures are hours old on AWS: right after a load they
// say 0, or far fewer items than the table holds. A scan then announces
// the size as unknown (a stated budget, never "≤ 0.5 RCU"), stops past its
// estimate honestly (the items it read printed, the resume key, the
// figures named as out of date, --max-rcu named as the way on, never the
// endpoint blamed), and with --max-rcu reads the whole table. Before, it
// read one page and exited with 0 items and "the endpoint keeps sending
// pages the table cannot hold".
func TestCLIScanOfATableWithStaleSizes(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	for _, tc := range []struct {
		name     string
		fault    dynamotest.Fault
		announce string
	}{
		{"size 0", dynamotest.StaleSize(0, 0), "size unknown (DescribeTable gives none"},
		{"1000 items, 100 KB", dynamotest.StaleSize(1000, 100_000), "1000 items / 97.7 KiB → predicted ≤ 12.5 RCU"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proxy.ClearFaults()
			proxy.Inject(dynamotest.Rule{Op: "DescribeTable", Fault: tc.fault})
			out, stderr, err := cli(t, "scan", "--endpoint-url", proxy.URL, "--table", table, "--yes")
			if !strings.Contains(stderr, tc.announce) {
				t.Errorf("announced %q, want %q", stderr, tc.announce)
			}
			checkSentence(t, "scan", err)
			msg := ""
			if err != nil {
				msg = err.Error()
			}
			for _, want := range []string{"stopped after ", "clearly more than the ", "about every six hours", "what was read is printed", "--max-rcu N", "it would go on from the key {PK "} {
				if !strings.Contains(msg, want) {
					t.Errorf("the sentence %q does not say %q", msg, want)
				}
			}
			if strings.Contains(msg, "endpoint") {
				t.Errorf("an estimate overrun blamed on the endpoint: %q", msg)
			}
			b := decodeBulk(t, out)
			if b.Count == 0 || len(b.Items) != b.Count || b.Complete || b.Stop != "estimate" || string(b.Resume) == "null" {
				t.Errorf("printed %d items (count %d), complete %v, stop %q, resume %s", len(b.Items), b.Count, b.Complete, b.Stop, b.Resume)
			}

			// The way on it names: --max-rcu reads to that bound, here the end.
			out, _, err = cli(t, "scan", "--endpoint-url", proxy.URL, "--table", table, "--max-rcu", "2000", "--output", "json")
			if err != nil {
				t.Fatal(err)
			}
			if b := decodeBulk(t, out); !b.Complete || b.Count != len(demodata.Items()) {
				t.Errorf("with --max-rcu: complete %v, %d items", b.Complete, b.Count)
			}
		})
	}

	// A read that fits the budget simply succeeds.
	proxy.ClearFaults()
	proxy.Inject(dynamotest.Rule{Op: "DescribeTable", Fault: dynamotest.StaleSize(0, 0)})
	out, _, err := cli(t, "query", "--endpoint-url", proxy.URL, "--table", table, "--pk", "CUST#42", "--all-pages")
	if q := decodeQuery(t, out); err != nil || q.Count == 0 || string(q.LastEvaluatedKey) != "null" {
		t.Errorf("query --all-pages: %v, %d items, lastEvaluatedKey %s", err, q.Count, q.LastEvaluatedKey)
	}
}

// A filtered Scan answered with pages that keep nothing, scan one item and
// cost 0.5 RCU, ends past its estimate, and PartiQL answered with
// NextTokens that move on for ever at the bound it announced, each with
// its sentence. Before, they ran until killed.
func TestCLICheapEndlessPagesEnd(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	proxy.Inject(dynamotest.Rule{Op: "DescribeTable", Fault: dynamotest.StaleSize(10, 4096)},
		dynamotest.Rule{Op: "Scan", Fault: dynamotest.CheapEndlessScan()},
		dynamotest.Rule{Op: "ExecuteStatement", Fault: dynamotest.EndlessStatement()})
	out, _, err := cli(t, "scan", "--endpoint-url", proxy.URL, "--table", table, "--yes", "--filter", `total > 1000`)
	checkSentence(t, "scan", err)
	scanErr := err
	if b := decodeBulk(t, out); b.Stop != "estimate" || proxy.Count("Scan") > 20 {
		t.Errorf("scan: stop %q after %d Scan requests: %v", b.Stop, proxy.Count("Scan"), err)
	}
	// The sentence names the cause: never "stopped after 0.5 RCU, clearly
	// more than the 25 RCU announced", nor stale sizes for pages that hold
	// next to nothing.
	if msg := fmt.Sprint(scanErr); !strings.Contains(msg, "the endpoint sent ") && !strings.Contains(msg, "far more than the 10 items DescribeTable counts") {
		t.Errorf("scan: the sentence does not name the cause: %s", msg)
	} else if m := spentRE.FindStringSubmatch(msg); m != nil && num(t, m[1]) <= num(t, m[2]) {
		t.Errorf("scan: %s", msg)
	}
	// PartiQL stops at its limit, 2 × the 0.5 RCU it announced + 1, its
	// one page sized to it: its cost unreported, counted at the most it
	// could be.
	out, _, err = cli(t, "partiql", "--endpoint-url", proxy.URL, `SELECT * FROM "`+table+`" WHERE total > 1000`, "--yes")
	checkSentence(t, "partiql", err)
	if b := decodeBulk(t, out); b.Stop != "estimate" || proxy.Count("ExecuteStatement") != 1 || !strings.Contains(string(b.Resume), "endless-") ||
		!strings.Contains(fmt.Sprint(err), "stopped at its limit of 2 RCU (2 × the 0.5 RCU announced + 1) after 0 items in 1 request, an estimated 2 RCU") {
		t.Errorf("partiql: stop %q after %d requests, resume %s: %v", b.Stop, proxy.Count("ExecuteStatement"), b.Resume, err)
	}
}

// spentRE reads what an estimate stop says it spent and announced.
var spentRE = regexp.MustCompile(`stopped after ([0-9.]+) RCU, clearly more than the ([0-9.]+) RCU announced`)

// num is a figure of a sentence.
func num(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// With a least-privilege policy that may list every table but not
// describe one, tables lists the others and marks that one, with a note,
// exit 0. Before, it exited 1 and printed nothing.
func TestCLITablesWithPartialPermission(t *testing.T) {
	table, ep := seededDemo(t)
	// A second table of the test's own, so that one is listed whichever
	// the denial hits, however many tables the other tests left meanwhile.
	dynamotest.Table(t, dynamotest.SDK(t), dynamotest.PKSK())
	proxy := dynamotest.StartProxy(t, ep)
	proxy.Inject(dynamotest.Rule{Op: "DescribeTable", Count: 1, Fault: dynamotest.AccessDenied})
	out, stderr, err := cli(t, "tables", "--endpoint-url", proxy.URL, "--output", "json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Tables       []struct{ Name string } `json:"tables"`
		NotDescribed []struct {
			Name, Reason string
		} `json:"notDescribed"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v; printed %.400s", err, out)
	}
	if len(got.NotDescribed) != 1 || got.NotDescribed[0].Reason != "no permission to describe" || len(got.Tables) == 0 {
		t.Errorf("listed %d, not described %+v", len(got.Tables), got.NotDescribed)
	}
	if !strings.Contains(stderr, "note: no permission to describe 1 table (dynamodb:DescribeTable is denied for "+got.NotDescribed[0].Name+")") {
		t.Errorf("note %q", stderr)
	}
	// Text output marks it too.
	proxy.ClearFaults()
	proxy.Inject(dynamotest.Rule{Op: "DescribeTable", Fault: dynamotest.AccessDenied})
	out, _, err = cli(t, "tables", "--endpoint-url", proxy.URL)
	if err != nil || !strings.Contains(out, table) || !strings.Contains(out, "(no permission to describe)") {
		t.Errorf("text: %v\n%.600s", err, out)
	}
}
