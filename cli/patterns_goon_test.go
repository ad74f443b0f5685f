package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"dynascope/dynamo/dynamotest"
)

// bigCustomer is the patterns file whose CUST#7 patterns take several
// 1 MB pages of the demo table.
const bigCustomer = "cli/testdata/patterns-big-customer.yaml"

// runPatternUntilDone runs a pattern, then the go-on line stderr ends
// with, read by bash, until a run ends without one; it returns the sort
// keys read in order and how many runs it took.
func runPatternUntilDone(t *testing.T, args []string) (got []string, runs int) {
	t.Helper()
	for {
		runs++
		if runs > 20 {
			t.Fatalf("%q: not done after 20 runs", args)
		}
		out, errOut, err := cli(t, args...)
		if err != nil {
			t.Fatalf("%q: %v\n%s", args, err, errOut)
		}
		q := decodeQuery(t, out)
		got = append(got, sortKeysOf(t, q.Items)...)
		next, more := goOnArgs(t, errOut)
		if more && (string(q.LastEvaluatedKey) == "null" || !strings.Contains(errOut, "stopped after 1 page: patterns run follows at most 1 pages")) {
			t.Fatalf("%q: a go-on line without a stop:\n%s", args, errOut)
		}
		if !more {
			return got, runs
		}
		if next[0] != "patterns" || next[1] != "run" || (slices.Contains(args, "customerId=7") || slices.Contains(args, "--param=customerId=7")) != slices.Contains(next, "--param=customerId=7") {
			t.Fatalf("go-on line %q after %q", next, args)
		}
		args = next
	}
}

// A pattern followed past its page cap ends with the command that reads
// only the rest; run again and again, it reads exactly what one run under
// the usual cap does: a Limit pattern no more than its Limit (the line
// carries what is left of it). A Limit met is no stop: "latest order"'s
// lastEvaluatedKey comes with no go-on line.
func TestPatternRunCappedGoesOn(t *testing.T) {
	atTop(t)
	table, ep := seededDemo(t)
	for _, name := range []string{"all orders of a big customer", "a big customer's first 3000 orders"} {
		base := []string{"patterns", "run", name, "--patterns", bigCustomer, "--table", table, "--endpoint-url", ep, "--param", "customerId=7"}
		out, _, err := cli(t, base...)
		if err != nil {
			t.Fatal(err)
		}
		full := decodeQuery(t, out)
		want := sortKeysOf(t, full.Items)
		if full.Pages < 2 || (full.Limit != nil && len(want) != *full.Limit) {
			t.Fatalf("%s: %d pages, %d items: the test needs a pattern of two pages or more", name, full.Pages, len(want))
		}
		func() {
			maxPatternPages = 1
			defer func() { maxPatternPages = 100 }()
			got, runs := runPatternUntilDone(t, base)
			t.Logf("%s: %d runs of one page, %d items", name, runs, len(got))
			if runs != full.Pages || !slices.Equal(got, want) {
				t.Errorf("%s: %d runs read %d items, want %d in %d pages (the same keys in order: %v)", name, runs, len(got), len(want), full.Pages, slices.Equal(got, want))
			}
		}()
	}
	out, errOut, err := cli(t, "patterns", "run", "latest order", "--patterns", bigCustomer, "--table", table, "--endpoint-url", ep)
	if err != nil {
		t.Fatal(err)
	}
	if q := decodeQuery(t, out); q.Count != 1 || string(q.LastEvaluatedKey) == "null" || strings.Contains(errOut, "to go on") {
		t.Errorf("latest order: %d items, lastEvaluatedKey %s, stderr:\n%s", q.Count, q.LastEvaluatedKey, errOut)
	}
}

// Stopped by Ctrl-C while its second page is read, a pattern prints its
// first page, marked incomplete, exits 130 and ends stderr with the
// command that reads only the rest; that line, read by bash, completes
// the pattern with no item missing or twice.
func TestPatternRunCancelledGoesOn(t *testing.T) {
	atTop(t)
	table, ep := seededDemo(t)
	name := "a big customer's first 3000 orders"
	out, _, err := cli(t, "patterns", "run", name, "--patterns", bigCustomer, "--table", table, "--endpoint-url", ep)
	if err != nil {
		t.Fatal(err)
	}
	want := sortKeysOf(t, decodeQuery(t, out).Items)

	proxy := dynamotest.StartProxy(t, ep)
	proxy.Inject(dynamotest.Rule{Op: "Query", From: 2, Fault: dynamotest.Hang})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for proxy.Count("Query") < 2 {
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond)
		cancel()
	}()
	var stdout, stderr bytes.Buffer
	code := Main(ctx, Build{}, []string{"patterns", "run", name, "--patterns", bigCustomer, "--table", table, "--endpoint-url", proxy.URL, "--output", "jsonl"}, &stdout, &stderr)
	if code != exitInterrupted {
		t.Fatalf("exit %d:\n%s", code, stderr.String())
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		got = append(got, sortKeysOf(t, []json.RawMessage{json.RawMessage(l)})...)
	}
	if len(got) == 0 || len(got) >= len(want) {
		t.Fatalf("the first run printed %d items of %d", len(got), len(want))
	}
	next, more := goOnArgs(t, stderr.String())
	if !more || !slices.Contains(next, "--limit") || !slices.Contains(next, "--output=jsonl") {
		t.Fatalf("no go-on line with what is left of the limit:\n%s", stderr.String())
	}
	proxy.ClearFaults()
	next = slices.DeleteFunc(next, func(w string) bool { return w == "--output=jsonl" })
	rest, runs := runPatternUntilDone(t, next)
	if got = append(got, rest...); runs != 1 || !slices.Equal(got, want) {
		t.Errorf("cancelled and gone on in %d runs: %d items, want %d (the same keys in order: %v)", runs, len(got), len(want), slices.Equal(got, want))
	}
}

// --start-key and --limit are refused on a GetItem pattern, and a start
// key of another partition than the pattern's, each in one sentence
// before any read.
func TestPatternRunStartKeyRefused(t *testing.T) {
	atTop(t)
	table, ep := seededDemo(t)
	proxy := dynamotest.StartProxy(t, ep)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"customer profile", "--start-key", `{"PK":"CUST#42","SK":"PROFILE"}`}, `pattern "customer profile" is a GetItem, one item in one request: --start-key and --limit go on with a Query pattern's pages.`},
		{[]string{"customer profile", "--limit", "2"}, `pattern "customer profile" is a GetItem`},
		{[]string{"latest order", "--start-key", `{"PK":"CUST#7","SK":"ORDER#2024-11-12#B3239"}`}, "CUST#42"},
	} {
		_, _, err := cli(t, append([]string{"patterns", "run", "--table", table, "--endpoint-url", proxy.URL}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v", c.args, err)
		}
	}
	if n := proxy.Count("Query") + proxy.Count("GetItem"); n != 0 {
		t.Errorf("%d reads sent", n)
	}
}
