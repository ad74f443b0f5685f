package ui

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// localClient connects to DynamoDB Local through a tap that keeps its raw
// answers, and records every Query the client reports.
func localClient(t *testing.T, ep string) (*dynamo.Client, func() []dynamo.Request, *dynamotest.Tap) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tap := dynamotest.StartTap(t, ep)
	client, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: tap.URL, Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var queries []dynamo.Request
	client.OnRequest(func(r dynamo.Request) {
		if r.Operation == "Query" {
			mu.Lock()
			queries = append(queries, r)
			mu.Unlock()
		}
	})
	return client, func() []dynamo.Request {
		mu.Lock()
		defer mu.Unlock()
		return append([]dynamo.Request(nil), queries...)
	}, tap
}

// firstPages are the partition's pages: sent without a Limit, or the first
// sized to the screen (a 35-row one's); the skip-scan's all have Limit 1.
func firstPages(rs []dynamo.Request) []dynamo.Request {
	var out []dynamo.Request
	for _, r := range rs {
		if r.Limit == 0 || r.Limit == screenLimit(35) {
			out = append(out, r)
		}
	}
	return out
}

// waitQueries waits until n queries were answered.
func waitQueries(t *testing.T, seen func() []dynamo.Request, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for len(seen()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("waited for query %d; %d answered", n, len(seen()))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// checkLogAgainst checks that every request line of the UI shows the
// capacity DynamoDB Local returned for that request, as its raw answer on
// the wire says (not the client's record), and that the session total is
// their sum. A log entry is matched to an answer by Limit and Count, since
// requests of a skip-scan run side by side.
func checkLogAgainst(t *testing.T, final Model, raw []dynamotest.Exchange) {
	t.Helper()
	sum := 0.0
	for _, x := range raw {
		sum += x.Capacity
	}
	if len(final.log.Reqs) != len(raw) {
		t.Fatalf("the log has %d requests, DynamoDB Local answered %d", len(final.log.Reqs), len(raw))
	}
	used := make([]bool, len(raw))
	m, _ := final.Update(keyPress("L"))
	lines := strings.Split(ansi.Strip(m.(Model).View().Content), "\n")
	for i, r := range final.log.Reqs {
		match := -1
		for j, x := range raw {
			if !used[j] && x.Limit == int(r.Limit) && x.Count == int(r.Count) && x.Capacity == r.Capacity.Total {
				match = j
				break
			}
		}
		if match < 0 {
			t.Errorf("request %d: the UI has Limit %d, Count %d, %v RCU; no answer of DynamoDB Local says so: %v", i+1, r.Limit, r.Count, r.Capacity.Total, raw)
			continue
		}
		used[match] = true
		label := fmt.Sprintf(" %2d Query", i+1)
		var line string
		for _, l := range lines {
			if strings.Contains(l, label) {
				line = l
			}
		}
		if want := fmtRCU(raw[match].Capacity); !strings.Contains(line, " "+want+" RCU") {
			t.Errorf("line %d = %q, want DynamoDB Local's %s RCU", i+1, line, want)
		}
	}
	sc := ansi.Strip(final.View().Content)
	if want := fmt.Sprintf("Σ %s RCU · %d requests", fmtRCU(sum), len(raw)); !strings.Contains(sc, want) {
		t.Errorf("status lacks %q:\n%s", want, sc)
	}
}

// The flow end to end against DynamoDB Local: open CUST#42 (one
// page, the whole partition: no skip-scan), run begins_with on ORDER,
// reverse, Limit 1, and check that the capacity on screen is the one
// DynamoDB Local returned.
func TestFlowAgainstDynamoDBLocal(t *testing.T) {
	api := dynamotest.SDK(t)
	ep := dynamotest.Endpoint(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, it := range []map[string]types.AttributeValue{
		{"PK": s("CUST#42"), "SK": s("PROFILE"), "name": s("Ann")},
		{"PK": s("CUST#42"), "SK": s("ORDER#2025-01-09#A11"), "total": n("20")},
		{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17"), "total": n("35")},
	} {
		if _, err := api.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatalf("put item: %v", err)
		}
	}
	client, seen, tap := localClient(t, ep)
	m := New(Options{Store: client, Table: table, PK: "CUST#42", Region: "us-east-1", Endpoint: ep, ConfigDir: t.TempDir()})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 35),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	t.Cleanup(func() { _ = tm.Quit() })

	// waitFor waits until n queries were answered and the screen shows want.
	waitFor := func(n int, want string) {
		t.Helper()
		waitQueries(t, seen, n)
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(want)) },
			teatest.WithDuration(10*time.Second))
	}
	// The first page is the whole partition: it is the only request.
	waitFor(1, "1 Query")
	tm.Send(keyPress("j"))
	tm.Send(keyPress("enter"))
	waitFor(2, "2 Query")
	tm.Send(keyPress("r"))
	waitFor(3, "3 Query")
	tm.Send(keyPress("l"))
	tm.Send(keyPress("1"))
	tm.Send(keyPress("enter"))
	waitFor(4, "4 Query")
	// Let the last reply reach the model before quitting.
	time.Sleep(200 * time.Millisecond)
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(Model)
	sc := ansi.Strip(final.View().Content)

	got := seen()
	if len(got) != 4 {
		t.Fatalf("%d queries, want 4", len(got))
	}
	if first := got[0]; first.Limit != screenLimit(35) || first.Count != 3 || first.More {
		t.Errorf("first request = %+v, want the whole partition in one page sized to the screen", first)
	}
	last := got[3]
	if last.Forward || last.Limit != 1 || !strings.Contains(last.KeyCondition, `begins_with(SK, "ORDER#")`) || last.Count != 1 {
		t.Fatalf("last request = %+v", last)
	}
	raw := tap.Exchanges("Query")
	if len(raw) != 4 || raw[3].Capacity <= 0 {
		t.Fatalf("DynamoDB Local's answers: %+v, want 4 with capacity", raw)
	}
	checkLogAgainst(t, final, raw)
	if !strings.Contains(sc, "ORDER#2025-03-01#A17") || strings.Contains(sc, "ORDER#2025-01-09#A11  20") {
		t.Errorf("items are not just the latest order:\n%s", sc)
	}
	// The whole partition came in one page: its counts are exact.
	for row, want := range map[int]string{0: "3", 1: "2", 2: "1"} {
		if c := final.groups.countText(row); c != want {
			t.Errorf("count of row %d = %s, want %s", row, c, want)
		}
	}
	t.Logf("DynamoDB Local charged %s RCU for the latest order; the screen:\n%s", fmtRCU(raw[3].Capacity), sc)
}

