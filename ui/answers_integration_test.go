package ui

import (
	"strings"
	"testing"

	"dynascope/dynamo/dynamotest"
	"dynascope/ui/overlay"
)

// A Scan stopped by a stale-size estimate says the UI's way on (n, under
// the same bound), never --max-rcu, a flag the UI does not have; n reads on.
func TestUIScanEstimateStopNamesTheUIsWayOn(t *testing.T) {
	table, ep := demoTable(t)
	p := dynamotest.StartProxy(t, ep)
	p.Inject(dynamotest.Rule{Op: "DescribeTable", Fault: dynamotest.StaleSize(100, 400_000)})
	hs := newHarnessOn(t, Options{Store: proxyClient(t, p.URL, 1), Table: table, Region: "us-east-1", Endpoint: p.URL}, 120, 35)
	hs.keys("ctrl+s", "enter")
	hs.contains("predicted ≤ ", "Enter runs it")
	hs.keys("enter")
	hs.contains("clearly more than the", "press n, which reads on")
	hs.lacks("--max-rcu")
	o, _ := findOverlay[overlay.Bulk](hs.m)
	before := o.Read().Count
	if before == 0 || len(o.Read().Err) > 300 {
		t.Fatalf("%d items; the sentence (%d characters): %s", before, len(o.Read().Err), o.Read().Err)
	}
	hs.keys("n")
	if o, _ := findOverlay[overlay.Bulk](hs.m); o.Read().Count <= before {
		t.Errorf("n read %d items after %d", o.Read().Count, before)
	}
}

// A count stopped by a stale-size estimate says why and names the way that
// finishes it (groups --count --max-rcu), in one sentence under 300
// characters; before, it named groups --count, which stops as well.
func TestUICountEstimateStopSaysWhyAndHow(t *testing.T) {
	table, ep := demoTable(t)
	p := dynamotest.StartProxy(t, ep)
	p.Inject(dynamotest.Rule{Op: "DescribeTable", Fault: dynamotest.StaleSize(10, 1000)})
	hs := newHarnessOn(t, Options{Store: proxyClient(t, p.URL, 1), Table: table, PK: "CUST#7", Region: "us-east-1", Endpoint: p.URL}, 120, 35)
	hs.contains("ORDER")
	hs.keys("#", "y")
	hs.contains("count partition stopped after")
	msg := hs.m.status.err
	for _, want := range []string{"clearly more than the", "six hours", "groups --count --max-rcu N"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the sentence %q lacks %q", msg, want)
		}
	}
	if len(msg) > 300 || strings.Count(msg, ". ") > 0 {
		t.Errorf("not one sentence under 300 characters (%d): %s", len(msg), msg)
	}
}

// A PartiQL answer holding another partition's item for WHERE PK = is
// refused in the overlay, in a sentence naming it: no item is kept.
func TestUIPartiQLRefusesAnItemOutsideTheKeyCondition(t *testing.T) {
	table, ep := demoTable(t)
	p := dynamotest.StartProxy(t, ep)
	p.Inject(dynamotest.Rule{Op: "ExecuteStatement", Fault: dynamotest.ForeignItem(`{"PK":{"S":"CUST#8"},"SK":{"S":"FOREIGN#1"}}`)})
	hs := newHarnessOn(t, Options{Store: proxyClient(t, p.URL, 1), Table: table, PK: "CUST#42", Region: "us-east-1", Endpoint: p.URL}, 120, 35)
	hs.keys("P", "ctrl+u")
	hs.typeText(`SELECT * FROM "` + table + `" WHERE PK = 'CUST#7'`)
	hs.keys("enter")
	hs.contains("Plan: a Query", "Enter runs it")
	hs.keys("enter")
	hs.contains("✗ ", "from another partition than PK = \"CUST#7\"")
	if o, _ := findOverlay[overlay.Bulk](hs.m); o.Read().Count != 0 || len(o.Read().Items) != 0 {
		t.Errorf("%d items kept from the refused answer", o.Read().Count)
	}
}
