package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/ui/overlay"
)

// The item detail's "In indexes" on a table with a sparse KEYS_ONLY GSI,
// an INCLUDE GSI, an overloaded GSI, an LSI and a GSI added after
// violating items; I opens the item in an index with the cursor on it,
// the title names where it came from, esc goes back to the item; from a
// KEYS_ONLY entry what the entry cannot tell is said so. Only reads are
// sent.
func TestInIndexesAndJump(t *testing.T) {
	api := dynamotest.SDK(t)
	table := dynamotest.IndexedTable(t, api)
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: p.URL, Region: "us-east-1", NoSchemaCache: true})
	if err != nil {
		t.Fatal(err)
	}
	hs := newHarnessOn(t, Options{Store: client, Table: table, PK: "CUST#1", Region: "us-east-1", Endpoint: p.URL}, 140, 50)
	hs.contains("Items · 5 loaded")
	// The first order, open: in every index but Late.
	hs.keys("tab", "enter")
	hs.contains("In indexes",
		"✓ ByDate (lsi KEYS_ONLY): PK = CUST#1, date = 2025-01-01",
		"✓ ByStatus (gsi INCLUDE): status = OPEN, SK = ORDER#2025-01-01#A11",
		"✓ Sparse (gsi KEYS_ONLY): GSI1PK = WH#1, GSI1SK = OPEN#2025-01-01#A11",
		"not projected: GSI2PK, GSI2SK, date, note, status, total",
		"✗ Late (gsi ALL): LATEPK is absent")
	// Into the sparse index: the targets are the indexes (Late refused).
	hs.keys("I")
	hs.contains("Open the item in", "index Late — not in it: LATEPK is absent", "index Sparse · WH#1 / OPEN#2025-01-01#A11")
	for hs.m.topID() == overlay.JumpID {
		o, _ := findOverlay[overlay.Jump](hs.m)
		if o.Target().Index == dynamotest.SparseIndex {
			break
		}
		hs.keys("j")
	}
	hs.keys("enter")
	hs.contains("index Sparse ‹ from base table CUST#1", `GSI1PK = "WH#1" AND GSI1SK >= "OPEN#2025-01-01#A11"`)
	if it, ok := hs.m.items.Selected(); !ok || keyOf(it, "SK") != "ORDER#2025-01-01#A11" {
		t.Fatalf("the cursor is on %v, not the item", it)
	}
	// The KEYS_ONLY entry cannot tell the other indexes' keys: said so.
	hs.keys("tab", "enter")
	hs.contains("not known from this entry: Sparse does not project status")
	// Back to the base table through the jump list, then esc twice: back
	// to the index, then to where it started, the cursor on the item.
	hs.keys("I", "enter")
	hs.contains("base table ‹ from Sparse WH#1")
	hs.keys("esc")
	hs.contains("index Sparse ‹ from base table CUST#1")
	hs.keys("esc")
	hs.contains("base table · PK = CUST#1", "back to base table CUST#1")
	hs.lacks("‹ from")
	if it, ok := hs.m.items.Selected(); !ok || keyOf(it, "SK") != "ORDER#2025-01-01#A11" {
		t.Errorf("back: the cursor is on %v, not the item", it)
	}
	// An item written before Late was added: its violation, said so.
	hs.keys("p", "ctrl+u")
	hs.typeText("CUST#9")
	hs.keys("enter", "tab", "enter")
	hs.contains("✗ Late (gsi ALL): LATEPK is an empty string; the item was written before the index was created")
	if w := p.Writes(); len(w) > 0 {
		t.Errorf("writes: %+v", w)
	}
	for _, c := range p.Calls() {
		if c.Op != "DescribeTable" && c.Op != "Query" {
			t.Errorf("sent %s", c.Op)
		}
	}
}

