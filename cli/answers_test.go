package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"dynascope/dynamo/dynamotest"
)

// groupsOut is the part of groups' JSON these tests read.
type groupsOut struct {
	Groups []struct {
		Entity string `json:"entity"`
		Count  *int   `json:"count"`
	} `json:"groups"`
	Complete bool `json:"complete"`
	Requests int  `json:"requests"`
}

// groups --count stopped by a stale-size estimate prints the groups it
// read, marked incomplete, as after a signal: never "No items in this
// partition" or "groups": [] after reading 1,744 items.
func TestCLIGroupsCountStoppedByStaleSize(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	proxy.Inject(dynamotest.Rule{Op: "DescribeTable", Fault: dynamotest.StaleSize(10, 1000)})
	out, stderr, err := cli(t, "groups", "--endpoint-url", proxy.URL, "--table", table, "--pk", "CUST#7", "--count", "--output", "json")
	checkSentence(t, "groups --count", err)
	var g groupsOut
	if jerr := json.Unmarshal([]byte(out), &g); jerr != nil {
		t.Fatalf("%v; printed:\n%.600s\nstderr %s", jerr, out, stderr)
	}
	if len(g.Groups) == 0 || g.Complete {
		t.Errorf("%d groups, complete %v after a stopped count; stderr %s", len(g.Groups), g.Complete, stderr)
	}
	if err != nil && !strings.Contains(err.Error(), "six hours") {
		t.Errorf("the stop does not name the stale size figures: %v", err)
	}

	out, _, _ = cli(t, "groups", "--endpoint-url", proxy.URL, "--table", table, "--pk", "CUST#7", "--count", "--output", "table")
	if strings.Contains(out, "No items") || !strings.Contains(out, "ORDER") || !strings.Contains(out, "incomplete") {
		t.Errorf("the table after a stopped count:\n%s", out)
	}

	// The way on the sentence names: --max-rcu, which alone bounds the
	// count, finishes it; a cap too small stops it with the groups read.
	out, stderr, err = cli(t, "groups", "--endpoint-url", proxy.URL, "--table", table, "--pk", "CUST#7", "--count", "--max-rcu", "1000")
	if err != nil || !strings.Contains(stderr, "capped at 1000 RCU (--max-rcu)") {
		t.Fatalf("--max-rcu 1000: %v; stderr %s", err, stderr)
	}
	g = groupsOut{}
	if jerr := json.Unmarshal([]byte(out), &g); jerr != nil || !g.Complete {
		t.Fatalf("%v, complete %v", jerr, g.Complete)
	}
	counts := map[string]int{}
	for _, gr := range g.Groups {
		if gr.Count != nil {
			counts[gr.Entity] = *gr.Count
		}
	}
	if counts["ORDER"] != 4000 || counts["PROFILE"] != 1 {
		t.Errorf("counted %v, want ORDER 4000 and PROFILE 1", counts)
	}
	out, _, err = cli(t, "groups", "--endpoint-url", proxy.URL, "--table", table, "--pk", "CUST#7", "--count", "--max-rcu", "50")
	checkSentence(t, "groups --count --max-rcu 50", err)
	g = groupsOut{}
	if jerr := json.Unmarshal([]byte(out), &g); jerr != nil || g.Complete || len(g.Groups) == 0 ||
		err == nil || !strings.Contains(err.Error(), "stopped at the --max-rcu cap of 50 RCU after reading ") {
		t.Errorf("--max-rcu 50: %v, complete %v, %d groups; %v", jerr, g.Complete, len(g.Groups), err)
	}
	if _, _, err := cli(t, "groups", "--endpoint-url", proxy.URL, "--table", table, "--pk", "CUST#7", "--max-rcu", "50"); err == nil || !strings.Contains(err.Error(), "give it with --count") {
		t.Errorf("--max-rcu without a whole read: %v", err)
	}
}

// queriesSince counts the Query requests a proxy saw from since on.
func queriesSince(p *dynamotest.Proxy, since int) int {
	n := 0
	for _, c := range p.Calls()[since:] {
		if c.Op == "Query" {
			n++
		}
	}
	return n
}

