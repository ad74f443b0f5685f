package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// Arguments become tail's options through runF, with no network; a wrong
// value is a usage error that never reaches runF.
func TestNewTailCmd(t *testing.T) {
	checkOptions(t, newTailCmd, func(o *tailOptions) bool {
		set := o.Connect != nil && o.ConnectStreams != nil && o.Stdout != nil && o.Stderr != nil
		o.Connect, o.ConnectStreams, o.Stdout, o.Stderr = nil, nil, nil, nil
		return set
	}, []optionsCase[tailOptions]{
		{args: []string{"--table", "App"}, want: tailOptions{Table: "App", From: "latest", Output: "text"}},
		{args: []string{"--table", "App", "--pk", "CUST#42", "--entity", "ORDER", "--from", "trim-horizon", "--output", "jsonl", "--delimiter", ":", "--max-records", "5", "--for", "30s"},
			want: tailOptions{Table: "App", PK: "CUST#42", Entity: "ORDER", From: "trim-horizon", Output: "jsonl", Delimiter: ":", MaxRecords: 5, For: 30 * time.Second}},
		{args: []string{"--pk", "CUST#42"}, usage: "tail needs a table"},
		{args: []string{"--table", "App", "--output", "json"}, usage: "--output takes text or jsonl"},
		{args: []string{"--table", "App", "--from", "oldest"}, usage: "--from must be latest or trim-horizon"},
		{args: []string{"--table", "App", "--max-records", "-1"}, usage: "--max-records must be 1 or more"},
		{args: []string{"--table", "App", "--for", "0s"}, usage: "--for takes a positive duration"},
		{args: []string{"--table", "App", "--pk", ""}, usage: "--pk needs a value"},
		{args: []string{"--table", "App", "CUST#42"}, usage: "unexpected argument"},
	})
}

// tailedTable is a table with a NEW_AND_OLD_IMAGES stream holding the
// writes of a customer's order being placed, shipped and its line item
// removed, and writes of another partition and entity type among them.
func tailedTable(t *testing.T) (table string, p *dynamotest.Proxy) {
	t.Helper()
	api := dynamotest.SDK(t)
	table = dynamotest.Table(t, api, dynamotest.WithStream(dynamotest.PKSK(), types.StreamViewTypeNewAndOldImages))
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	ctx := context.Background()
	for _, it := range []map[string]types.AttributeValue{
		{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17"), "status": s("OPEN"), "total": n("35")},
		{"PK": s("CUST#7"), "SK": s("ORDER#2025-02-01#B1"), "status": s("OPEN")},
		{"PK": s("CUST#42"), "SK": s("ITEM#A17#1"), "qty": n("2")},
		{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17"), "status": s("SHIPPED"), "total": n("35")},
	} {
		if _, err := api.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := api.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: map[string]types.AttributeValue{"PK": s("CUST#42"), "SK": s("ITEM#A17#1")}}); err != nil {
		t.Fatal(err)
	}
	return table, dynamotest.StartProxy(t, dynamotest.Endpoint(t))
}

// JSONL as the issue shows it, every field in its order; the filters
// applied here and said so; the summary; and nothing but reads sent.
func TestTailJSONLAndFilters(t *testing.T) {
	table, p := tailedTable(t)
	out, errOut, err := cli(t, "tail", "--endpoint-url", p.URL, "--table", table, "--from", "trim-horizon", "--output", "jsonl", "--max-records", "5", "--for", "20s")
	if err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines: %s", len(lines), out)
	}
	var mod map[string]json.RawMessage
	if err := json.Unmarshal([]byte(lines[3]), &mod); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"event": `"MODIFY"`, "keys": `{"PK":"CUST#42","SK":"ORDER#2025-03-01#A17"}`, "entity": `"ORDER"`,
		"old":     `{"PK":"CUST#42","SK":"ORDER#2025-03-01#A17","status":"OPEN","total":35}`,
		"new":     `{"PK":"CUST#42","SK":"ORDER#2025-03-01#A17","status":"SHIPPED","total":35}`,
		"changed": `["status"]`,
	}
	for k, v := range want {
		if string(mod[k]) != v {
			t.Errorf("%s = %s, want %s", k, mod[k], v)
		}
	}
	var ts string
	json.Unmarshal(mod["time"], &ts)
	if _, err := time.Parse(time.RFC3339, ts); err != nil || !strings.HasSuffix(ts, "Z") || len(mod["sequence"]) < 3 {
		t.Errorf("time %s sequence %s", mod["time"], mod["sequence"])
	}
	keysOrder := []string{`{"event":`, `,"time":`, `,"sequence":`, `,"keys":`, `,"entity":`, `,"old":`, `,"new":`, `,"changed":`}
	at := 0
	for _, k := range keysOrder {
		i := strings.Index(lines[3][at:], k)
		if i < 0 {
			t.Fatalf("field %s out of order in %s", k, lines[3])
		}
		at += i
	}
	if !strings.Contains(lines[0], `"event":"INSERT"`) || !strings.Contains(lines[0], `"old":null`) || !strings.Contains(lines[0], `"changed":null`) {
		t.Errorf("INSERT line %s", lines[0])
	}
	if !strings.Contains(lines[4], `"event":"REMOVE"`) || !strings.Contains(lines[4], `"new":null`) || !strings.Contains(lines[4], `"entity":"ITEM"`) {
		t.Errorf("REMOVE line %s", lines[4])
	}
	if !strings.Contains(errOut, "streams read request unit") || !strings.Contains(errOut, "tail: 5 records (INSERT 3, MODIFY 1, REMOVE 1; ITEM 2, ORDER 3)") || !strings.Contains(errOut, "GetRecords") {
		t.Errorf("stderr %s", errOut)
	}

	// --pk and --entity: the order of CUST#42 only, and said so.
	out, errOut, err = cli(t, "tail", "--endpoint-url", p.URL, "--table", table, "--from", "trim-horizon", "--pk", "CUST#42", "--entity", "order", "--for", "3s")
	if err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	lines = strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "INSERT ORDER") || !strings.Contains(lines[1], `status: S "OPEN" → S "SHIPPED"`) {
		t.Errorf("filtered text %q", out)
	}
	for _, l := range lines {
		if !strings.Contains(l, "CUST#42 / ORDER#2025-03-01#A17") {
			t.Errorf("line %q", l)
		}
	}
	if !strings.Contains(errOut, "applied here") || !strings.Contains(errOut, "3 more filtered out") {
		t.Errorf("stderr %s", errOut)
	}
	if w := p.Writes(); len(w) > 0 || p.Count("GetRecords") == 0 {
		t.Errorf("writes %v; %d GetRecords", w, p.Count("GetRecords"))
	}
}