// The overview's index map on the indexed table: its caps first, then
// each index's members, shape and violations, as DynamoDB Local's indexes
// hold them (Late aside, see indexes' TestCheckAgreesWithDynamoDBLocal).
func TestIndexMapInOverview(t *testing.T) {
	api := dynamotest.SDK(t)
	table := dynamotest.IndexedTable(t, api)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: dynamotest.Endpoint(t), Region: "us-east-1", NoSchemaCache: true})
	if err != nil {
		t.Fatal(err)
	}
	hs := newHarnessOn(t, Options{Store: client, Table: table, PK: "CUST#1", Region: "us-east-1"}, 120, 60)
	hs.keys("o", "enter")
	hs.contains("LARGEST PARTITIONS SEEN")
	hs.keys("M")
	hs.contains("up to 10000 items / 250 RCU", "enter reads it")
	hs.keys("enter")
	hs.contains("a sample of 20 items, stopped: complete",
		"Sparse · gsi KEYS_ONLY", "3 members (15.0%) sparse in 2 partitions", "largest WH#1: 2 items (67% of the members)",
		"Overloaded · gsi ALL", "15 members (75.0%) sparse, overloaded in 15 partitions", "entity types ORDER 12 · PROFILE 3",
		"1 member (5.0%) sparse in 1 partition", "largest L#1: 1 item (100% of the members)",
		"Late · gsi ALL", "4 items it skips:", "LATEPK is an empty string; the item was written before the index was created")
	hs.keys("esc")
	hs.contains("LARGEST PARTITIONS SEEN")
}

// 39.3: with the demo's entities declared, the index map names an index's
// members by the declaration their table keys match (GSI1's open orders:
// Order), as layout --index-map and index try do.
func TestIndexMapNamesMembersByDeclarations(t *testing.T) {
	table, ep := demoTable(t)
	set, path := demoPatterns(t)
	set.Table = table
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: ep, Region: "us-east-1", NoSchemaCache: true})
	if err != nil {
		t.Fatal(err)
	}
	hs := newHarnessOn(t, Options{Store: client, Table: table, PK: "CUST#42", Region: "us-east-1", Patterns: set, PatternsPath: path}, 120, 60)
	hs.keys("o", "enter")
	hs.contains("LARGEST PARTITIONS SEEN")
	hs.keys("M", "enter")
	hs.contains("GSI1 · gsi", "entity types Order ")
	if screen := hs.screen(); strings.Contains(screen, "entity types ORDER") || strings.Contains(screen, "~Order") {
		t.Errorf("the index map names GSI1's orders by inference:\n%s", screen)
	}
}

// An index map whose first item is larger than its RCU cap reads that
// item and says by how much it passed the cap, in scan's words.
func TestIndexMapSaysItPassedTheCap(t *testing.T) {
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for i := range 3 {
		if _, err := api.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: fmt.Sprintf("P#%d", i)}, "SK": &types.AttributeValueMemberS{Value: "S"},
			"pad": &types.AttributeValueMemberS{Value: strings.Repeat("x", 10000)}, // 3 units: 1.5 RCU
		}}); err != nil {
			t.Fatal(err)
		}
	}
	client, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: dynamotest.Endpoint(t), Region: "us-east-1", NoSchemaCache: true})
	if err != nil {
		t.Fatal(err)
	}
	hs := newHarnessOn(t, Options{Store: client, Table: table, PK: "P#0", Region: "us-east-1"}, 120, 40)
	// One segment: of four, the first page could fall on an empty one and
	// spend the whole cap on it.
	hs.keys("o", "tab", "ctrl+u")
	hs.typeText("0.5")
	hs.keys("tab", "ctrl+u")
	hs.typeText("1")
	hs.keys("enter")
	// The sample's first item passes the cap, and the overview says so.
	hs.contains("stopped at the RCU cap", "1 RCU over the RCU cap: DynamoDB", "charges a page by the bytes it read")
	hs.keys("M")
	hs.contains("up to 10000 items / 0.5 RCU")
	hs.keys("enter")
	hs.contains("stopped: max-rcu · 1 request · 1.5 RCU · 1 RCU over the RCU cap: DynamoDB charges a page by the", "a page held an item larger than any read before it, or than what was left")
}
