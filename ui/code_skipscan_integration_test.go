package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/ui/overlay"
)

// Issue 37.6: C on a skip-scan step of the request log shows its code, as
// for any other request (AWS CLI, boto3, Go: the Query the step sent, Limit
// 1 and its whole key condition), and the full-screen log's selected line
// shows its whole key condition, wrapped, where the line cuts it. Before,
// C said "a skip-scan step (Limit 1) has no code" and the condition was cut.
func TestCodeOfASkipScanStep(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pk := "TENANT#" + strings.Repeat("a-long-tenant-name-", 4) + "1"
	var items []dynamo.Item
	for _, typ := range []string{"ALPHA", "BETA", "GAMMA"} {
		for i := range 150 {
			items = append(items, dynamo.Item{"PK": s(pk), "SK": s(fmt.Sprintf("%s#%04d", typ, i))})
		}
	}
	if _, err := dynamo.Seed(ctx, api, table, items, dynamo.SeedOptions{}); err != nil {
		t.Fatal(err)
	}
	client, _, tap := localClient(t, ep)
	for _, size := range [][2]int{{120, 35}, {80, 24}} {
		hs := newHarnessOn(t, Options{Store: client, Table: table, PK: pk, Region: "us-east-1", Endpoint: tap.URL, ConfigDir: t.TempDir()}, size[0], size[1])
		hs.contains("GAMMA")
		step := -1
		for i, k := range hs.m.log.Kinds {
			if k == "skip-scan" && strings.Contains(hs.m.log.Reqs[i].KeyCondition, "SK") {
				step = i
			}
		}
		if step < 0 {
			t.Fatalf("%dx%d: no skip-scan step with a sort-key condition in the log: %q", size[0], size[1], hs.m.log.Kinds)
		}
		cond := hs.m.log.Reqs[step].KeyCondition
		hs.keys("L")
		for hs.m.log.Cursor > step {
			hs.keys("k")
		}
		// The detail under the line: the whole condition, wrapped.
		// (a word longer than a line is cut across lines: compared without spaces)
		flat := func(s string) string { return strings.Join(strings.Fields(strings.ReplaceAll(s, "│", " ")), "") }
		if !strings.Contains(flat(hs.screen()), flat("key condition "+cond)) {
			t.Errorf("%dx%d: the log does not show the whole condition %q:\n%s", size[0], size[1], cond, hs.screen())
		}
		hs.keys("C")
		if hs.m.topID() != overlay.CodeID {
			t.Fatalf("%dx%d: C on a skip-scan step opened no code: %s", size[0], size[1], hs.m.status.Info)
		}
		hs.contains(fmt.Sprintf("request %d of the log, a skip-scan step", step+1), "aws dynamodb query", "--limit 1")
		hs.keys("tab")
		hs.contains("boto3", "Limit=1")
		hs.keys("tab")
		hs.contains("package main", "Go (SDK v2)") // its Limit is below the fold
	}
}
