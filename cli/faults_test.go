package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"dynascope/dynamo/dynamotest"
)

// pageFaults are what a server that is not quite DynamoDB sends in the
// middle of paging, with the words the error must hold.
var pageFaults = []struct {
	fault dynamotest.Fault
	says  string
}{
	{dynamotest.EmptyBody200, "answered Query with HTTP 200 with an empty body"},
	{dynamotest.EmptyObject200, "answered Query with no Count or no ScannedCount"},
	{dynamotest.RepeatKey, "answered Query with a LastEvaluatedKey {"},
	{dynamotest.EmptyPageWithKey, "equal to the ExclusiveStartKey it was sent (paging would never end)"},
	{dynamotest.LyingCounts(9, 5), "answered Query with Count 9 larger than ScannedCount 5"},
	{dynamotest.LyingCounts(-3, 1), "answered Query with a negative count"},
	{dynamotest.InfiniteCapacity, "not a finite number"},
	{dynamotest.HTML200, "answered Query with HTTP 200 with a web page"},
	{dynamotest.MalformedJSON200, "answered Query with HTTP 200 with broken JSON"},
	{dynamotest.CRCMismatch, "does not match its CRC32 checksum"},
	{dynamotest.BareStatus(404), "answered Query with HTTP 404 (Not Found) with an empty body"},
	{dynamotest.BadAttribute(`{"S":null}`), `an attribute value {"S":null} that is not a valid S`},
	{dynamotest.Unavailable503, "answered HTTP 503 (a server error)"},
	{dynamotest.StallMidBody, "within the time-out"},
	{dynamotest.AccessDenied, "access denied"},
	{dynamotest.InternalError, "DynamoDB had an internal error"},
	{dynamotest.Reset, "the connection to"},
	{dynamotest.Truncate, "was cut off in transit"},
}

// Cancelled while page 3 hangs: it ends at once, and the two pages read are
// written, marked incomplete.
func TestCLIQueryAllPagesCancelled(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	proxy.Inject(dynamotest.Rule{Op: "Query", From: 3, Fault: dynamotest.Hang})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for proxy.Count("Query") < 3 {
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond)
		cancel()
	}()
	var out, errb bytes.Buffer
	began := time.Now()
	err := run(ctx, []string{"query", "--endpoint-url", proxy.URL, "--table", table, "--pk", "CUST#42", "--limit", "1", "--all-pages"}, &out, &errb)
	if err == nil || !strings.HasSuffix(err.Error(), ": cancelled.") {
		t.Fatalf("error: %v", err)
	}
	if d := time.Since(began); d > 12*time.Second { // a hang not cancelled runs into the 15 s default time-out; a loaded machine may take seconds
		t.Errorf("took %v", d)
	}
	q := decodeQuery(t, out.String())
	if q.Count != 2 || q.Pages != 2 || !strings.Contains(string(q.LastEvaluatedKey), "ORDER#2025-03-01#A17") {
		t.Errorf("partial result: count=%d pages=%d lek=%s", q.Count, q.Pages, q.LastEvaluatedKey)
	}
}

// query --all-pages meets each fault on its third page: the two pages read
// are written (json: marked incomplete by the key the failed page starts
// from; jsonl: the lines), the exit is an error, and the sentence names
// what the endpoint sent. Before, an empty 200 ended the read as complete
// and a repeated key wrote the same items for ever.
func TestCLIQueryAllPagesFaults(t *testing.T) {
	table, ep := seededDemo(t)
	for _, tc := range pageFaults {
		t.Run(tc.fault.String(), func(t *testing.T) {
			proxy := dynamotest.StartProxy(t, ep)
			proxy.Inject(dynamotest.Rule{Op: "Query", From: 3, Fault: tc.fault})
			args := []string{"query", "--endpoint-url", proxy.URL, "--table", table, "--pk", "CUST#42", "--limit", "1", "--all-pages", "--max-attempts", "1", "--timeout", "5s"} // the stall case waits it out; 1 s failed quick faults on a loaded machine
			out, _, err := cli(t, args...)
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("error: %v\nwant one holding %q", err, tc.says)
			}
			checkSentence(t, "query --all-pages", err)
			q := decodeQuery(t, out)
			if q.Count != 2 || len(q.Items) != 2 || q.Pages != 2 || !strings.Contains(string(q.LastEvaluatedKey), "ORDER#2025-03-01#A17") {
				t.Errorf("partial result: count=%d items=%d pages=%d lek=%s", q.Count, len(q.Items), q.Pages, q.LastEvaluatedKey)
			}

			proxy.ClearFaults()
			proxy.Inject(dynamotest.Rule{Op: "Query", From: 3, Fault: tc.fault})
			out, _, err = cli(t, append(args, "--output", "jsonl")...)
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("jsonl error: %v", err)
			}
			if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 2 || !json.Valid([]byte(lines[1])) {
				t.Errorf("jsonl wrote %d lines:\n%s", len(lines), out)
			}
		})
	}
}

