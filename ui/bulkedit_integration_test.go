package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/edit"
	"dynascope/ui/overlay"
)

// partitionItems reads every item of partition pk, strongly consistent,
// keyed by sort key.
func partitionItems(t *testing.T, api *dynamodb.Client, table, pk string) map[string]map[string]types.AttributeValue {
	t.Helper()
	out := map[string]map[string]types.AttributeValue{}
	pager := dynamodb.NewQueryPaginator(api, &dynamodb.QueryInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		KeyConditionExpression: aws.String("PK = :pk"), ExpressionAttributeValues: map[string]types.AttributeValue{":pk": sv(pk)}})
	for pager.HasMorePages() {
		page, err := pager.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			out[it["SK"].(*types.AttributeValueMemberS).Value] = it
		}
	}
	return out
}

// The done-when of issue 40 in the UI, against DynamoDB Local: every
// ORDER item of the demo's CUST#7 marked from the types pane, B, a set
// previewed with its predicted WCU, y sends it at the settings' rate; a
// second writer that changed three of them after they were read leaves
// exactly those three refused and listed, untouched; the rest hold the
// new attribute, under one journal entry, whose undo (UndoBulk) leaves
// the partition as it was before the change, compared by a full read.
func TestBulkChangeOfMarkedOrders(t *testing.T) {
	table, ep := demoTable(t)
	api := dynamotest.SDK(t)
	ctx := context.Background()
	client, w, j := writerOn(t, ep)
	settings := config.DefaultSettings()
	settings.MaxWCUPerSecond = 5000 // a test's pace: the rate itself is edit's to prove
	hs := newHarnessOn(t, Options{Store: client, Editor: w, Table: table, PK: "CUST#7", Region: "us-east-1", Endpoint: ep, Settings: settings}, 120, 35)
	for i := 0; hs.m.results.more() && i < 50; i++ {
		hs.keys("n")
	}
	if hs.m.results.more() {
		t.Fatal("CUST#7 not loaded in 50 pages")
	}
	var orders []string
	for _, it := range memItems(hs.m.items) {
		if sk := keyOf(it, "SK"); strings.HasPrefix(sk, "ORDER#") {
			orders = append(orders, sk)
		}
	}
	if len(orders) < 1000 {
		t.Fatalf("CUST#7 holds %d orders; the demo's big customer has more than a thousand", len(orders))
	}
	for row, ty := range hs.m.groups.types() {
		if ty.Entity == "ORDER" {
			hs.m.groups = hs.m.groups.move(row+1-hs.m.groups.cursor(), 10)
		}
	}
	hs.keys("space")
	if got := markedSKs(hs); !reflect.DeepEqual(got, orders) {
		t.Fatalf("the types pane marked %d items, want the %d orders", len(got), len(orders))
	}
	hs.keys("B")
	hs.typeText("set audit=S:checked")
	hs.keys("enter")
	n := len(orders)
	hs.contains(fmt.Sprintf("%d items to write", n), fmt.Sprintf("+ audit on %d items", n), "predicted: ", "WCU · about ", "aws dynamodb update-item")

	// A second writer changes three of them after they were read.
	changed := []string{orders[0], orders[n/2], orders[n-1]}
	for _, sk := range changed {
		if _, err := api.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table),
			Key:              map[string]types.AttributeValue{"PK": sv("CUST#7"), "SK": sv(sk)},
			UpdateExpression: aws.String("SET notes = :n"), ExpressionAttributeValues: map[string]types.AttributeValue{":n": sv("changed by another writer")}}); err != nil {
			t.Fatal(err)
		}
	}
	before := partitionItems(t, api, table, "CUST#7")

	start := time.Now()
	hs.keys("y")
	took := time.Since(start)
	if _, ok := findOverlay[overlay.BulkEdit](hs.m); !ok {
		t.Fatal("the overlay closed")
	}
	hs.contains(fmt.Sprintf("written %d of %d · refused 3 · in doubt 0 · left 0", n-3, n), "one journal entry: ",
		"refused: someone else changed these since they were read")
	for _, sk := range changed {
		hs.contains(sk)
	}
	after := partitionItems(t, api, table, "CUST#7")
	for _, sk := range orders {
		got, want := after[sk]["audit"], sv("checked")
		isChanged := sk == changed[0] || sk == changed[1] || sk == changed[2]
		if isChanged != (got == nil) || got != nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%s: audit %v after the change (changed by the other writer: %v)", sk, got, isChanged)
		}
	}
	if p := after["PROFILE"]; p["audit"] != nil {
		t.Error("the unmarked profile was changed")
	}
	t.Logf("%d writes sent in %s", n, took)

	// One journal entry, whose undo restores the partition.
	entries, _, err := j.Read()
	if err != nil || len(entries) != 1 || len(entries[0].Items) != n {
		t.Fatalf("journal: %d entries (%v), want one of %d items", len(entries), err, n)
	}
	if e := entries[0]; e.State != edit.StateDone || e.Items[0].State != edit.StateRefused || e.Items[1].State != edit.StateDone {
		t.Errorf("the entry reads back %s, its first item %s (refused), its second %s (done)", e.State, e.Items[0].State, e.Items[1].State)
	}
	// u in the UI takes it back: its preview first, each item only if it is
	// as the change left it.
	hs.keys("esc", "u")
	hs.contains(fmt.Sprintf("undo of bulk change 1 on %s", table), fmt.Sprintf("%d items to write", n-3), fmt.Sprintf("- audit on %d items", n-3))
	hs.keys("y")
	hs.contains(fmt.Sprintf("written %d of %d · refused 0 · in doubt 0 · left 0", n-3, n-3), "one journal entry: 2, the undo of 1")
	if undone := partitionItems(t, api, table, "CUST#7"); !reflect.DeepEqual(undone, before) {
		t.Errorf("after the undo the partition differs from before the change")
	}
}

