package ui

import (
	"encoding/json"
	"fmt"
	"testing"

	"dynascope/dynamo/dynamotest"
	"dynascope/textfmt"
)

// filterBigCorp opens the demo's CUST#7 and asks the question with
// f, the filter, enter; it returns the screen and the Queries DynamoDB
// Local answered for the filtered read.
func filterBigCorp(t *testing.T) (*harness, []dynamotest.Exchange) {
	table, ep := demoTable(t)
	client, _, tap := localClient(t, ep)
	hs := newHarnessOn(t, Options{Store: client, Table: table, PK: "CUST#7", Region: "us-east-1", Endpoint: tap.URL, ConfigDir: t.TempDir()}, 120, 35)
	hs.contains("Items · ")
	before := len(tap.Exchanges("Query"))
	hs.keys("f")
	hs.typeText(`status = "OPEN" AND total > 1000`)
	hs.keys("enter")
	return hs, tap.Exchanges("Query")[before:]
}

// The question on the demo table: which of Big Corp's orders are
// still OPEN and over 1,000, and what did that question cost? After
// opening CUST#7 it is f, the filter, enter; the screen's kept/read and RCU
// are DynamoDB's raw answer's.
func TestFilterQuestionMatchesDynamoDB(t *testing.T) {
	hs, xs := filterBigCorp(t)
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
		fmt.Sprintf("all %s RCU charged", fmtRCU(rcu)),
		fmt.Sprintf("Items · %d loaded", kept))
}

// DynamoDB Local answers that filtered Query in one page of 4,001 items
// read, 294 RCU; DynamoDB ends each page at 1 MB read, before the filter.
// The line under the query says how many requests it takes there.
func TestFilterSaysDynamoDBWouldPageIt(t *testing.T) {
	hs, xs := filterBigCorp(t)
	if len(xs) != 1 {
		t.Fatalf("DynamoDB Local answered in %d pages; the test needs one", len(xs))
	}
	hs.contains("kept 37 of 4,001 read, all 294 RCU charged · on DynamoDB 3 requests, not 1: it ends a page at 1 MB read")
}