// groups --count whose last page fails prints every type it read, those
// read to their end with their count and the one cut short with none, and
// says why.
func TestCLIGroupsCountFault(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	// CUST#7 (4,001 items) is more than one page: ORDER goes on past the first.
	args := []string{"groups", "--endpoint-url", proxy.URL, "--table", table, "--pk", "CUST#7", "--count", "--max-attempts", "1"}
	clean, _, err := cli(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	queries := proxy.Count("Query")
	if queries < 2 {
		t.Fatalf("the whole read of CUST#7 took %d Query", queries)
	}
	for _, f := range []dynamotest.Fault{dynamotest.EmptyBody200, dynamotest.LyingCounts(9, 5), dynamotest.HTML200, dynamotest.AccessDenied} {
		t.Run(f.String(), func(t *testing.T) {
			proxy.ClearFaults()
			proxy.Inject(dynamotest.Rule{Op: "Query", From: queries, Fault: f}) // the last page
			out, _, err := cli(t, args...)
			if err == nil {
				t.Fatalf("no error; printed:\n%s", out)
			}
			checkSentence(t, "groups --count", err)
			var got, want struct {
				Groups []struct {
					Entity string `json:"entity"`
					Count  *int   `json:"count"`
				} `json:"groups"`
				Complete bool `json:"complete"`
			}
			if json.Unmarshal([]byte(out), &got) != nil || json.Unmarshal([]byte(clean), &want) != nil || len(got.Groups) == 0 || len(got.Groups) > len(want.Groups) || got.Complete {
				t.Fatalf("printed:\n%s\nclean run:\n%s", out, clean)
			}
			last := len(got.Groups) - 1
			for i, g := range got.Groups {
				switch {
				case g.Entity != want.Groups[i].Entity:
					t.Errorf("group %d is %s, not %s", i, g.Entity, want.Groups[i].Entity)
				case i < last && (g.Count == nil || *g.Count != *want.Groups[i].Count):
					t.Errorf("group %s: count %v, want %d", g.Entity, g.Count, *want.Groups[i].Count)
				case i == last && g.Count != nil:
					t.Errorf("the unfinished count of %s shows %d", g.Entity, *g.Count)
				}
			}
		})
	}
}

// tables and layout meet a key that never moves: they stop with a sentence;
// layout still prints the items it read, its stop saying "error".
func TestCLIListAndScanKeyDoesNotMove(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	proxy.Inject(dynamotest.Rule{Op: "ListTables", Fault: dynamotest.EmptyPageWithKey})
	_, _, err := cli(t, "tables", "--endpoint-url", proxy.URL)
	if err == nil || !strings.Contains(err.Error(), `answered ListTables with a LastEvaluatedTableName "aaa" that is not after the ExclusiveStartTableName "aaa" it was sent`) {
		t.Errorf("tables: %v", err)
	}
	for _, f := range []dynamotest.Fault{dynamotest.RepeatKey, dynamotest.EmptyPageWithKey} {
		proxy.ClearFaults()
		proxy.Inject(dynamotest.Rule{Op: "Scan", From: 2, Fault: f})
		out, _, err := cli(t, "layout", "--endpoint-url", proxy.URL, "--table", table, "--segments", "1", "--max-attempts", "1")
		if err == nil || !strings.Contains(err.Error(), "answered Scan with a LastEvaluatedKey {") || !strings.Contains(err.Error(), "it had sent before (paging would never end)") {
			t.Errorf("layout, %s: %v", f, err)
		}
		var lay struct {
			Sample struct {
				Stop  string `json:"stop"`
				Items int    `json:"items"`
			} `json:"sample"`
		}
		// The first page (its size from DescribeTable's average item) is kept.
		if json.Unmarshal([]byte(out), &lay) != nil || lay.Sample.Stop != "error" || lay.Sample.Items < 1 {
			t.Errorf("layout, %s, printed:\n%.400s", f, out)
		}
	}
}

// A string key that is not UTF-8 is refused before any request: the SDK
// would send U+FFFD in its place and answer for another key.
func TestCLIInvalidUTF8Key(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	_, _, err := cli(t, "query", "--endpoint-url", proxy.URL, "--table", table, "--pk", "CUST#\xff42")
	if err == nil || err.Error() != `the partition key PK is a string and "CUST#\xff42" is not valid UTF-8.` {
		t.Errorf("got %v", err)
	}
	if n := proxy.Count("Query"); n != 0 {
		t.Errorf("%d queries sent", n)
	}
}

// A password in the endpoint URL is in no error and in no schema cache file.
func TestCLIEndpointPasswordNeverShown(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	withPassword := strings.Replace(proxy.URL, "http://", "http://explorer:hunter2secret@", 1)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	if _, _, err := cli(t, "query", "--endpoint-url", withPassword, "--table", table, "--pk", "CUST#42"); err != nil {
		t.Fatal(err)
	}
	proxy.Inject(dynamotest.Rule{Op: "Query", Fault: dynamotest.HTML200})
	_, stderr, err := cli(t, "query", "--endpoint-url", withPassword, "--table", table, "--pk", "CUST#42", "--max-attempts", "1")
	if err == nil || strings.Contains(err.Error()+stderr, "hunter2secret") || !strings.Contains(err.Error(), "http://explorer:xxxxx@127.0.0.1") {
		t.Errorf("error: %v\nstderr: %s", err, stderr)
	}
	files := 0
	_ = filepath.WalkDir(cache, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files++
			if b, _ := os.ReadFile(path); strings.Contains(string(b), "hunter2secret") {
				t.Errorf("%s holds the password:\n%s", path, b)
			}
		}
		return nil
	})
	if files == 0 {
		t.Error("no schema cache file was written: nothing checked")
	}
}

