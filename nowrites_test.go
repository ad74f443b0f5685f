package main

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// exploreOps are the only operations exploring may send: the least-privilege
// policy in the README allows exactly these.
var exploreOps = []string{"ListTables", "DescribeTable", "Query", "GetItem", "Scan"}

// Every command but seed, with every option, through a recording proxy:
// nothing but reads reaches DynamoDB.
func TestCLINeverWrites(t *testing.T) {
	table, ep := seededDemo(t)
	p := dynamotest.StartProxy(t, ep)
	conn := []string{"--endpoint-url", p.URL, "--table", table}
	q := append([]string{"query"}, conn...)
	g := append([]string{"groups"}, conn...)
	get := append([]string{"get"}, conn...)
	runs := [][]string{
		{"help"},
		{"tables", "--endpoint-url", p.URL},
		{"tables", "--endpoint-url", p.URL, "--output", "json"},
		append([]string{"tables", "--output", "json"}, conn...),
		slices.Concat(q, []string{"--pk", "CUST#42"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--sk-begins-with", "ORDER#", "--reverse", "--limit", "1"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--sk-eq", "PROFILE", "--consistent"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--sk-lt", "ORDER$"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--sk-le", "ORDER$"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--sk-gt", "ORDER#"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--sk-ge", "ORDER$"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--sk-between", "ORDER#", "ORDER$"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--limit", "1", "--all-pages", "--output", "jsonl"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--output", "table", "--dynamodb-json"}),
		slices.Concat(q, []string{"--pk", "WH#1", "--index", "GSI1", "--all-pages"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--all-pages", "--output", "csv"}),
		slices.Concat(q, []string{"--pk", "CUST#42", "--all-pages", "--output", "ddbjson-batch"}),
		slices.Concat(q, []string{"--pk", "no-such-partition", "--max-attempts", "2", "--timeout", "5s"}),
		slices.Concat(get, []string{"--pk", "CUST#42", "--sk", "PROFILE"}),
		slices.Concat(get, []string{"--pk", "CUST#42", "--sk", "PROFILE", "--consistent", "--output", "table", "--dynamodb-json"}),
		slices.Concat(get, []string{"--pk", "CUST#42", "--sk", "NOT-THERE"}),
		slices.Concat(g, []string{"--pk", "CUST#42"}),
		slices.Concat(g, []string{"--pk", "CUST#42", "--count", "--consistent"}),
		slices.Concat(g, []string{"--pk", "CUST#42", "--reverse", "--delimiter", "#", "--output", "table"}),
		slices.Concat(g, []string{"--pk", "WH#1", "--index", "GSI1", "--count"}),
	}
	if _, err := os.Stat("cmd_layout.go"); err == nil {
		runs = append(runs, append([]string{"layout"}, conn...))
	}
	for _, args := range runs {
		if out, _, err := cli(t, args...); err != nil || out == "" {
			t.Errorf("%v: %v, printed %q", args, err, out)
		}
	}
	for _, args := range [][]string{
		{"list"},
		slices.Concat([]string{"run", "latest order", "--param", "customerId=42"}, conn),
		slices.Concat([]string{"run", "customer with orders", "--output", "table"}, conn),
		slices.Concat([]string{"check", "--output", "json"}, conn),
		slices.Concat([]string{"show", "latest order", "--lang", "go"}, conn),
	} {
		var out, errb strings.Builder
		if err := run(context.Background(), append([]string{"patterns"}, args...), &out, &errb); err != nil || out.Len() == 0 {
			t.Errorf("patterns %v: %v, printed %q", args, err, out.String())
		}
	}
	// Failures read nothing more: a missing table and a bad index.
	for _, args := range [][]string{
		{"query", "--endpoint-url", p.URL, "--table", "no-such-table", "--pk", "x"},
		slices.Concat(q, []string{"--pk", "x", "--index", "NOPE"}),
	} {
		if _, _, err := cli(t, args...); err == nil {
			t.Errorf("%v must fail", args)
		}
	}

	seen := map[string]int{}
	for _, c := range p.Calls() {
		seen[c.Op]++
		if !slices.Contains(exploreOps, c.Op) || c.Write {
			t.Errorf("exploring sent %s (call %d)", c.Op, c.Seq)
		}
	}
	if w := p.Writes(); len(w) > 0 {
		t.Errorf("writes: %+v", w)
	}
	// The test proves something only if the commands really talked to DynamoDB.
	for _, op := range []string{"ListTables", "DescribeTable", "Query", "GetItem"} {
		if seen[op] == 0 {
			t.Errorf("no %s went through the proxy; saw %v", op, seen)
		}
	}
}

// The recorder itself tells writes from reads, PartiQL included: without
// this, an empty Writes() would prove nothing.
func TestProxyRecordsWrites(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	p := dynamotest.StartProxy(t, ep)
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	via := dynamodb.New(dynamodb.Options{
		Region: "us-east-1", BaseEndpoint: aws.String(p.URL),
		Credentials: credentials.NewStaticCredentialsProvider("local", "local", ""),
	})
	ctx := context.Background()
	item := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "P"}, "SK": &types.AttributeValueMemberS{Value: "S"}}
	steps := []func() error{
		func() error {
			_, err := via.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item})
			return err
		},
		func() error {
			_, err := via.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "` + table + `" WHERE PK = 'P'`)})
			return err
		},
		func() error {
			_, err := via.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`UPDATE "` + table + `" SET n = 1 WHERE PK = 'P' AND SK = 'S'`)})
			return err
		},
		func() error {
			_, err := via.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
				{Statement: aws.String(`UPDATE "` + table + `" SET n = 2 WHERE PK = 'P' AND SK = 'S'`)},
				{Statement: aws.String(` delete FROM "` + table + `" WHERE PK = 'P' AND SK = 'other'`)},
			}})
			return err
		},
		func() error {
			_, err := via.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: item})
			return err
		},
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	var writes []string
	for _, c := range p.Writes() {
		writes = append(writes, c.Op)
	}
	if strings.Join(writes, ",") != "PutItem,ExecuteStatement,BatchExecuteStatement" || len(p.Calls()) != 5 {
		t.Errorf("writes %v among %v", writes, p.Ops())
	}

	// And seed, the one command that writes, is seen writing.
	seeded := dynamotest.UniqueName("cli-seed-writes")
	t.Cleanup(func() { deleteTables(seeded) })
	sp := dynamotest.StartProxy(t, ep)
	if _, _, err := cli(t, "seed", "--demo", "--table", seeded, "--endpoint-url", sp.URL); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, c := range sp.Writes() {
		kinds[c.Op] = true
	}
	if !kinds["CreateTable"] || !kinds["BatchWriteItem"] {
		t.Errorf("seed's writes went unseen: %v", sp.Ops())
	}

	for _, tc := range []struct {
		op    string
		stmts []string
		write bool
	}{
		{"Query", nil, false},
		{"Scan", nil, false},
		{"DeleteTable", nil, true},
		{"SomeFutureOperation", nil, true},
		{"ExecuteStatement", []string{"  -- comment\n/* c */ (SELECT * FROM t)"}, false},
		{"ExecuteStatement", []string{"INSERT INTO t VALUE {'PK': 'x'}"}, true},
		{"ExecuteTransaction", []string{"select * from t", "Update t SET a = 1"}, true},
		{"ExecuteStatement", nil, true},
	} {
		if got := dynamotest.IsWrite(tc.op, tc.stmts); got != tc.write {
			t.Errorf("IsWrite(%s, %q) = %v", tc.op, tc.stmts, got)
		}
	}
}

// The compile-level half of the guarantee: the client explores through
// dynamo.API, and dynamo.API has no method that writes. Adding one to API
// (or giving the client's api field another type) fails here.
func TestReadOnlyClientType(t *testing.T) {
	apiType := reflect.TypeOf((*dynamo.API)(nil)).Elem()
	var methods []string
	for i := range apiType.NumMethod() {
		methods = append(methods, apiType.Method(i).Name)
	}
	sort.Strings(methods)
	want := slices.Clone(exploreOps)
	sort.Strings(want)
	if !slices.Equal(methods, want) {
		t.Errorf("dynamo.API has %v, want exactly the reads %v", methods, want)
	}
	field, ok := reflect.TypeOf((*dynamo.Client)(nil)).Elem().FieldByName("api")
	if !ok || field.Type != apiType {
		t.Errorf("dynamo.Client explores through %v, not dynamo.API", field.Type)
	}

	// No other field may hold a way around API either: neither the SDK
	// client (as Client.SDK once handed out), nor WriteAPI, nor a function
	// returning one, nor an empty interface that could hold anything, at
	// any depth. The writes of seeding come from dynamo.ConnectWriter alone.
	beyond := beyondExploring()
	client := reflect.TypeOf(dynamo.Client{})
	for i := range client.NumField() {
		f := client.Field(i)
		if why := reachesBeyond(f.Type, beyond, map[reflect.Type]bool{}); why != "" {
			t.Errorf("dynamo.Client.%s (%v) can hold a writer: %s", f.Name, f.Type, why)
		}
	}
	// The check itself must see the ways around: otherwise the loop above
	// proves nothing.
	for _, bad := range []any{
		(*dynamodb.Client)(nil),
		(*dynamo.WriteAPI)(nil),
		struct{ sdk func() *dynamodb.Client }{},
		map[string][]struct{ x any }{},
	} {
		if reachesBeyond(reflect.TypeOf(bad), beyond, map[reflect.Type]bool{}) == "" {
			t.Errorf("the field check misses %T", bad)
		}
	}
}

// beyondExploring names the SDK operations exploring must not reach: every
// method of the SDK client but the reads of exploreOps.
func beyondExploring() map[string]bool {
	ops := map[string]bool{}
	sdk := reflect.TypeOf((*dynamodb.Client)(nil))
	for i := range sdk.NumMethod() {
		if name := sdk.Method(i).Name; name != "Options" && !slices.Contains(exploreOps, name) {
			ops[name] = true
		}
	}
	return ops
}

// reachesBeyond says how a value of type t could lead to an operation
// beyond exploring, or "" when it cannot.
func reachesBeyond(t reflect.Type, beyond map[string]bool, seen map[reflect.Type]bool) string {
	if seen[t] {
		return ""
	}
	seen[t] = true
	for _, mt := range []reflect.Type{t, reflect.PointerTo(t)} {
		for i := range mt.NumMethod() {
			if beyond[mt.Method(i).Name] {
				return fmt.Sprintf("%v has %s", t, mt.Method(i).Name)
			}
		}
	}
	var inner []reflect.Type
	switch t.Kind() {
	case reflect.Interface:
		if t.NumMethod() == 0 {
			return fmt.Sprintf("%v holds any value", t)
		}
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
		inner = append(inner, t.Elem())
	case reflect.Map:
		inner = append(inner, t.Key(), t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			inner = append(inner, t.Field(i).Type)
		}
	case reflect.Func:
		for i := range t.NumIn() {
			inner = append(inner, t.In(i))
		}
		for i := range t.NumOut() {
			inner = append(inner, t.Out(i))
		}
	}
	for _, in := range inner {
		if why := reachesBeyond(in, beyond, seen); why != "" {
			return why
		}
	}
	return ""
}