// Under cheap forward pages (an endpoint feeding empty pages at 0.5 RCU,
// each key a step further), groups --count and --by attribute stop where
// query --all-pages stops: at the bound they announced. Before, their
// own margin let them send about three times the requests
// (5,483 requests over 245 s on the demo table).
func TestCLIWholeReadsHeldToQuerysBound(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	// A small table by DescribeTable's figures: a bound of a few RCU.
	proxy.Inject(dynamotest.Rule{Op: "DescribeTable", Fault: dynamotest.StaleSize(100, 40960)},
		dynamotest.Rule{Op: "Query", Fault: dynamotest.EndlessPages(0.5)})
	reads := map[string][]string{
		"query":     {"query", "--all-pages", "--output", "json"},
		"count":     {"groups", "--count"},
		"attribute": {"groups", "--by", "attribute:status"},
	}
	sent := map[string]int{}
	for _, name := range []string{"query", "count", "attribute"} {
		since := len(proxy.Calls())
		args := append(append([]string{}, reads[name]...), "--endpoint-url", proxy.URL, "--table", table, "--pk", "CUST#7")
		_, stderr, err := cli(t, args...)
		checkSentence(t, name, err)
		// The cause named is the endpoint's empty pages, never stale
		// size figures.
		if err != nil && (!strings.Contains(err.Error(), "clearly more than the 5.5 RCU announced: the endpoint sent ") || strings.Contains(err.Error(), "six hours")) {
			t.Errorf("%s: %v", name, err)
		}
		if !strings.Contains(stderr, "predicted ≤ 5.5 RCU") {
			t.Errorf("%s announced %q", name, stderr)
		}
		sent[name] = queriesSince(proxy, since)
	}
	if sent["query"] == 0 || sent["query"] > 40 {
		t.Fatalf("query sent %d requests", sent["query"])
	}
	for _, name := range []string{"count", "attribute"} {
		if sent[name] > sent["query"] {
			t.Errorf("%s sent %d requests, query %d under the same bound", name, sent[name], sent["query"])
		}
	}
}

// A go-on key the endpoint sent that is long but within DynamoDB's limits
// (here a sort key of 1,007 bytes) never floods the terminal: the go-on
// command is written to a file the sentence names, and that file holds it
// whole. Before, the 1,000-character key was printed in the sentence.
func TestCLILongGoOnKeyIsWrittenToAFile(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	long := "ORDER#9" + strings.Repeat("~", 1000)
	proxy.Inject(dynamotest.Rule{Op: "Query", Count: 1, Fault: dynamotest.LastKey(`{"PK":{"S":"CUST#7"},"SK":{"S":"` + long + `"}}`)})
	t.Setenv("TMPDIR", t.TempDir())
	_, stderr, err := cli(t, "query", "--endpoint-url", proxy.URL, "--table", table, "--pk", "CUST#7")
	if err != nil {
		t.Fatalf("%v; stderr %s", err, stderr)
	}
	for _, line := range strings.Split(stderr, "\n") {
		if len(line) > 300 {
			t.Errorf("a line of %d characters: %.200s…", len(line), line)
		}
	}
	m := regexp.MustCompile(`run: bash (\S+) \(the command, (\d+) characters with its key, is too long to print`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no file named for the go-on command:\n%.600s", stderr)
	}
	b, rerr := os.ReadFile(strings.Trim(m[1], "'"))
	if rerr != nil || !strings.HasPrefix(string(b), "dynascope query ") || !strings.Contains(string(b), long) {
		t.Fatalf("the file: %v %.200s", rerr, b)
	}
}

// SIGTERM while page 3 of query --all-pages hangs: the sentence names
// SIGTERM, never "cancelled." or "context canceled" alone.
func TestCLISignalTermQuerySaysSIGTERM(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	proxy.Inject(dynamotest.Rule{Op: "Query", From: 3, Fault: dynamotest.Hang})
	_, stderr, status := signalAfter(t, proxy, "Query", 3, syscall.SIGTERM, "query", "--endpoint-url", proxy.URL, "--table", table, "--pk", "CUST#42", "--limit", "1", "--all-pages")
	if status != exitInterrupted || !strings.Contains(stderr, ": stopped by SIGTERM.\n") || strings.Contains(stderr, "cancel") {
		t.Errorf("status %d, stderr:\n%s", status, stderr)
	}
}

// An invalid go-on key the endpoint sent (outside the query's sort-key
// condition) is refused as the endpoint's, never sent back: before, it
// was, and DynamoDB's raw "does not match the range key predicate" was
// shown.
func TestCLIQueryRefusesAGoOnKeyOutsideItsCondition(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	proxy.Inject(dynamotest.Rule{Op: "Query", Count: 1, Fault: dynamotest.LastKey(`{"PK":{"S":"CUST#7"},"SK":{"S":"PROFILE"}}`)})
	_, stderr, err := cli(t, "query", "--endpoint-url", proxy.URL, "--table", table, "--pk", "CUST#7", "--sk-begins-with", "ORDER#", "--all-pages")
	checkSentence(t, "query", err)
	msg := fmt.Sprint(err)
	if !strings.Contains(msg, `outside the sort-key condition SK begins_with "ORDER#"`) || strings.Contains(msg+stderr, "range key predicate") || len(msg) > 300 {
		t.Errorf("%s\nstderr %s", msg, stderr)
	}
	if proxy.Count("Query") != 1 {
		t.Errorf("%d Queries: the key was sent back", proxy.Count("Query"))
	}
}
