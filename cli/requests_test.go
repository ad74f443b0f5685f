package cli

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/charmbracelet/x/exp/golden" // its -update flag

	"dynascope/dynamo/dynamotest"
)

// The paged reads send exactly the requests they sent before the reader
// moved into dynamo: for each command and flag set, every Query request as
// it left (Limit, ExclusiveStartKey, order, Select, expressions), with the
// Count, LastEvaluatedKey and capacity of DynamoDB Local's answer, read
// off the wire by the tap. The demo table is the same on every seed, so
// the record is too. Update with -update, only where a change of requests
// is intended.
func TestPagedReadRequests(t *testing.T) {
	atTop(t)
	table, ep := seededDemo(t)
	const start = `{"PK":"CUST#7","SK":"ORDER#2024-11-12#B3239"}`
	cases := []struct {
		name string
		args []string
	}{
		{"query one page", []string{"query", "--pk", "CUST#42"}},
		{"query one page of more", []string{"query", "--pk", "CUST#7"}},
		{"query all pages", []string{"query", "--pk", "CUST#7", "--all-pages", "--output", "jsonl"}},
		{"query all pages capped", []string{"query", "--pk", "CUST#7", "--all-pages", "--max-rcu", "300"}},
		{"query capped one page", []string{"query", "--pk", "CUST#7", "--max-rcu", "40"}},
		{"query reverse limit consistent capped", []string{"query", "--pk", "CUST#7", "--sk-begins-with", "ORDER#", "--reverse", "--limit", "700", "--all-pages", "--consistent", "--max-rcu", "200", "--output", "table"}},
		{"query filtered projected", []string{"query", "--pk", "CUST#7", "--all-pages", "--filter", `status = "OPEN"`, "--project", "total, status"}},
		{"query start key capped", []string{"query", "--pk", "CUST#7", "--sk-begins-with", "ORDER#", "--all-pages", "--max-rcu", "5", "--start-key", start}},
		{"query start key", []string{"query", "--pk", "CUST#7", "--sk-begins-with", "ORDER#", "--all-pages", "--start-key", start, "--output", "csv"}},
		{"query index limit", []string{"query", "--index", "GSI1", "--pk", "WH#1", "--all-pages", "--limit", "50"}},
		{"query cap below a page", []string{"query", "--pk", "CUST#7", "--all-pages", "--max-rcu", "0.1"}},
		{"patterns run pages", []string{"patterns", "run", "all orders of a big customer", "--patterns", bigCustomer}},
		{"patterns run limit", []string{"patterns", "run", "a big customer's first 3000 orders", "--patterns", bigCustomer}},
		{"patterns run limit start key", []string{"patterns", "run", "a big customer's first 3000 orders", "--patterns", bigCustomer, "--limit", "1500", "--start-key", start}},
		{"patterns run latest", []string{"patterns", "run", "latest order", "--patterns", bigCustomer, "--param", "customerId=7"}},
		{"patterns check", []string{"patterns", "check", "--patterns", bigCustomer, "--output", "json"}},
		{"groups count", []string{"groups", "--pk", "CUST#7", "--count"}},
		{"groups count reverse consistent", []string{"groups", "--pk", "CUST#7", "--count", "--reverse", "--consistent"}},
		{"groups count small", []string{"groups", "--pk", "CUST#42", "--count"}},
		{"groups count index", []string{"groups", "--index", "GSI1", "--pk", "WH#1", "--count"}},
		{"groups by attribute", []string{"groups", "--pk", "CUST#7", "--by", "attribute:status"}},
	}
	var rec bytes.Buffer
	for _, c := range cases {
		tap := dynamotest.StartTap(t, ep)
		args := append(append([]string{}, c.args...), "--table", table, "--endpoint-url", tap.URL)
		_, stderr, err := cli(t, args...)
		fmt.Fprintf(&rec, "## %s: %s\n", c.name, strings.Join(c.args, " "))
		if err != nil {
			fmt.Fprintf(&rec, "error: %s\n", strings.ReplaceAll(err.Error(), table, "TABLE"))
		}
		for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
			if strings.Contains(line, "stopped") || strings.Contains(line, "over the") || strings.Contains(line, "more pages follow") || strings.Contains(line, "to go on") {
				line = strings.ReplaceAll(strings.ReplaceAll(line, table, "TABLE"), tap.URL, "ENDPOINT")
				fmt.Fprintf(&rec, "stderr: %s\n", line)
			}
		}
		for _, x := range tap.Exchanges("Query") {
			fmt.Fprintln(&rec, x.Record(table))
		}
	}
	// The working directory is the repository's top (atTop).
	path := filepath.Join("cli", "testdata", "paged-requests.golden")
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(path, rec.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	got, wantLines := strings.Split(rec.String(), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(got), len(wantLines)) {
		g, w := "", ""
		if i < len(got) {
			g = got[i]
		}
		if i < len(wantLines) {
			w = wantLines[i]
		}
		if g != w {
			t.Fatalf("%s line %d differs:\ngot  %s\nwant %s", path, i+1, g, w)
		}
	}
}
