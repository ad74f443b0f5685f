package dynamo_test

import (
	"context"
	"strings"
	"testing"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
	"dynascope/partiql"
)

// keyOf is an item's table key as one string, to find an item read twice.
func keyOf(it dynamo.Item) string {
	return itemcodec.KeyString(it["PK"]) + "|" + itemcodec.KeyString(it["SK"])
}

// A Query read whose pages go back or repeat is refused where it goes
// wrong, in both directions: no item is kept twice, and the read stops on
// the endpoint's fault. Before, a page of the previous page's items, or a
// LastEvaluatedKey behind the last item, was followed: every item
// read twice (8,002 lines for 4,001 items).
func TestFaultQueryKeysMoveOn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		fault   dynamotest.Fault
		reverse bool
		says    string
	}{
		{"repeated items", dynamotest.RepeatItems(), false, `answered Query with an item {PK "CUST#1", SK "ORDER#1"} not after the ExclusiveStartKey {PK "CUST#1", SK "ORDER#2"}`},
		{"repeated items reversed", dynamotest.RepeatItems(), true, `answered Query with an item {PK "CUST#1", SK "PROFILE"} not before the ExclusiveStartKey {PK "CUST#1", SK "ORDER#4"}`},
		{"key goes back", dynamotest.BackwardKey(), false, `answered Query with a LastEvaluatedKey {PK "CUST#1", SK "ORDER#1"} behind the last item {PK "CUST#1", SK "ORDER#2"}`},
		{"key goes back reversed", dynamotest.BackwardKey(), true, `answered Query with a LastEvaluatedKey {PK "CUST#1", SK "PROFILE"} behind the last item {PK "CUST#1", SK "ORDER#4"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRig(t, dynamo.Options{MaxAttempts: 1})
			r.p.Inject(dynamotest.Rule{Op: "Query", Fault: tc.fault})
			seen := map[string]int{}
			res, err := r.c.ReadQuery(context.Background(), dynamo.QueryRead{
				Query: dynamo.QueryInput{Table: r.table, PK: "CUST#1", Limit: 2, Reverse: tc.reverse},
				OnPage: func(p dynamo.Page) error {
					for _, it := range p.Items {
						seen[keyOf(it)]++
					}
					return nil
				},
			})
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("got %v (stop %q)\nwant …%s…", err, res.Stop, tc.says)
			}
			if res.Stop != dynamo.StopError {
				t.Errorf("stop %q, want error", res.Stop)
			}
			for k, n := range seen {
				if n > 1 {
					t.Errorf("%s kept %d times", k, n)
				}
			}
			if n := len(err.Error()); n > 300 {
				t.Errorf("a sentence of %d characters", n)
			}
		})
	}
}

// A LastEvaluatedKey that is no key of the table or index, or longer than
// DynamoDB's key limits, is refused: it never becomes the printed go-on
// key or the next page's start. Before, each was followed or printed.
func TestFaultLastKeyIsAKey(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("~", 1802)
	for _, tc := range []struct {
		name, raw, says string
	}{
		{"extra attribute", `{"PK":{"S":"CUST#1"},"SK":{"S":"ORDER#2"},"zz":{"S":"x"}}`,
			`a LastEvaluatedKey with the attribute zz, which is no key attribute of the table`},
		{"missing attribute", `{"PK":{"S":"CUST#1"}}`, `a LastEvaluatedKey without the key attribute SK`},
		{"wrong type", `{"PK":{"S":"CUST#1"},"SK":{"N":"2"}}`, `a LastEvaluatedKey whose SK is of type N, not the key schema's S`},
		{"too long", `{"PK":{"S":"CUST#1"},"SK":{"S":"ORDER#` + long + `"}}`, `a LastEvaluatedKey whose sort key SK is 1,808 bytes long, beyond DynamoDB's limit of 1,024`},
		{"empty", `{"PK":{"S":"CUST#1"},"SK":{"S":""}}`, `a LastEvaluatedKey whose SK is empty`},
		{"other partition", `{"PK":{"S":"CUST#9"},"SK":{"S":"ORDER#2"}}`, `a LastEvaluatedKey {PK "CUST#9", SK "ORDER#2"} from another partition than PK = "CUST#1"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRig(t, dynamo.Options{MaxAttempts: 1})
			r.p.Inject(dynamotest.Rule{Op: "Query", Fault: dynamotest.LastKey(tc.raw)})
			res, err := r.c.ReadQuery(context.Background(), dynamo.QueryRead{
				Query: dynamo.QueryInput{Table: r.table, PK: "CUST#1", Limit: 2}})
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("got %v\nwant …%s…", err, tc.says)
			}
			if res.GoOn() != nil || res.Pages != 0 {
				t.Errorf("go-on key %v after %d pages: the refused key must not be followed or printed", res.GoOn(), res.Pages)
			}
			if n := len(err.Error()); n > 300 {
				t.Errorf("a sentence of %d characters: %s", n, err)
			}
			if r.p.Count("Query") != 1 {
				t.Errorf("%d Queries: the key was followed", r.p.Count("Query"))
			}
		})
	}

	// Within the partition and moving on, but outside the sort-key
	// condition: sent back, DynamoDB would answer "does not match the
	// range key predicate"; it is refused as the endpoint's, unsent.
	r := newRig(t, dynamo.Options{MaxAttempts: 1})
	r.p.Inject(dynamotest.Rule{Op: "Query", Fault: dynamotest.LastKey(`{"PK":{"S":"CUST#1"},"SK":{"S":"PROFILE"}}`)})
	_, err := r.c.ReadQuery(context.Background(), dynamo.QueryRead{
		Query: dynamo.QueryInput{Table: r.table, PK: "CUST#1", Limit: 2, SK: dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"ORDER#"}}}})
	if want := `a LastEvaluatedKey {PK "CUST#1", SK "PROFILE"} outside the sort-key condition SK begins_with "ORDER#"`; err == nil || !strings.Contains(err.Error(), want) || r.p.Count("Query") != 1 {
		t.Errorf("%d Queries, got %v\nwant …%s…", r.p.Count("Query"), err, want)
	}

	// A Scan's key too.
	r = newRig(t, dynamo.Options{MaxAttempts: 1})
	r.p.Inject(dynamotest.Rule{Op: "Scan", Fault: dynamotest.LastKey(`{"PK":{"S":"CUST#1"},"SK":{"B":"AA=="}}`)})
	res, err := r.c.Scan(context.Background(), dynamo.ScanInput{Table: r.table, Limit: 2})
	if err == nil || !strings.Contains(err.Error(), "answered Scan with a LastEvaluatedKey whose SK is of type B, not the key schema's S") {
		t.Errorf("scan: %v", err)
	}
	if r.p.Count("Scan") != 1 || res.Stop != dynamo.StopError {
		t.Errorf("%d Scans, stop %q", r.p.Count("Scan"), res.Stop)
	}
}

// A Scan whose pages repeat items already read stops there; before, every
// item was kept twice.
func TestFaultScanRepeatsItems(t *testing.T) {
	t.Parallel()
	r := newRig(t, dynamo.Options{MaxAttempts: 1})
	r.p.Inject(dynamotest.Rule{Op: "Scan", Fault: dynamotest.RepeatItems()})
	seen := map[string]int{}
	res, err := r.c.Scan(context.Background(), dynamo.ScanInput{Table: r.table, Limit: 2, OnPage: func(p dynamo.ScanPage) error {
		for _, it := range p.Items {
			seen[keyOf(it)]++
		}
		return nil
	}})
	if err == nil || !strings.Contains(err.Error(), "answered Scan with an item {PK \"CUST#1\", SK \"ORDER#1\"} it had sent before in this read") {
		t.Fatalf("got %v", err)
	}
	for k, n := range seen {
		if n > 1 {
			t.Errorf("%s kept %d times (stop %q)", k, n, res.Stop)
		}
	}
}

// A sample's Scan items carry the key schema; before, keyless items became
// a partition family "*" in layout and the overview.
func TestFaultSampleItemsHaveKeys(t *testing.T) {
	t.Parallel()
	r := newRig(t, dynamo.Options{MaxAttempts: 1})
	r.p.Inject(dynamotest.Rule{Op: "Scan", Fault: dynamotest.ForeignItem(`{"total":{"N":"1"}}`)})
	s, err := r.c.Sample(context.Background(), dynamo.SampleInput{Table: r.table, Segments: 1})
	if err == nil || !strings.Contains(err.Error(), "answered Scan with an item without its key attribute PK") {
		t.Fatalf("got %v, %d items", err, len(s.Items))
	}
}

// A DescribeTable answer about another table is refused, and nothing of
// it kept; before, `tables` printed one name for every table.
func TestFaultDescribeNamesTheTable(t *testing.T) {
	t.Parallel()
	r := newRig(t, dynamo.Options{MaxAttempts: 1})
	other := r.table + "-other"
	r.p.Inject(dynamotest.Rule{Op: "DescribeTable", Fault: dynamotest.DescribeName(other)})
	fresh, err := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: r.p.URL, Region: "us-east-1", MaxAttempts: 1, SchemaCacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = fresh.DescribeTable(context.Background(), r.table)
	if err == nil || !strings.Contains(err.Error(), "answered DescribeTable with the description of table \""+other+"\", not of \""+r.table+"\"") {
		t.Fatalf("got %v", err)
	}
	r.p.ClearFaults()
	if tb, err := fresh.DescribeTable(context.Background(), r.table); err != nil || tb.Name != r.table {
		t.Errorf("after the fault: %v, %q (the refused answer must not be kept)", err, tb.Name)
	}
}

// ListTables naming a table twice, or a table by an empty name, is the
// endpoint's fault; before, the empty name was blamed on the user ("no
// table name was given") and a repeated name described twice.
func TestFaultListTablesNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		names []string
		says  string
	}{
		{[]string{"App", "App"}, `answered ListTables with the table name "App" twice`},
		{[]string{"App", ""}, `answered ListTables with an empty table name`},
		{[]string{"App", "a\x1b[2Jb"}, `answered ListTables with the table name "a\x1b[2Jb", which DynamoDB does not allow`},
	} {
		r := newRig(t, dynamo.Options{MaxAttempts: 1})
		r.p.Inject(dynamotest.Rule{Op: "ListTables", Fault: dynamotest.TableNames(tc.names...)})
		names, err := r.c.ListTables(context.Background())
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%q: got %v, %q\nwant …%s…", tc.names, err, names, tc.says)
		}
	}
}

// A PartiQL answer holding an item outside the statement's key condition
// is refused; before, another partition's item was shown for WHERE PK =.
func TestFaultPartiQLItemsInTheCondition(t *testing.T) {
	t.Parallel()
	r := newRig(t, dynamo.Options{MaxAttempts: 1})
	r.p.Inject(dynamotest.Rule{Op: "ExecuteStatement", Fault: dynamotest.ForeignItem(`{"PK":{"S":"CUST#8"},"SK":{"S":"ORDER#1"}}`)})
	plan, err := r.c.PlanPartiQL(context.Background(), `SELECT * FROM "`+r.table+`" WHERE PK = 'CUST#1'`)
	if err != nil || plan.Kind() != "Query" {
		t.Fatalf("plan %v: %v", plan, err)
	}
	var got []dynamo.Item
	_, err = r.c.RunPartiQL(context.Background(), dynamo.PartiQLInput{Plan: plan, OnPage: func(p dynamo.Page) error {
		got = append(got, p.Items...)
		return nil
	}})
	if err == nil || !strings.Contains(err.Error(), `answered ExecuteStatement with an item {PK "CUST#8", SK "ORDER#1"} from another partition than PK = "CUST#1"`) {
		t.Fatalf("got %v, %d items", err, len(got))
	}
	if len(got) != 0 {
		t.Errorf("%d items kept", len(got))
	}
	_ = partiql.IsSelect
}

// An ExecuteStatement answer cut off in transit (not sent again: a
// statement is not a read the retries know) is said in one sentence of
// dynascope's; before, the UI's PartiQL overlay showed the SDK's
// "operation error DynamoDB: ExecuteStatement, https response error
// StatusCode: 200, RequestID: …, unexpected EOF".
func TestFaultStatementCutOffIsOneSentence(t *testing.T) {
	t.Parallel()
	r := newRig(t, dynamo.Options{MaxAttempts: 2})
	plan := r.custPlan(t)
	r.p.Inject(dynamotest.Rule{Op: "ExecuteStatement", Fault: dynamotest.Truncate})
	_, err := r.c.RunPartiQL(context.Background(), dynamo.PartiQLInput{Plan: plan})
	if err == nil || !strings.Contains(err.Error(), "was cut off in transit") {
		t.Fatalf("err = %v", err)
	}
	if why := dynamotest.SentenceProblem(err.Error()); why != "" {
		t.Errorf("%s: %s", why, err)
	}
}

// An ExecuteStatement answer whose LastEvaluatedKey is of another
// partition than the statement's WHERE PK = (a cache answering it with a
// Scan's page, with no NextToken) is refused in a sentence naming it:
// before, the read ended as complete with no item.
func TestFaultStatementKeyOfAnotherPartition(t *testing.T) {
	t.Parallel()
	r := newRig(t, dynamo.Options{MaxAttempts: 1})
	plan := r.custPlan(t)
	r.p.Inject(dynamotest.Rule{Op: "ExecuteStatement", Fault: dynamotest.CheapEndlessScan()})
	res, err := r.c.RunPartiQL(context.Background(), dynamo.PartiQLInput{Plan: plan})
	if err == nil || res.Stop != dynamo.StopError || !strings.Contains(err.Error(), `a LastEvaluatedKey {PK "endless#00000001", SK "x"} from another partition than PK = "CUST#1"`) {
		t.Fatalf("stop %q, err = %v", res.Stop, err)
	}
	if why := dynamotest.SentenceProblem(err.Error()); why != "" {
		t.Errorf("%s: %s", why, err)
	}
}

// custPlan is the plan of SELECT * of the partition CUST#1.
func (r *rig) custPlan(t *testing.T) partiql.Plan {
	t.Helper()
	plan, err := r.c.PlanPartiQL(context.Background(), `SELECT * FROM "`+r.table+`" WHERE PK = 'CUST#1'`)
	if err != nil {
		t.Fatal(err)
	}
	return plan
}