// One segment of four fails in the middle of a layout sample: the layout of
// what the segments read is printed (json and table), its stop "error"
// saying it is incomplete, and the exit is the failure's sentence. Before,
// one failed segment discarded the whole sample.
func TestCLILayoutOneSegmentFails(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	for _, output := range []string{"json", "table"} {
		t.Run(output, func(t *testing.T) {
			proxy.ClearFaults()
			// The four first pages pass; the sixth Scan, a second page of
			// some segment, is refused.
			proxy.Inject(dynamotest.Rule{Op: "Scan", From: 6, Count: 1, Fault: dynamotest.AccessDenied})
			out, stderr, err := cli(t, "layout", "--endpoint-url", proxy.URL, "--table", table, "--segments", "4", "--max-attempts", "1", "--output", output)
			if err == nil || !strings.Contains(err.Error(), "sample "+table+" (scan segment ") || !strings.Contains(err.Error(), "access denied") {
				t.Fatalf("error: %v", err)
			}
			checkSentence(t, "layout", err)
			if !strings.Contains(stderr, "sampling table "+table+": up to ") {
				t.Errorf("the cost was not announced:\n%s", stderr)
			}
			if output == "table" {
				if !strings.Contains(out, "· stopped: error") || !strings.Contains(out, "ORDER#*") {
					t.Errorf("printed:\n%.600s", out)
				}
				return
			}
			var lay struct {
				Sample struct {
					Stop  string `json:"stop"`
					Items int    `json:"items"`
				} `json:"sample"`
				Families []struct {
					Items int `json:"items"`
				} `json:"families"`
			}
			if err := json.Unmarshal([]byte(out), &lay); err != nil {
				t.Fatalf("%v; printed:\n%.600s", err, out)
			}
			sum := 0
			for _, f := range lay.Families {
				sum += f.Items
			}
			if lay.Sample.Stop != "error" || lay.Sample.Items == 0 || sum != lay.Sample.Items {
				t.Errorf("stop %q, %d items, families holding %d", lay.Sample.Stop, lay.Sample.Items, sum)
			}
		})
	}
}

