package ui

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"dynascope/demodata"
	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/ui/overlay"
)

// A Scan whose third page fails (a bare 500 from a broken front end) shows
// the failure on screen above the items, marks the request ✗ in the log,
// keeps the pages it read, and n goes on from where it stopped to the end
// of the table. Before, the screen said "15319 items · 3 requests · kept
// 15,319 of 15,319 read" with no word of the failure.
func TestUIScanShowsAMidReadFailureAndGoesOn(t *testing.T) {
	table, ep := demoTable(t)
	p := dynamotest.StartProxy(t, ep)
	p.Inject(dynamotest.Rule{Op: "Scan", From: 3, Count: 1, Fault: dynamotest.Plain500})
	hs := newHarnessOn(t, Options{Store: proxyClient(t, p.URL, 1), Table: table, Region: "us-east-1", Endpoint: p.URL}, 120, 35)
	hs.keys("ctrl+s", "enter")
	hs.contains("predicted ≤ ", "Enter runs it")
	hs.keys("enter")
	hs.contains("✗ ", "HTTP 500", "incomplete: kept what was read", "n goes on from where it stopped")
	o, ok := findOverlay[overlay.Bulk](hs.m)
	if !ok || o.Read().Count == 0 || o.Read().Count >= demoCount || o.Read().Stop != dynamo.StopError {
		t.Fatalf("after the failure: open %v, %d items, stop %q", ok, o.Read().Count, o.Read().Stop)
	}
	failed := 0
	for _, r := range hs.m.log.reqs {
		if r.Operation == "Scan" && r.Err != nil {
			failed++
		}
	}
	if failed != 1 {
		t.Errorf("%d failed Scans in the request log, want 1", failed)
	}
	hs.keys("n")
	o, _ = findOverlay[overlay.Bulk](hs.m)
	if o.Read().Count != demoCount || o.Read().Stop != dynamo.StopComplete || o.Read().Err != "" {
		t.Errorf("after n: %d items, stop %q, error %q", o.Read().Count, o.Read().Stop, o.Read().Err)
	}
	hs.lacks("✗ ")
	hs.contains(fmt.Sprintf("%d items", demoCount))
}

// The table picker with credentials that may not describe one table: that
// row says so in words, the others are listed as usual.
func TestUITablePickerWithPartialPermission(t *testing.T) {
	table, ep := examplePartition(t)
	p := dynamotest.StartProxy(t, ep)
	p.Inject(dynamotest.Rule{Op: "DescribeTable", Fault: dynamotest.AccessDenied})
	hs := newHarnessOn(t, Options{Store: proxyClient(t, p.URL, 1), Region: "us-east-1", Endpoint: p.URL}, 160, 40)
	hs.typeText(table)
	hs.contains(table, "no permission to describe")
	hs.lacks("not authorized to perform")
}

// The Scan overlay counts each request as it completes: while page 3 is
// slow the screen already says what the pages before it brought, and the
// request log holds each Scan once, as many as reached the server. Before,
// nothing was counted until the end.
func TestUIScanCountsEachRequestAsItCompletes(t *testing.T) {
	table, ep := demoTable(t)
	p := dynamotest.StartProxy(t, ep)
	p.Inject(dynamotest.Rule{Op: "Scan", From: 3, Count: 1, Fault: dynamotest.Delay(1500 * time.Millisecond)})
	tm, shots := startRecorded(t, New(Options{Store: proxyClient(t, p.URL, 1), Table: table, Region: "us-east-1", Endpoint: p.URL, ConfigDir: t.TempDir()}))
	shots.waitSeen(t, "remembered here")
	tm.Send(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	shots.waitSeen(t, "A Scan reads")
	tm.Send(keyPress("enter"))
	shots.waitSeen(t, "Enter runs it")
	tm.Send(keyPress("enter"))
	shots.waitSeen(t, "2 requests so far")
	shots.waitSeen(t, fmt.Sprintf("%d items · ", demoCount))
	final := finalModel(t, tm)
	scans := 0
	for _, r := range final.log.reqs {
		if r.Operation == "Scan" {
			scans++
		}
	}
	if scans != p.Count("Scan") || scans < 4 {
		t.Errorf("%d Scans in the log, %d reached the server", scans, p.Count("Scan"))
	}
}

// A PartiQL Scan whose second page fails shows the failure above its items
// and in the log (✗), keeps the page read, and n goes on from its
// NextToken to the end of the table.
func TestUIPartiQLShowsAMidReadFailureAndGoesOn(t *testing.T) {
	table, ep := demoTable(t)
	p := dynamotest.StartProxy(t, ep)
	p.Inject(dynamotest.Rule{Op: "ExecuteStatement", From: 2, Count: 1, Fault: dynamotest.Plain500})
	hs := newHarnessOn(t, Options{Store: proxyClient(t, p.URL, 1), Table: table, PK: "CUST#42", Region: "us-east-1", Endpoint: p.URL}, 120, 35)
	hs.keys("P", "ctrl+u")
	hs.typeText(`SELECT * FROM "` + table + `"`)
	hs.keys("enter")
	hs.contains("Plan: a Scan", "Enter runs it")
	hs.keys("enter")
	hs.contains("✗ ", "HTTP 500", "incomplete: kept what was read", "n goes on from where it stopped")
	o, _ := findOverlay[overlay.Bulk](hs.m)
	if o.Read().Count == 0 || o.Read().Count >= demoCount || o.Read().NextToken == "" {
		t.Fatalf("after the failure: %d items, next token %q", o.Read().Count, o.Read().NextToken)
	}
	hs.keys("n")
	o, _ = findOverlay[overlay.Bulk](hs.m)
	if o.Read().Count != demoCount || o.Read().Stop != dynamo.StopComplete {
		t.Errorf("after n: %d items, stop %q, error %q", o.Read().Count, o.Read().Stop, o.Read().Err)
	}
}

// demoCount is how many items the demo table holds.
var demoCount = len(demodata.Items())

// A PartiQL Query of one partition is bounded by the whole table, and says
// why; with the whole primary key fixed, by the largest item (issue 36.8,
// in the CLI's words).
func TestUIPartiQLQueryPlanSaysItsBound(t *testing.T) {
	table, ep := demoTable(t)
	client, _, _ := localClient(t, ep)
	hs := newHarnessOn(t, Options{Store: client, Table: table, PK: "CUST#42", Region: "us-east-1"}, 120, 35)
	hs.keys("P", "ctrl+u")
	hs.typeText(`SELECT * FROM "` + table + `" WHERE PK = 'CUST#42'`)
	hs.keys("enter")
	hs.contains("At most the whole table, as a Query reads one partition and DynamoDB tells no partition's size before it is read:", "→ predicted ≤ 451 RCU")
	hs.lacks("usually far less")
	hs.keys("esc", "ctrl+u")
	hs.typeText(`SELECT * FROM "` + table + `" WHERE PK = 'CUST#42' AND SK = 'PROFILE'`)
	hs.keys("enter")
	hs.contains("At most one item, as WHERE fixes the whole primary key → predicted ≤ 50 RCU")
}
