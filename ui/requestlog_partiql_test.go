package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/ui/request"
)

// The request log's PartiQL line is DynamoDB Local's answer: its operation
// once, the items the answer held, its plan, and "unknown" where the
// answer sent no ConsumedCapacity (as DynamoDB Local does for
// ExecuteStatement); the session total then says so too. Before, the line
// read "Execut… PartiQL Query Query: SELECT … 0/0 0 RCU table".
func TestRequestLogPartiQLLine(t *testing.T) {
	api := dynamotest.SDK(t)
	ep := dynamotest.Endpoint(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	ctx := context.Background()
	var items []dynamo.Item
	for i := range 37 {
		items = append(items, dynamo.Item{"PK": s("P"), "SK": s(fmt.Sprintf("ORDER#%02d", i))})
	}
	if _, err := dynamo.Seed(ctx, api, table, items, dynamo.SeedOptions{}); err != nil {
		t.Fatal(err)
	}
	client, _, tap := localClient(t, ep)
	plan, err := client.PlanPartiQL(ctx, fmt.Sprintf(`SELECT * FROM "%s" WHERE PK = 'P'`, table))
	if err != nil {
		t.Fatal(err)
	}
	res, err := client.RunPartiQL(ctx, dynamo.PartiQLInput{Plan: plan})
	if err != nil {
		t.Fatal(err)
	}
	xs := tap.Exchanges("ExecuteStatement")
	if len(xs) != len(res.Requests) || len(xs) == 0 {
		t.Fatalf("%d answers, %d requests", len(xs), len(res.Requests))
	}
	var l requestLog
	for _, r := range res.Requests {
		l = l.add(r, "", 1, request.Input{})
	}
	cw := l.widths(0, len(l.reqs))
	for i, x := range xs {
		var raw struct {
			Items            []json.RawMessage
			ConsumedCapacity *struct{ CapacityUnits float64 }
		}
		if err := json.Unmarshal(x.Response, &raw); err != nil {
			t.Fatal(err)
		}
		line := ansi.Strip(l.line(newStyles(true, true), i+1, table, cw, 160))
		cost := "unknown RCU"
		if raw.ConsumedCapacity != nil {
			cost = fmtRCU(raw.ConsumedCapacity.CapacityUnits) + " RCU"
		}
		for _, want := range []string{"PartiQL ", fmt.Sprintf(" %d/? ", len(raw.Items)), cost, "Query: SELECT"} {
			if !strings.Contains(line, want) {
				t.Errorf("line lacks %q:\n%s", want, line)
			}
		}
		if strings.Count(line, "Query") != 1 || strings.Contains(line, "Execut") {
			t.Errorf("operation or plan said twice:\n%s", line)
		}
		if raw.ConsumedCapacity == nil && l.totalText() != "unknown RCU" {
			t.Errorf("session total %q for answers without capacity", l.totalText())
		}
	}
}

// The last request of a PartiQL read is logged with what was predicted
// beside what it cost (request.Predicted), a long kind: at 120 and 80
// columns it gave the whole line to that sentence, so neither the
// statement nor the item count nor the cost showed (issue 37.13). The kind
// now gives way in whole parts, never cutting a figure.
func TestRequestLogPartiQLLineWithPrediction(t *testing.T) {
	api := dynamotest.SDK(t)
	ep := dynamotest.Endpoint(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	ctx := context.Background()
	items := []dynamo.Item{{"PK": s("P"), "SK": s("A")}, {"PK": s("P"), "SK": s("B")}, {"PK": s("P"), "SK": s("C")}}
	if _, err := dynamo.Seed(ctx, api, table, items, dynamo.SeedOptions{}); err != nil {
		t.Fatal(err)
	}
	client, _, _ := localClient(t, ep)
	plan, err := client.PlanPartiQL(ctx, fmt.Sprintf(`SELECT * FROM "%s" WHERE PK = 'P'`, table))
	if err != nil {
		t.Fatal(err)
	}
	res, err := client.RunPartiQL(ctx, dynamo.PartiQLInput{Plan: plan})
	if err != nil {
		t.Fatal(err)
	}
	var l requestLog
	kind := request.Predicted(450, res.Requests)
	for _, r := range res.Requests {
		l = l.add(r, kind, 1, request.Input{})
	}
	cw := l.widths(0, len(l.reqs))
	for _, w := range []int{118, 78} { // the log's lines inside its box at 120 and 80 columns
		line := ansi.Strip(l.line(newStyles(true, true), 1, table, cw, w))
		for _, want := range []string{"Query: SELECT * FROM", " 3/? ", "unknown RCU"} {
			if !strings.Contains(line, want) {
				t.Errorf("at %d columns the line lacks %q:\n%s", w, want, line)
			}
		}
		if strings.Contains(line, "predicted ≤ 4…") || strings.Contains(line, "predicted …") {
			t.Errorf("at %d columns the prediction is cut mid-figure:\n%s", w, line)
		}
	}
	// With room, the prediction is there in full.
	if line := ansi.Strip(l.line(newStyles(true, true), 1, table, cw, 400)); !strings.Contains(line, "predicted ≤ 450 RCU · actual unknown") {
		t.Errorf("at 400 columns the prediction is gone:\n%s", line)
	}
}
