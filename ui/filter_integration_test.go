package ui

import (
	"encoding/json"
	"fmt"
	"testing"

	"dynascope/textfmt"
)

// The question on the demo table: which of Big Corp's orders are
// still OPEN and over 1,000, and what did that question cost? After
// opening CUST#7 it is f, the filter, enter; the screen's kept/read and RCU
// are DynamoDB's raw answer's.
func TestFilterQuestionMatchesDynamoDB(t *testing.T) {
	table, ep := demoTable(t)
	client, _, tap := localClient(t, ep)
	hs := newHarnessOn(t, Options{Store: client, Table: table, PK: "CUST#7", Region: "us-east-1", Endpoint: tap.URL, ConfigDir: t.TempDir()}, 120, 35)
	hs.contains("Items · ")
	before := len(tap.Exchanges("Query"))
	hs.keys("f")
	hs.typeText(`status = "OPEN" AND total > 1000`)
	hs.keys("enter")
	xs := tap.Exchanges("Query")[before:]
	var kept, read int
	var rcu float64
	for _, x := range xs {
		var raw struct{ Count, ScannedCount int }
		if err := json.Unmarshal(x.Response, &raw); err != nil {
			t.Fatal(err)
		}
		kept += raw.Count
		read += raw.ScannedCount
		rcu += x.Capacity
	}
	if len(xs) == 0 || kept == 0 || kept >= read {
		t.Fatalf("DynamoDB answered %d requests, %d of %d", len(xs), kept, read)
	}
	hs.contains(`filter status = "OPEN" AND total > 1000`,
		fmt.Sprintf("kept %s of %s read", textfmt.Count(kept), textfmt.Count(read)),
		fmt.Sprintf("the %s RCU were charged for all %s read", fmtRCU(rcu), textfmt.Count(read)),
		fmt.Sprintf("Items · %d loaded", kept))
}
