package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// cappedPartition opens a partition of 80 items through the fault proxy in
// pages of 5, with at most 10 items in memory (less than a screen), loads
// twelve pages with n and goes to the end: the first pages are released,
// and those on screen are kept over the cap.
func cappedPartition(t *testing.T) (*harness, *dynamotest.Proxy) {
	t.Helper()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for i := range 80 {
		it := dynamo.Item{"PK": s("CUST#9"), "SK": s(fmt.Sprintf("ORDER#%03d", i))}
		if _, err := api.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatalf("put item: %v", err)
		}
	}
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	// From the 100th query on, every one fails: that ends a loop of
	// re-reads, which the test would otherwise hang in.
	p.Inject(dynamotest.Rule{Op: "Query", From: 100, Fault: dynamotest.BareStatus(404)})
	hs := newHarnessOn(t, Options{Store: proxyClient(t, p.URL, 1), Table: table, PK: "CUST#9", Region: "us-east-1", Endpoint: p.URL,
		MaxLoadedItems: 10, Settings: config.Settings{DefaultLimit: 5}}, 120, 35)
	hs.keys("tab")
	for range 11 {
		hs.keys("n")
	}
	hs.keys("G")
	// Two pages on screen must not push each other out of a cap smaller
	// than the screen, a request each time: 12 pages, a skip-scan of a few
	// requests, and the released pages G shows read once.
	if n := p.Count("Query"); n > 30 {
		t.Fatalf("%d queries to load 12 pages and go to the end: pages on screen are released and read again in a loop", n)
	}
	if st := hs.m.items.Store; st.Total != 60 || st.Pages[0].Resident() {
		t.Fatalf("%d items loaded, page 1 in memory %v; want 60 and page 1 released", st.Total, st.Pages[0].Resident())
	}
	return hs, p
}

// After a failed re-read of a released page, n reads it again (before, n
// went on to the next page and the page stayed released), and the ✗ line
// of the failure goes once the page is back.
func TestFlowFailedRefetchRetriedByN(t *testing.T) {
	hs, p := cappedPartition(t)
	p.Inject(dynamotest.Rule{Op: "Query", Count: 1, Fault: dynamotest.BareStatus(404)})
	hs.keys("g") // to the top: page 1 is read again, and that fails
	hs.contains("✗ reading page 1 again failed (n tries again): query CUST#9")
	hs.contains("HTTP 404 (Not Found)")
	hs.contains("page 1 · released; reading it again failed — n tries again")
	logged := len(hs.m.log.Kinds)

	// n reads page 1 again (and then the other released pages on screen),
	// rather than a page more.
	hs.keys("n")
	if kinds := hs.m.log.Kinds[logged:]; len(kinds) == 0 || kinds[0] != "re-fetch page 1" {
		t.Fatalf("after n the log has %q, want the re-fetch of page 1 first", kinds)
	}
	if !hs.m.items.Store.Pages[0].Resident() || hs.m.items.Store.Total != 60 {
		t.Fatalf("page 1 not back (resident %v), or n read another page (%d items)", hs.m.items.Store.Pages[0].Resident(), hs.m.items.Store.Total)
	}
	hs.contains("ORDER#000")
	hs.lacks("reading page 1 again")
	hs.lacks("reading it again failed")
}

// A re-read of a released page that fails with a long error says so in
// one sentence of at most 300 characters, its way on first: before, the
// prefix and the error's own 300-character sentence made 346.
func TestFailedRefetchIsOneSentence(t *testing.T) {
	hs, p := cappedPartition(t)
	p.Inject(dynamotest.Rule{Op: "Query", Count: 1, Fault: dynamotest.APIError(400, "com.amazonaws.dynamodb.v20120810#ValidationException",
		"The provided key element "+strings.Repeat("does not match the schema ", 20))})
	hs.keys("g")
	msg := hs.m.status.Err
	if !strings.HasPrefix(msg, "reading page 1 again failed (n tries again): query CUST#9") || !strings.Contains(msg, "does not match the schema") {
		t.Fatalf("status line %q", msg)
	}
	if why := dynamotest.SentenceProblem(msg); why != "" {
		t.Errorf("%s: %q", why, msg)
	}
}

// An export that reads released pages again meets a bad answer in the
// middle: it stops with the endpoint's sentence, and no file, whole or
// partial, is left behind.
func TestFlowExportRereadFault(t *testing.T) {
	hs, p := cappedPartition(t)
	p.Inject(dynamotest.Rule{Op: "Query", Count: 1, Fault: dynamotest.LyingCounts(9, 5)})
	dir := t.TempDir()
	path := filepath.Join(dir, "all.jsonl")
	hs.keys("x")
	hs.contains("are in pages released to keep memory within the cap")
	hs.keys("tab", "ctrl+u")
	hs.typeText(path)
	hs.keys("enter")
	for _, want := range []string{"export to " + path + ": reading released page 1 again: ", "answered Query with Count 9 larger than ScannedCount 5"} {
		if !strings.Contains(exportErr(hs.m), want) {
			t.Fatalf("export error %q, want it to hold %q", exportErr(hs.m), want)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("the failed export left %v", left)
	}
}