// writerOn is a client of the endpoint and a writer with writes on, its
// journal in the test's own directory.
func writerOn(t *testing.T, ep string) (*dynamo.Client, *edit.Writer, *edit.Journal) {
	t.Helper()
	ctx := context.Background()
	client, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: ep, Region: "us-east-1", NoSchemaCache: true})
	if err != nil {
		t.Fatal(err)
	}
	j, err := edit.OpenJournal(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := edit.Open(ctx, dynamo.Options{Endpoint: ep, Region: "us-east-1"}, true, j)
	if err != nil {
		t.Fatal(err)
	}
	return client, w, j
}

// 40.4 in the UI: ctrl+c while a bulk change is sending stops it after the
// writes in flight (as esc does) instead of quitting and cutting them off;
// the outcome says what was written and left, and a second ctrl+c quits.
func TestCtrlCStopsABulkChange(t *testing.T) {
	table, ep := demoTable(t)
	api := dynamotest.SDK(t)
	client, w, _ := writerOn(t, ep)
	hs := newHarnessOn(t, Options{Store: client, Editor: w, Table: table, PK: "CUST#42", Region: "us-east-1", Endpoint: ep}, 120, 35)
	for row, ty := range hs.m.groups.types() {
		if ty.Entity == "ORDER" {
			hs.m.groups = hs.m.groups.move(row+1-hs.m.groups.cursor(), 10)
		}
	}
	hs.keys("space")
	n := len(markedSKs(hs))
	if n == 0 {
		t.Fatal("no ORDER items of CUST#42 marked")
	}
	before := partitionItems(t, api, table, "CUST#42")
	hs.keys("B")
	hs.typeText("set audit=S:checked")
	hs.keys("enter")
	hs.contains(fmt.Sprintf("%d items to write", n))
	send := hs.step(keyPress("y")) // the sending, not yet run
	if quit := hs.step(keyPress("ctrl+c")); quit != nil {
		t.Fatalf("ctrl+c during a bulk change returned a command (%T) instead of stopping it", quit())
	}
	hs.contains("stopping the bulk change after the writes in flight; ctrl+c again quits now")
	hs.run(send)
	hs.contains(fmt.Sprintf("written 0 of %d", n), fmt.Sprintf("left %d", n))
	if after := partitionItems(t, api, table, "CUST#42"); !reflect.DeepEqual(after, before) {
		t.Error("a bulk change stopped before its first write changed the partition")
	}
	if hs.m.bulkStopping {
		t.Error("the stop is still pending after the change's outcome")
	}
	quit := hs.step(keyPress("ctrl+c"))
	if quit == nil {
		t.Fatal("ctrl+c after the outcome does not quit")
	}
	if _, ok := quit().(tea.QuitMsg); !ok {
		t.Fatal("ctrl+c after the outcome does not quit")
	}
}
