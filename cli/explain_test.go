package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo/dynamotest"
)

// Arguments become explain's options through runF, with no network; the
// two ways of giving the key exclude each other.
func TestNewExplainCmd(t *testing.T) {
	def := explainOptions{File: "dynascope.yaml", Output: "text"}
	with := func(f func(*explainOptions)) explainOptions { o := def; f(&o); return o }
	checkOptions(t, newExplainCmd, func(o *explainOptions) bool {
		set := o.Connect != nil && o.Out != nil && o.Err != nil
		o.Connect, o.Out, o.Err = nil, nil, nil
		return set
	}, []optionsCase[explainOptions]{
		{args: []string{"--table", "App", "--pk", "CUST#42", "--sk", "ORDER|1"},
			want: with(func(o *explainOptions) { o.Table, o.PK, o.SK, o.HasSK = "App", "CUST#42", "ORDER|1", true })},
		{args: []string{"--entity", "Order", "--param", "orderId=A17", "--index", "GSI1", "--output", "json", "--patterns", "p.yaml"},
			want: with(func(o *explainOptions) {
				o.Entity, o.Params, o.Index, o.Output, o.File = "Order", map[string]string{"orderId": "A17"}, "GSI1", "json", "p.yaml"
			})},
		{args: []string{"--entity", "Order", "--pk", "CUST#42"}, usage: "explain takes --entity with --param, or --pk and --sk as typed, not both."},
		{args: []string{"--table", "App"}, usage: "explain needs the key: --entity NAME with --param NAME=VALUE..., or --pk VALUE [--sk VALUE]."},
		{args: []string{"--pk", "CUST#42", "--param", "a=1"}, usage: "--param gives an entity's parameters: add --entity NAME"},
		{args: []string{"--pk", ""}, usage: "--pk is empty"},
		{args: []string{"--pk", "x", "--output", "table"}, usage: "--output takes text or json"},
		{args: []string{"--pk", "x", "y"}, usage: "unexpected argument"},
	})
}