// A table without a stream: one sentence with the command, exit 1, and
// only the DescribeTable sent; the stream is never enabled.
func TestTailNoStreamCLI(t *testing.T) {
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	p := dynamotest.StartProxy(t, dynamotest.Endpoint(t))
	_, _, err := cli(t, "tail", "--endpoint-url", p.URL, "--table", table)
	want := "aws dynamodb update-table --table-name " + table + " --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES"
	var ns *dynamo.NoStreamError
	if !errors.As(err, &ns) || !strings.Contains(err.Error(), want) || exitCode(false, err) != 1 {
		t.Errorf("err %v", err)
	}
	if ops := p.Ops(); len(ops) != 1 || ops[0] != "DescribeTable" {
		t.Errorf("sent %v", ops)
	}
}

// A migration's two delimiters in one partition: tail names ORDER|… as
// groups does, ORDER| once it has seen the partition's ORDER#…, and ORDER
// in a partition that holds only ORDER|… (groups says ORDER there too);
// the summary counts the names it printed.
func TestTailNamesAsGroupsDo(t *testing.T) {
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.WithStream(dynamotest.PKSK(), types.StreamViewTypeKeysOnly))
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	for _, k := range [][2]string{{"CUST#42", "ORDER#2023-01-02#a1"}, {"CUST#42", "ORDER|2023-05-01|18c1"}, {"CUST#43", "ORDER|2023-05-02|19d2"}, {"CUST#42", "a5f0c3d2e1b4"}} {
		if _, err := api.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: map[string]types.AttributeValue{"PK": s(k[0]), "SK": s(k[1])}}); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, err := cli(t, "tail", "--endpoint-url", dynamotest.Endpoint(t), "--table", table, "--from", "trim-horizon", "--output", "jsonl", "--max-records", "4", "--for", "20s")
	if err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var rec struct {
			Keys   map[string]string `json:"keys"`
			Entity string            `json:"entity"`
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		got = append(got, rec.Keys["PK"]+" "+rec.Keys["SK"]+" "+rec.Entity)
	}
	slices.Sort(got) // shards deliver partitions in no fixed order; one partition's records keep theirs
	want := []string{"CUST#42 ORDER#2023-01-02#a1 ORDER", "CUST#42 ORDER|2023-05-01|18c1 ORDER|", "CUST#42 a5f0c3d2e1b4 hex id", "CUST#43 ORDER|2023-05-02|19d2 ORDER"}
	if !slices.Equal(got, want) {
		t.Errorf("tail named\n%q\nwant\n%q", got, want)
	}
	for _, pk := range []string{"CUST#42", "CUST#43"} {
		gout, gerr, err := cli(t, "groups", "--endpoint-url", dynamotest.Endpoint(t), "--table", table, "--pk", pk, "--output", "table")
		if err != nil {
			t.Fatalf("%v: %s", err, gerr)
		}
		for _, w := range want {
			if f := strings.Fields(w); f[0] == pk && !strings.Contains(gout, "\n"+f[2]+" ") {
				t.Errorf("groups of %s does not name %s: %s", pk, f[2], gout)
			}
		}
	}
}