// A server that never ends a read, each key moving forward and each page
// costing 100 RCU: query --all-pages and groups --count stop once what they
// spend passes the cost they announced by a clear margin, print what they
// read marked incomplete, and say why: the size figures may be out of date
// (never "the endpoint keeps sending pages"), and how to go on. Before,
// groups --count read on for ever.
func TestCLIEndlessPagesStopOnCost(t *testing.T) {
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	bound := regexp.MustCompile(`→ predicted ≤ ([0-9.]+) RCU \(DescribeTable's estimate\)`)
	// The stop blames the estimate, never the endpoint, and says how to go on.
	stopped := regexp.MustCompile(` stopped after ([0-9.]+) RCU, clearly more than the ([0-9.]+) RCU announced: DescribeTable's size figures may be out of date \(DynamoDB refreshes them about every six hours\); what was read is printed; to read further, .+\.$`)
	check := func(t *testing.T, what, stderr string, err error) {
		t.Helper()
		checkSentence(t, what, err)
		b, s := bound.FindStringSubmatch(stderr), stopped.FindStringSubmatch(fmt.Sprint(err))
		if b == nil || s == nil || s[2] != b[1] {
			t.Fatalf("%s: announced %q, error %v", what, stderr, err)
		}
		spent, _ := strconv.ParseFloat(s[1], 64)
		announced, _ := strconv.ParseFloat(b[1], 64)
		// The stop comes at the first page past the margin: one page more
		// than 2 × bound + 1 + a unit a page.
		if pages := int(spent / 100); spent <= 2*announced || spent > 2*announced+1+float64(pages)+100 {
			t.Errorf("%s: stopped after %v RCU with %v announced", what, spent, announced)
		}
	}

	t.Run("query --all-pages", func(t *testing.T) {
		proxy.ClearFaults()
		proxy.Inject(dynamotest.Rule{Op: "Query", Count: 50, Fault: dynamotest.EndlessPages(100)}) // 50 pages: an end, should the guard fail
		out, stderr, err := cli(t, "query", "--endpoint-url", proxy.URL, "--table", table, "--pk", "CUST#42", "--sk-begins-with", "ORDER#", "--all-pages")
		check(t, "query --all-pages", stderr, err)
		if q := decodeQuery(t, out); string(q.LastEvaluatedKey) == "null" || q.Pages < 2 {
			t.Errorf("not marked incomplete: %d pages, LastEvaluatedKey %s", q.Pages, q.LastEvaluatedKey)
		}
	})

	t.Run("groups --count", func(t *testing.T) {
		proxy.ClearFaults()
		// The whole read of CUST#7: its first page is real, every page after
		// it an empty one of 100 RCU that moves on.
		args := []string{"groups", "--endpoint-url", proxy.URL, "--table", table, "--pk", "CUST#7"}
		proxy.Inject(dynamotest.Rule{Op: "Query", Count: 50, Fault: dynamotest.EndlessPagesAfterStart(100)}) // 50 pages: an end, should the guard fail
		out, stderr, err := cli(t, append(args, "--count")...)
		check(t, "groups --count", stderr, err)
		if !strings.Contains(err.Error(), "count CUST#7 on "+table+" stopped after ") {
			t.Errorf("the error does not name the count: %v", err)
		}
		var got struct {
			Groups []struct {
				Count *int `json:"count"`
			} `json:"groups"`
			Complete bool `json:"complete"`
		}
		// The first page's type goes on past it: it has no count.
		if json.Unmarshal([]byte(out), &got) != nil || len(got.Groups) < 1 || got.Complete || got.Groups[len(got.Groups)-1].Count != nil {
			t.Errorf("printed:\n%s", out)
		}
	})
}
