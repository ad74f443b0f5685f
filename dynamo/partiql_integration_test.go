package dynamo_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/partiql"
)

// A SELECT planned as a Query returns what the same Query with a filter
// returns; one planned as a Scan is capped; nothing but a SELECT reaches
// the endpoint.
func TestPartiQLAgainstDynamoDBLocal(t *testing.T) {
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	data := filterItems()
	for _, f := range data {
		put(t, api, table, f.item("P"))
		put(t, api, table, f.item("Q"))
	}
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	c, err := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: p.URL, Region: "us-east-1", NoSchemaCache: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sks := func(items []dynamo.Item) []string {
		var out []string
		for _, it := range items {
			out = append(out, it["SK"].(*types.AttributeValueMemberS).Value)
		}
		slices.Sort(out)
		return out
	}

	stmt := `SELECT * FROM "` + table + `" WHERE PK = 'P' AND status = 'OPEN' AND total > 500`
	plan, err := c.PlanPartiQL(ctx, stmt)
	if err != nil || !plan.Query || plan.PK != "'P'" {
		t.Fatalf("plan %+v, %v", plan, err)
	}
	var got []dynamo.Item
	res, err := c.RunPartiQL(ctx, dynamo.PartiQLInput{Plan: plan, OnPage: func(pg dynamo.Page) error { got = append(got, pg.Items...); return nil }})
	if err != nil || res.Stop != dynamo.StopComplete {
		t.Fatalf("run: %v, stop %s", err, res.Stop)
	}
	var want []string
	for _, f := range data {
		if f.status == "OPEN" && f.total > 500 {
			want = append(want, f.sk)
		}
	}
	if g := sks(got); !slices.Equal(g, want) || res.Count != len(want) {
		t.Errorf("partiql query: %v (count %d), want %v", g, res.Count, want)
	}
	for _, r := range res.Requests {
		if r.Operation != "ExecuteStatement" || r.Err != nil {
			t.Errorf("request %+v", r)
		}
	}

	scan, err := c.PlanPartiQL(ctx, `SELECT SK FROM "`+table+`" WHERE status = 'OPEN'`)
	if err != nil || scan.Query {
		t.Fatalf("scan plan %+v, %v", scan, err)
	}
	got = nil
	res, err = c.RunPartiQL(ctx, dynamo.PartiQLInput{Plan: scan, OnPage: func(pg dynamo.Page) error { got = append(got, pg.Items...); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	open := 0
	for _, f := range data {
		if f.status == "OPEN" {
			open += 2 // both partitions
		}
	}
	if len(got) != open {
		t.Errorf("partiql scan: %d items, want %d", len(got), open)
	}

	// Refused before any request, in the layer that sends.
	before := len(p.Calls())
	for _, bad := range []string{`UPDATE "` + table + `" SET a = 1 WHERE PK = 'P' AND SK = 'ITEM#00'`, `/* SELECT */ DELETE FROM "` + table + `" WHERE PK = 'P' AND SK = 'ITEM#00'`} {
		if _, err := c.PlanPartiQL(ctx, bad); err == nil || !strings.Contains(err.Error(), "only SELECT") {
			t.Errorf("%s planned: %v", bad, err)
		}
		if _, err := c.RunPartiQL(ctx, dynamo.PartiQLInput{Plan: partiql.Plan{Statement: bad, Table: table}}); err == nil {
			t.Errorf("%s ran", bad)
		}
	}
	if len(p.Calls()) != before || len(p.Writes()) != 0 {
		t.Errorf("refused statements reached the endpoint: %v", p.Ops())
	}
}

// What IsSelect lets through, the no-writes proxy never counts as a write.
func FuzzIsSelectAgreesWithProxy(f *testing.F) {
	for _, s := range []string{`SELECT * FROM t`, "-- x\nSELECT 1", `/* SELECT */ UPDATE t SET a=1`, ` (select a from t)`, `"SELECT"`, "\u00a0SELECT"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if partiql.IsSelect(s) && dynamotest.IsWrite("ExecuteStatement", []string{s}) {
			t.Fatalf("%q passes IsSelect but the proxy counts it as a write", s)
		}
	})
}