// explainTable is a table with a GSI and the keys each difference is
// tested against: an order under # with its open-orders entry in GSI1, a
// shipment's zero-padded sequence, and a partition written lower-case.
func explainTable(t *testing.T) (table, endpoint string) {
	t.Helper()
	ep := dynamotest.Endpoint(t)
	api := dynamotest.SDK(t)
	table = dynamotest.Table(t, api, dynamotest.WithGSI(dynamotest.PKSK(), "GSI1", "GSI1PK", "S", "GSI1SK", "S", types.ProjectionTypeAll))
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	for _, it := range []map[string]types.AttributeValue{
		{"PK": s("CUST#42"), "SK": s("PROFILE"), "name": s("Ann")},
		{"PK": s("CUST#42"), "SK": s("ORDER#2025-01-09#A11")},
		{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17"), "GSI1PK": s("WH#1"), "GSI1SK": s("OPEN#2025-03-01#A17")},
		{"PK": s("SHIP#X"), "SK": s("SEQ#00041")},
		{"PK": s("SHIP#X"), "SK": s("SEQ#00042")},
		{"PK": s("cust#7"), "SK": s("PROFILE")},
	} {
		if _, err := api.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	return table, ep
}

type explainOut struct {
	Built       map[string]string `json:"built"`
	Found       bool              `json:"found"`
	Nearest     []explainNearJSON `json:"nearest"`
	Differences []explainDiffJSON `json:"differences"`
	Requests    int               `json:"requests"`
}

// explain names the difference for a key with the wrong delimiter, case,
// padding, index and a missing segment, against DynamoDB Local; a key that
// exists is found in the one Query on each side the plan announced.
func TestExplainNamesTheDifference(t *testing.T) {
	table, ep := explainTable(t)
	for _, tc := range []struct {
		name     string
		args     []string
		kind     string
		existing string
		requests int
		message  string
	}{
		{"delimiter", []string{"--pk", "CUST#42", "--sk", "ORDER|2025-03-01|A17"}, "delimiter", "ORDER#2025-03-01#A17", 2,
			"SK: the table has ORDER#2025-03-01#A17, cut by # where the built key has |"},
		{"case", []string{"--pk", "CUST#42", "--sk", "order#2025-03-01#a17"}, "case", "ORDER#2025-03-01#A17", 2, ""},
		{"padding", []string{"--pk", "SHIP#X", "--sk", "SEQ#42"}, "padding", "SEQ#00042", 2, ""},
		{"segment", []string{"--pk", "CUST#42", "--sk", "ORDER#A17"}, "segment", "ORDER#2025-03-01#A17", 2,
			"SK: the table has ORDER#2025-03-01#A17, with 2025-03-01 that the built ORDER#A17 lacks"},
		// Nothing is in WH#1 on the table: its variants are tried, then
		// the same key on GSI1, where it is.
		{"index", []string{"--pk", "WH#1", "--sk", "OPEN#2025-03-01#A17"}, "index", "WH#1 / OPEN#2025-03-01#A17", 0,
			"the key is on GSI1 (GSI1PK, GSI1SK), not on the table: the query names the wrong index"},
		// The partition in another case: found among its variants.
		{"partition case", []string{"--pk", "CUST#7", "--sk", "PROFILE"}, "case", "cust#7", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, err := cli(t, append([]string{"explain", "--endpoint-url", ep, "--table", table, "--output", "json"}, tc.args...)...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			var ex explainOut
			if err := json.Unmarshal([]byte(out), &ex); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if ex.Found || len(ex.Differences) == 0 {
				t.Fatalf("found %v, differences %+v", ex.Found, ex.Differences)
			}
			d := ex.Differences[0]
			if d.Kind != tc.kind || d.Existing == nil || *d.Existing != tc.existing || (tc.message != "" && d.Message != tc.message) {
				t.Errorf("difference %+v (%s), want %s with %s", d, derefString(d.Existing), tc.kind, tc.existing)
			}
			if tc.requests > 0 && ex.Requests != tc.requests {
				t.Errorf("%d requests, want %d", ex.Requests, tc.requests)
			}
			if !strings.HasPrefix(stderr, "explain ") || !strings.Contains(stderr, "one Query of Limit 3 on each side") {
				t.Errorf("the plan was not said first: %q", stderr)
			}
		})
	}
	// The key as it is: found, in the two Queries announced, no more.
	out, _, err := cli(t, "explain", "--endpoint-url", ep, "--table", table, "--pk", "CUST#42", "--sk", "ORDER#2025-03-01#A17", "--output", "json")
	var ex explainOut
	if err != nil || json.Unmarshal([]byte(out), &ex) != nil || !ex.Found || ex.Requests != 2 || len(ex.Differences) != 0 {
		t.Errorf("an existing key: %v %+v\n%s", err, ex, out)
	}
	text, _, err := cli(t, "explain", "--endpoint-url", ep, "--table", table, "--pk", "CUST#42", "--sk", "ORDER|2025-03-01|A17")
	want := "nearest keys that exist:\n" +
		"  before       CUST#42 / ORDER#2025-01-09#A11\n" +
		"  before       CUST#42 / ORDER#2025-03-01#A17   ← delimiter\n" +
		"  →            CUST#42 / ORDER|2025-03-01|A17   (the built key would be here)\n" +
		"  after        CUST#42 / PROFILE\n"
	if err != nil || !strings.Contains(text, want) || !strings.Contains(text, "\n2 requests · ") {
		t.Errorf("text: %v\n%s", err, text)
	}
}

func derefString(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// From an entity of the demo's file: the key its templates build from the
// parameters, each checked against its type; a typo'd parameter is named
// by what differs; an entity with no key on the index asked is told so
// without a request.
func TestExplainEntity(t *testing.T) {
	table, ep := fixtureTable(t)
	run := func(args ...string) (explainOut, string, error) {
		t.Helper()
		out, stderr, err := cli(t, append([]string{"explain", "--endpoint-url", ep, "--table", table, "--patterns", "../dynascope.yaml", "--output", "json"}, args...)...)
		var ex explainOut
		if err == nil {
			if jerr := json.Unmarshal([]byte(out), &ex); jerr != nil {
				t.Fatalf("%v\n%s", jerr, out)
			}
		}
		return ex, stderr, err
	}
	ex, _, err := run("--entity", "Order", "--param", "customerId=42", "--param", "orderDate=2025-03-01", "--param", "orderId=A17")
	if err != nil || !ex.Found || ex.Built["PK"] != "CUST#42" || ex.Built["SK"] != "ORDER#2025-03-01#A17" {
		t.Errorf("Order A17: %v %+v", err, ex)
	}
	ex, _, err = run("--entity", "Order", "--param", "customerId=42", "--param", "orderDate=2025-03-01", "--param", "orderId=a17")
	if err != nil || ex.Found || len(ex.Differences) != 1 || ex.Differences[0].Kind != "case" {
		t.Errorf("a typo'd order id: %v %+v", err, ex)
	}
	ex, _, err = run("--entity", "Order", "--index", "GSI1", "--param", "warehouseId=1", "--param", "orderDate=2025-03-01", "--param", "orderId=A17")
	if err != nil || !ex.Found || ex.Built["GSI1PK"] != "WH#1" || ex.Built["GSI1SK"] != "OPEN#2025-03-01#A17" {
		t.Errorf("Order on GSI1: %v %+v", err, ex)
	}
	ex, stderr, err := run("--entity", "LineItem", "--index", "GSI1", "--param", "orderId=A17")
	if err != nil || ex.Requests != 0 || len(ex.Differences) != 1 || ex.Differences[0].Kind != "index" ||
		ex.Differences[0].Message != "LineItem declares no GSI1PK, the partition key of index GSI1 of table "+table+": its keys are PK, SK (the table), so no query on GSI1 finds it" {
		t.Errorf("LineItem on GSI1: %v %+v %q", err, ex, stderr)
	}
	// Only the partition's parameters: the partition is explained.
	if ex, _, err = run("--entity", "Order", "--param", "customerId=42"); err != nil || !ex.Found || len(ex.Built) != 1 {
		t.Errorf("the partition alone: %v %+v", err, ex)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--entity", "Ordr"}, `../dynascope.yaml declares no entity "Ordr" (did you mean "Order"?); its entities are Customer, Address, Order, LineItem, Shipment, ProductVersion.`},
		{[]string{"--entity", "Order", "--param", "customerId=42", "--param", "orderDate=2025-3-1", "--param", "orderId=A17"}, `orderDate is "2025-3-1", which is not a date (YYYY-MM-DD).`},
		{[]string{"--entity", "Order", "--param", "customer=42"}, `Order has no parameter customer`},
		{[]string{"--entity", "Order", "--param", "customerId=42", "--param", "orderId=A17"}, `Order's SK (ORDER#{orderDate}#{orderId}) needs orderDate; give it as orderDate=VALUE.`},
	} {
		if _, _, err := run(tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) || exitCode(false, err) != 1 {
			t.Errorf("%v: %v, want %s", tc.args, err, tc.want)
		}
	}
}
