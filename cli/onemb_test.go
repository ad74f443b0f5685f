package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// DynamoDB Local answers a filtered Query of the demo's CUST#7 (4,000
// orders, 2.3 MB) in one page of 294 RCU; DynamoDB stops each page at 1 MB
// read, before the filter: three requests. query says so, in its JSON
// ("dynamoDBPaging") and on stderr, in every format.
func TestQuerySaysDynamoDBWouldPageIt(t *testing.T) {
	table, ep := seededDemo(t)
	args := []string{"query", "--endpoint-url", ep, "--table", table, "--pk", "CUST#7", "--sk-begins-with", "ORDER#", "--filter", `status = "OPEN"`}
	out, stderr, err := cli(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Count, ScannedCount, Pages int
		DynamoDBPaging             *pagingOut `json:"dynamoDBPaging"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	p := got.DynamoDBPaging
	if got.Pages != 1 || got.ScannedCount != 4000 || p == nil || p.Requests != 3 || len(p.PagesOver) != 1 ||
		p.PagesOver[0].Page != 1 || p.PagesOver[0].ScannedCount != 4000 || p.PagesOver[0].Stops != 2 || p.PagesOver[0].BytesRead <= 2<<20 {
		t.Fatalf("%d pages, %d scanned, paging %+v", got.Pages, got.ScannedCount, p)
	}
	want := "DynamoDB would have paged this read: it ends a page once it has read 1 MB, before the filter, and page 1 read 4,000 items, "
	if !strings.Contains(stderr, want) || !strings.Contains(stderr, "so on DynamoDB the read takes 3 requests, not 1 (DynamoDB Local does not stop a filtered page at 1 MB") {
		t.Errorf("stderr %q", stderr)
	}
	for _, format := range []string{"jsonl", "table"} {
		_, stderr, err := cli(t, append(args, "--output", format)...)
		if err != nil || !strings.Contains(stderr, want) {
			t.Errorf("--output %s: %v, %q", format, err, stderr)
		}
	}
	// Without the filter DynamoDB Local pages at 1 MB itself: nothing to say.
	out, stderr, err = cli(t, "query", "--endpoint-url", ep, "--table", table, "--pk", "CUST#7", "--all-pages")
	if err != nil || strings.Contains(out, "dynamoDBPaging") || strings.Contains(stderr, "would have paged") {
		t.Errorf("unfiltered: %v, %q", err, stderr)
	}
}

// patterns check counts a pattern's requests by DynamoDB's 1 MB rule, not
// by the pages DynamoDB Local answered with, and says what a filtered
// pattern keeps of what it reads; one that throws most of it away has a
// verdict of its own, at the file's threshold (check: minKept:, 50% by
// default) or the pattern's own. Before, the filter over CUST#7 that keeps
// 72 of 4,000 was "one request" and a pass.
func TestPatternsCheckOneMBAndDiscard(t *testing.T) {
	table, ep := seededDemo(t)
	dir := t.TempDir()
	write := func(name, check, extra string) string {
		path := filepath.Join(dir, name)
		body := "table: " + table + "\n" + check + `patterns:
  - name: open orders of a customer
    pk: "CUST#{customerId}"
    sk: {begins_with: "ORDER#"}
    filter: 'status = "OPEN"'
` + extra + `    example: {customerId: "7"}
  - name: orders in a status
    pk: "CUST#{customerId}"
    sk: {begins_with: "ORDER#"}
    filter: 'status = "{status}"'
    example: {customerId: "1100", status: CANCELLED}
  - name: latest order
    pk: "CUST#{customerId}"
    sk: {begins_with: "ORDER#"}
    reverse: true
    limit: 1
    example: {customerId: "42"}
`
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}

	// The default threshold: three requests on DynamoDB, and 98% thrown away.
	out, _, err := runPatterns(t, "check", "--endpoint-url", ep, "--patterns", write("default.yaml", "", ""), "--output", "json")
	if err == nil || err.Error() != `1 of 3 patterns fails the check: "open orders of a customer" (3 requests on DynamoDB).` {
		t.Errorf("exit: %v", err)
	}
	c := decodeCheck(t, out)
	open, small, latest := c.Patterns[0], c.Patterns[1], c.Patterns[2]
	if open.Requests != 3 || open.Pages != 1 || open.OneRequest || open.DynamoDBPaging == nil || open.DynamoDBPaging.Requests != 3 ||
		!strings.HasPrefix(open.Verdict, "3 requests on DynamoDB: it ends a page once it has read 1 MB, before the filter (DynamoDB Local answered in 1); it discards 98% of what it reads, below the 50% it must keep (minKept): the access pattern wants a key, not a filter · kept 72 of 4,000 read (1.8%), ") {
		t.Errorf("open orders: %+v", open)
	}
	f := open.Filter
	if f == nil || f.Kept != 72 || f.ScannedCount != 4000 || f.KeptShare != 0.018 || f.MinKept != 0.5 || !f.Discards || f.RCUPerItem == nil ||
		*f.RCUPerItem != open.ConsumedCapacity.Total/72 || f.Expression != `status = "OPEN"` {
		t.Errorf("open orders' filter: %+v", f)
	}
	// A filter over a few items costs DynamoDB's least charge whatever it
	// keeps: a pass, with what it kept said.
	if !small.OneRequest || small.Requests != 1 || small.Filter == nil || small.Filter.Discards || small.DynamoDBPaging != nil ||
		!strings.HasPrefix(small.Verdict, "one request · kept ") || !strings.HasSuffix(small.Verdict, " RCU per item returned") {
		t.Errorf("orders in a status: %+v %+v", small, small.Filter)
	}
	if !latest.OneRequest || latest.Verdict != "one request" || latest.Filter != nil {
		t.Errorf("latest order: %+v", latest)
	}

	// The file's threshold, lower: still three requests, no longer a discard.
	out, _, err = runPatterns(t, "check", "--endpoint-url", ep, "--patterns", write("low.yaml", "check: {minKept: 1%}\n", ""))
	if err == nil || err.Error() != `1 of 3 patterns is not one request: "open orders of a customer" (3 requests on DynamoDB).` {
		t.Errorf("minKept 1%%: %v", err)
	}
	if !strings.Contains(out, "open orders of a customer  Query      3         1      72 ") || strings.Contains(out, "discards") {
		t.Errorf("minKept 1%%:\n%s", out)
	}

	// A pattern's own threshold beats the file's; a bad one is refused at
	// its line.
	out, _, _ = runPatterns(t, "check", "--endpoint-url", ep, "--patterns", write("own.yaml", "check: {minKept: 1%}\n", "    minKept: 90%\n"))
	if !strings.Contains(out, "it discards 98% of what it reads, below the 90% it must keep (minKept)") {
		t.Errorf("the pattern's minKept:\n%s", out)
	}
	_, _, err = runPatterns(t, "check", "--endpoint-url", ep, "--patterns", write("bad.yaml", "check: {minKept: 150%}\n", ""))
	if err == nil || !strings.HasSuffix(err.Error(), "bad.yaml:2: check: minKept must be a share of what is read, such as 50% or 0.5, not \"150%\".") {
		t.Errorf("minKept 150%%: %v", err)
	}
}