// A table without a sort key: tail names an item by its partition key's
// family, as layout names the family (user of user42, CUST of CUST#1).
func TestTailNamesAPartitionKeyOnlyItemByItsFamily(t *testing.T) {
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.WithStream(dynamodb.CreateTableInput{
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
	}, types.StreamViewTypeKeysOnly))
	for _, pk := range []string{"user42", "CUST#1"} {
		if _, err := api.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: pk}}}); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, err := cli(t, "tail", "--endpoint-url", dynamotest.Endpoint(t), "--table", table, "--from", "trim-horizon", "--max-records", "2", "--for", "20s")
	if err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	lay, layErr, err := cli(t, "layout", "--endpoint-url", dynamotest.Endpoint(t), "--table", table, "--output", "json")
	if err != nil {
		t.Fatalf("%v: %s", err, layErr)
	}
	for _, want := range []string{"INSERT user ", "INSERT CUST "} {
		if !strings.Contains(out, want) {
			t.Errorf("tail printed %q, want a line with %q", out, want)
		}
		if e := strings.Fields(want)[1]; !strings.Contains(lay, `"entity": "`+e+`"`) {
			t.Errorf("layout does not name the family %s: %s", e, lay)
		}
	}
}

// 39.3: with entities declared, tail names each write by the declaration
// its keys match, and marks the others (text ~, JSON "declared": false), as
// groups names the partition's types.
func TestTailNamesByDeclarations(t *testing.T) {
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.WithStream(dynamotest.PKSK(), types.StreamViewTypeKeysOnly))
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	for _, k := range [][2]string{{"CUST#42", "ORDER#2023-01-02#a1"}, {"CUST#42", "ORDER|2023-05-01|18c1"}, {"CUST#43", "ORDER#2023-05-02#b2"}} {
		if _, err := api.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: map[string]types.AttributeValue{"PK": s(k[0]), "SK": s(k[1])}}); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(t.TempDir(), "entities.yaml")
	decl := "table: Other\nentities:\n  - name: Order\n    keys: {PK: \"CUST#{customerId}\", SK: \"ORDER#{orderDate}#{orderId}\"}\n    params: {customerId: number, orderDate: date, orderId: text}\n"
	if err := os.WriteFile(file, []byte(decl), 0o644); err != nil {
		t.Fatal(err)
	}
	ep := dynamotest.Endpoint(t)
	out, errOut, err := cli(t, "tail", "--endpoint-url", ep, "--table", table, "--patterns", file, "--from", "trim-horizon", "--output", "jsonl", "--max-records", "3", "--for", "20s")
	if err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var rec struct {
			Keys     map[string]string `json:"keys"`
			Entity   string            `json:"entity"`
			Declared *bool             `json:"declared"`
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		if rec.Declared == nil {
			t.Fatalf("no declared field: %s", l)
		}
		got = append(got, fmt.Sprintf("%s %s %s %t", rec.Keys["PK"], rec.Keys["SK"], rec.Entity, *rec.Declared))
	}
	slices.Sort(got)
	want := []string{"CUST#42 ORDER#2023-01-02#a1 Order true", "CUST#42 ORDER|2023-05-01|18c1 ORDER| false", "CUST#43 ORDER#2023-05-02#b2 Order true"}
	if !slices.Equal(got, want) {
		t.Errorf("tail named\n%q\nwant\n%q", got, want)
	}
	out, _, err = cli(t, "tail", "--endpoint-url", ep, "--table", table, "--patterns", file, "--from", "trim-horizon", "--pk", "CUST#42", "--max-records", "2", "--for", "20s")
	if err != nil || !strings.Contains(out, " Order ") || !strings.Contains(out, " ~ORDER| ") {
		t.Errorf("tail text: %v\n%s", err, out)
	}
	gout, gerr, err := cli(t, "groups", "--endpoint-url", ep, "--table", table, "--pk", "CUST#42", "--patterns", file, "--output", "table")
	if err != nil || !strings.Contains(gout, "\nOrder ") || !strings.Contains(gout, "\n~ORDER| ") {
		t.Errorf("groups of CUST#42 do not name as tail does: %v %s\n%s", err, gerr, gout)
	}
}
