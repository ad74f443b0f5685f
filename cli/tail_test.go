package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/spf13/cobra"

	"dynascope/config"
	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// Arguments become tail's options through runF, with no network; a wrong
// value is a usage error that never reaches runF.
func TestNewTailCmd(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		want    tailOptions // Conn, Stdout and Stderr are not compared
		table   string
		usageOK bool // false: a usage error is expected
	}{
		{args: []string{"--table", "App"}, table: "App", usageOK: true,
			want: tailOptions{From: "latest", Output: "text"}},
		{args: []string{"--table", "App", "--pk", "CUST#42", "--entity", "ORDER", "--from", "trim-horizon", "--output", "jsonl", "--delimiter", ":", "--max-records", "5", "--for", "30s"}, table: "App", usageOK: true,
			want: tailOptions{PK: "CUST#42", Entity: "ORDER", From: "trim-horizon", Output: "jsonl", Delimiter: ":", MaxRecords: 5, For: 30 * time.Second}},
		{args: []string{"--pk", "CUST#42"}},
		{args: []string{"--table", "App", "--output", "json"}},
		{args: []string{"--table", "App", "--from", "oldest"}},
		{args: []string{"--table", "App", "--max-records", "-1"}},
		{args: []string{"--table", "App", "--for", "0s"}},
		{args: []string{"--table", "App", "--pk", ""}},
		{args: []string{"--table", "App", "CUST#42"}},
	} {
		var got *tailOptions
		var conn config.Connection
		root := &cobra.Command{Use: "dynascope", SilenceErrors: true, SilenceUsage: true}
		gofs := flag.NewFlagSet("dynascope", flag.ContinueOnError)
		conn.Register(gofs)
		root.PersistentFlags().AddGoFlagSet(gofs)
		root.AddGroup(&cobra.Group{ID: groupExplore, Title: "Explore"})
		root.AddCommand(newTailCmd(&conn, func(_ context.Context, o *tailOptions) error { got = o; return nil }))
		root.SetArgs(append([]string{"tail"}, tc.args...))
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		err := root.Execute()
		if !tc.usageOK {
			if err == nil || got != nil {
				t.Errorf("%v: ran with %+v, err %v", tc.args, got, err)
			}
			continue
		}
		if err != nil || got == nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		if got.Conn.Table != tc.table || got.Stdout == nil || got.Stderr == nil {
			t.Errorf("%v: table %q, writers %v %v", tc.args, got.Conn.Table, got.Stdout, got.Stderr)
		}
		cmp := *got
		cmp.Conn, cmp.Stdout, cmp.Stderr = nil, nil, nil
		if cmp != tc.want {
			t.Errorf("%v: got %+v, want %+v", tc.args, cmp, tc.want)
		}
	}
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