// A partition of 3,000 items of three types, bigger than one 1 MB page: the
// skip-scan shows all three types at once, while the first page holds part
// of the partition, and every request shows what DynamoDB Local charged.
// openPartition runs the program on a partition until n queries were
// answered (and a moment more, for any that should not come), and returns
// the final model, its screen and every query sent.
func openPartition(t *testing.T, ep, table, pk string, n int) (Model, string, []dynamo.Request, *dynamotest.Tap) {
	t.Helper()
	client, seen, tap := localClient(t, ep)
	m := New(Options{Store: client, Table: table, PK: pk, Region: "us-east-1", Endpoint: ep, ConfigDir: t.TempDir()})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 35),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	t.Cleanup(func() { _ = tm.Quit() })
	waitQueries(t, seen, n)
	time.Sleep(500 * time.Millisecond)
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(Model)
	return final, ansi.Strip(final.View().Content), seen(), tap
}

func TestFlowBigPartitionSkipScan(t *testing.T) {
	api := dynamotest.SDK(t)
	ep := dynamotest.Endpoint(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	pad := strings.Repeat("x", 560) // about 600 bytes an item: 1.8 MB in all
	var items []dynamo.Item
	for _, typ := range []string{"ALPHA", "BETA", "GAMMA"} {
		for i := range 1000 {
			items = append(items, dynamo.Item{"PK": s("BIG#1"), "SK": s(fmt.Sprintf("%s#%04d", typ, i)), "pad": s(pad)})
		}
	}
	if _, err := dynamo.Seed(ctx, api, table, items, dynamo.SeedOptions{}); err != nil {
		t.Fatalf("BatchWriteItem 3,000 items: %v", err)
	}
	// The first page (part of ALPHA: sized to the screen), and the
	// skip-scan from both ends in rounds: past the page, ALPHA's end and
	// BETA's first key; from the partition's end, GAMMA's last key and the
	// jump that finds the halves met. Four requests every run (36.2: each
	// round is decided from the answers before it). No item of the first
	// page is read again.
	final, sc, got, tap := openPartition(t, ep, table, "BIG#1", 1+4)
	if len(got) != 5 {
		t.Fatalf("%d queries, want 5 (no further page without scrolling):\n%s", len(got), sc)
	}
	loaded := final.items.Loaded()
	if !final.results.more() || loaded >= 3000 || loaded == 0 {
		t.Fatalf("the first page holds %d items (more: %v); the test needs it to be part of the partition", loaded, final.results.more())
	}
	for _, want := range []string{"Entity types · 3", "ALPHA#", "BETA#", "GAMMA#", fmt.Sprintf("Items · %d+ loaded", loaded)} {
		if !strings.Contains(sc, want) {
			t.Errorf("screen lacks %q:\n%s", want, sc)
		}
	}
	counts := map[string]string{}
	for i, ty := range final.groups.types() {
		counts[ty.Entity] = final.groups.countText(i + 1)
	}
	// The first page, sized to the screen, stops inside ALPHA.
	if counts["ALPHA"] != fmt.Sprintf("%d+", loaded) || counts["BETA"] != "?" || counts["GAMMA"] != "?" {
		t.Errorf("counts = %v, want ALPHA %d+, BETA ?, GAMMA ?", counts, loaded)
	}
	if pages := firstPages(got); len(pages) != 1 || int(pages[0].Count) != loaded || !pages[0].More {
		t.Errorf("the partition's pages = %+v, want the first page of %d items, with more", pages, loaded)
	}
	checkLogAgainst(t, final, tap.Exchanges("Query"))
	t.Logf("first page: %d items; the screen:\n%s", loaded, sc)
}

// TestFlowTimestampPartition opens the partition, 20,000 messages
// under ISO-8601 sort keys and one meta item: the UI sends the first page and
// a skip-scan of four Limit 1 requests, no more, and lists two groups.
func TestFlowTimestampPartition(t *testing.T) {
	api := dynamotest.SDK(t)
	ep := dynamotest.Endpoint(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Second)
	defer cancel()
	t0 := time.Date(2023, 4, 1, 12, 0, 0, 1e6, time.UTC)
	body := strings.Repeat("x", 60)
	items := []dynamo.Item{{"PK": s("User:X"), "SK": s("meta")}}
	for i := range 20_000 {
		sk := t0.Add(time.Duration(i) * 7 * time.Minute).Format("2006-01-02T15:04:05.000Z")
		items = append(items, dynamo.Item{"PK": s("User:X"), "SK": s(sk), "body": s(body)})
	}
	if _, err := dynamo.Seed(ctx, api, table, items, dynamo.SeedOptions{}); err != nil {
		t.Fatalf("BatchWriteItem 20,001 items: %v", err)
	}
	// The first page; from both ends at once, the next key and the value
	// group's last key, meta from the partition's end, and the jump that
	// finds the halves met (one from each half when both are sent at once;
	// none when a half's landing gave the other the value group's last key).
	final, sc, got, tap := openPartition(t, ep, table, "User:X", 1+3)
	if len(got) < 4 || len(got) > 6 || len(firstPages(got)) != 1 {
		t.Fatalf("%d queries (%d pages of the partition), want the first page and 3 to 5 skip-scan requests:\n%s", len(got), len(firstPages(got)), sc)
	}
	for _, want := range []string{"Entity types · 2", "┊ timestamp", "2023-04-01 … 2023-07-", "meta", "= meta"} {
		if !strings.Contains(sc, want) {
			t.Errorf("screen lacks %q:\n%s", want, sc)
		}
	}
	// Every request is in the log, the skip-scan's as they came.
	checkLogAgainst(t, final, tap.Exchanges("Query"))
	t.Logf("the screen:\n%s", sc)
}
