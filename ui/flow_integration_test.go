package ui

import (
	"bytes"
	"context"
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

// The flow end to end against DynamoDB Local: open CUST#42, run
// begins_with on ORDER, reverse, Limit 1, and check that the capacity on
// screen is the one DynamoDB Local returned.
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
	client, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: ep, Region: "us-east-1"})
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
	seen := func() []dynamo.Request {
		mu.Lock()
		defer mu.Unlock()
		return append([]dynamo.Request(nil), queries...)
	}

	m := New(Options{Store: client, Table: table, PK: "CUST#42", Region: "us-east-1", Endpoint: ep, ConfigDir: t.TempDir()})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 35),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	t.Cleanup(func() { _ = tm.Quit() })

	// waitFor waits until n queries were answered and the screen shows want.
	waitFor := func(n int, want string) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for len(seen()) < n {
			if time.Now().After(deadline) {
				t.Fatalf("waited for query %d; %d answered", n, len(seen()))
			}
			time.Sleep(20 * time.Millisecond)
		}
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(want)) },
			teatest.WithDuration(10*time.Second))
	}
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
	last := got[3]
	if last.Forward || last.Limit != 1 || !strings.Contains(last.KeyCondition, `begins_with(SK, "ORDER#")`) || last.Count != 1 {
		t.Fatalf("last request = %+v", last)
	}
	if last.Capacity.Total <= 0 {
		t.Fatalf("DynamoDB Local reported no capacity: %+v", last.Capacity)
	}
	var line string
	for _, l := range strings.Split(sc, "\n") {
		if strings.Contains(l, "  4 Query") {
			line = l
		}
	}
	if want := fmtRCU(last.Capacity.Total) + " RCU"; !strings.Contains(line, want) {
		t.Errorf("request line %q does not show DynamoDB Local's %s:\n%s", line, want, sc)
	}
	sum := 0.0
	for _, r := range got {
		sum += r.Capacity.Total
	}
	if want := "Σ " + fmtRCU(sum) + " RCU · 4 requests"; !strings.Contains(sc, want) {
		t.Errorf("status lacks %q:\n%s", want, sc)
	}
	if !strings.Contains(sc, "ORDER#2025-03-01#A17") || strings.Contains(sc, "ORDER#2025-01-09#A11  20") {
		t.Errorf("items are not just the latest order:\n%s", sc)
	}
	t.Logf("DynamoDB Local charged %s RCU for the latest order; the screen:\n%s", fmtRCU(last.Capacity.Total), sc)
}
