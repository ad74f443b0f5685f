package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
)

// Arguments become item's options through runF, with no network.
func TestItemOptions(t *testing.T) {
	checkOptions(t, newItemCmd, func(o *itemOptions) bool {
		set := o.Connect != nil && o.Out != nil
		o.Connect, o.Out = nil, nil
		return set
	}, []optionsCase[itemOptions]{
		{args: []string{"--table", "App", "--pk", "CUST#42", "--sk", "PROFILE"}, want: itemOptions{Table: "App", PK: "CUST#42", SK: "PROFILE", Output: "json"}},
		{args: []string{"--table", "App", "--pk", "1", "--consistent", "--output", "table"}, want: itemOptions{Table: "App", PK: "1", Consistent: true, Output: "table"}},
		{args: []string{"--pk", "x"}, usage: "--table"},
		{args: []string{"--table", "App", "--pk", "x", "--output", "csv"}, usage: "--output takes json, table, text or yaml"},
		{args: []string{"--table", "App", "CUST#42"}, usage: "unexpected argument"},
	})
}

// Arguments become index try's options through runF, with no network; the
// sampling caps not given are the settings' (here the defaults).
func TestIndexTryOptions(t *testing.T) {
	base := indexTryOptions{Table: "App", PKAttr: "status", Projection: "ALL", MaxItems: dynamo.DefaultSampleItems, MaxRCU: dynamo.DefaultSampleRCU,
		Patterns: "dynascope.yaml", Output: "json"}
	with := func(f func(*indexTryOptions)) indexTryOptions { o := base; f(&o); return o }
	cases := []optionsCase[indexTryOptions]{
		{args: []string{"--pk-attr", "status"}, want: base},
		{args: []string{"--pk-attr", "status", "--sk-attr", "SK", "--projection", "include:total, name", "--max-items", "50", "--max-rcu", "2.5",
			"--patterns", "p.yaml", "--output", "table"},
			want: with(func(o *indexTryOptions) {
				o.SKAttr, o.Projection, o.Include, o.MaxItems, o.MaxRCU = "SK", "INCLUDE", []string{"total", "name"}, 50, 2.5
				o.Patterns, o.PatternsGiven, o.Output = "p.yaml", true, "table"
			})},
		{args: []string{"--pk-attr", "status", "--projection", "KEYS_ONLY"}, want: with(func(o *indexTryOptions) { o.Projection = "KEYS_ONLY" })},
		{args: []string{"--sk-attr", "SK"}, usage: "needs --pk-attr"},
		{args: []string{"--pk-attr", "a", "--projection", "INCLUDE"}, usage: "--projection must be"},
		{args: []string{"--pk-attr", "a", "--projection", "ALL:x"}, usage: "--projection must be"},
		{args: []string{"--pk-attr", "a", "--projection", "SOME"}, usage: "--projection must be"},
		{args: []string{"--pk-attr", "a", "--max-items", "0"}, usage: "--max-items"},
		{args: []string{"--pk-attr", "a", "--max-rcu", "0.1"}, usage: "--max-rcu"},
		{args: []string{"--pk-attr", "a", "--output", "csv"}, usage: "--output takes json, table, text or yaml"},
		{args: []string{"--pk-attr", "a", "GSI9"}, usage: "unexpected argument"},
	}
	for i := range cases {
		cases[i].args = append([]string{"--table", "App"}, cases[i].args...)
	}
	checkOptions(t, newIndexTryCmd, func(o *indexTryOptions) bool {
		set := o.Connect != nil && o.Out != nil && o.Err != nil
		o.Connect, o.Out, o.Err = nil, nil, nil
		return set
	}, cases)
	got, _, err := cmdOptions(t, newIndexTryCmd, "--pk-attr", "status")
	wantUsage(t, []string{"--pk-attr", "status"}, got != nil, err, "index try needs a table")
}

type itemOut struct {
	Table     string          `json:"table"`
	Key       json.RawMessage `json:"key"`
	Item      map[string]any  `json:"item"`
	Size      int             `json:"size"`
	ReadUnits struct{ Eventual, Strong float64 }
	Indexes   []struct {
		Name, Kind, Projection, Why, Violation string
		Member                                 bool
		Keys                                   json.RawMessage
		Projected, NotProjected                *[]string
	}
	ConsumedCapacity struct{ Total float64 }
}

// `item` on the indexed table: a member of a sparse KEYS_ONLY index, an
// INCLUDE index, an overloaded one and the LSI with its keys and
// projection; an item written before an index with each violation.
func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

func TestItemCommand(t *testing.T) {
	t.Parallel()
	ep := dynamotest.Endpoint(t)
	api := dynamotest.SDK(t)
	table := dynamotest.IndexedTable(t, api)
	get := func(sk string) itemOut {
		t.Helper()
		out, _, err := cli(t, "item", "--endpoint-url", ep, "--table", table, "--pk", strings.SplitN(sk, " ", 2)[0], "--sk", strings.SplitN(sk, " ", 2)[1])
		if err != nil {
			t.Fatalf("item %s: %v", sk, err)
		}
		var o itemOut
		if err := json.Unmarshal([]byte(out), &o); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return o
	}
	o := get("CUST#1 ORDER#2025-01-01#A11")
	if o.Table != table || compact(o.Key) != `{"PK":"CUST#1","SK":"ORDER#2025-01-01#A11"}` || o.Item["status"] != "OPEN" {
		t.Fatalf("%+v", o)
	}
	if o.Size == 0 || o.ReadUnits.Eventual != 0.5 || o.ReadUnits.Strong != 1 || o.ConsumedCapacity.Total != 0.5 {
		t.Errorf("size %d, read units %+v, capacity %v", o.Size, o.ReadUnits, o.ConsumedCapacity)
	}
	byName := map[string]int{}
	for i, ix := range o.Indexes {
		byName[ix.Name] = i
	}
	want := map[string]struct {
		kind, keys string
		projected  []string
	}{
		dynamotest.SparseIndex:     {"gsi", `{"GSI1PK":"WH#1","GSI1SK":"OPEN#2025-01-01#A11"}`, []string{"PK", "SK", "GSI1PK", "GSI1SK"}},
		dynamotest.IncludeIndex:    {"gsi", `{"status":"OPEN","SK":"ORDER#2025-01-01#A11"}`, []string{"PK", "SK", "status", "total"}},
		dynamotest.OverloadedIndex: {"gsi", `{"GSI2PK":"ORDER#A11","GSI2SK":"CUST#1"}`, []string{"PK", "SK", "GSI2PK", "GSI2SK", "GSI1PK", "GSI1SK", "date", "note", "status", "total"}},
		dynamotest.LocalIndex:      {"lsi", `{"PK":"CUST#1","date":"2025-01-01"}`, []string{"PK", "SK", "date"}},
	}
	for name, w := range want {
		ix := o.Indexes[byName[name]]
		if !ix.Member || ix.Kind != w.kind || compact(ix.Keys) != w.keys || ix.Projected == nil || !slices.Equal(*ix.Projected, w.projected) {
			t.Errorf("%s: %+v keys %s projected %v, want %+v", name, ix, ix.Keys, ix.Projected, w)
		}
		if ix.NotProjected == nil || len(*ix.NotProjected)+len(*ix.Projected) != len(o.Item) {
			t.Errorf("%s: not projected %v", name, ix.NotProjected)
		}
	}
	if late := o.Indexes[byName[dynamotest.LateIndex]]; late.Member || late.Why != "LATEPK is absent" || late.Violation != "" || late.Projected != nil {
		t.Errorf("Late: %+v", late)
	}
	for sk, v := range map[string]string{"LATE#number": "wrong-type", "LATE#empty": "empty", "LATE#longpk": "too-long", "LATE#longsk": "too-long"} {
		o := get("CUST#9 " + sk)
		late := o.Indexes[byName[dynamotest.LateIndex]]
		if late.Member || late.Violation != v || !strings.Contains(late.Why, "written before the index was created") {
			t.Errorf("%s: %+v", sk, late)
		}
	}
	// A missing item: null, no indexes, and the read it cost.
	out, _, err := cli(t, "item", "--endpoint-url", ep, "--table", table, "--pk", "CUST#1", "--sk", "NOPE", "--output", "table")
	if err != nil || !strings.Contains(out, "no such item · 0.5 RCU") {
		t.Errorf("missing item: %v, %q", err, out)
	}
	if _, _, err := cli(t, "item", "--endpoint-url", ep, "--table", table, "--pk", "CUST#1"); err == nil || !strings.Contains(err.Error(), "pass --sk") {
		t.Errorf("no --sk: %v", err)
	}
}

// `index try` over the whole (small) table agrees with the index DynamoDB
// Local builds when the same GSI is added: its members, partitions, the
// largest partition, entity types and size.
func TestIndexTryMatchesTheBuiltIndex(t *testing.T) {
	t.Parallel()
	ep := dynamotest.Endpoint(t)
	api := dynamotest.SDK(t)
	table := dynamotest.IndexedTable(t, api)
	out, stderr, err := cli(t, "index", "try", "--endpoint-url", ep, "--table", table, "--pk-attr", "status", "--sk-attr", "date",
		"--projection", "INCLUDE:total", "--patterns", "testdata/index-try-patterns.yaml")
	if err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	if !strings.Contains(stderr, "up to 10000 items / 250 RCU") {
		t.Errorf("no cost announced: %q", stderr)
	}
	var o tryJSON
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	dynamotest.AddGSI(t, api, table, "Tried", "status", "date", types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"total"}})
	var held []map[string]types.AttributeValue
	in := &dynamodb.ScanInput{TableName: aws.String(table), IndexName: aws.String("Tried")}
	for {
		page, err := api.Scan(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, page.Items...)
		if page.LastEvaluatedKey == nil {
			break
		}
		in.ExclusiveStartKey = page.LastEvaluatedKey
	}
	parts := map[string]int{}
	size := 0
	for _, it := range held {
		parts[itemcodec.KeyString(it["status"])]++
		size += itemcodec.ItemSize(it)
	}
	largest := 0
	for _, n := range parts {
		largest = max(largest, n)
	}
	if !o.Sample.Complete || o.Sample.Items != len(dynamotest.IndexItems()) {
		t.Errorf("sample: %+v", o.Sample)
	}
	if o.Members != len(held) || o.Partitions != len(parts) || o.LargestPartition == nil || o.LargestPartition.Items != largest || o.ProjectedBytes != size {
		t.Errorf("try: %d members in %d partitions, largest %+v, %d bytes; the built index: %d in %d, largest %d, %d bytes",
			o.Members, o.Partitions, o.LargestPartition, o.ProjectedBytes, len(held), len(parts), largest, size)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	d, err := api.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range d.Table.GlobalSecondaryIndexes {
		if aws.ToString(g.IndexName) == "Tried" && g.ItemCount != nil && *g.ItemCount != int64(o.Members) {
			t.Errorf("DescribeTable counts %d items in the built index, try %d", *g.ItemCount, o.Members)
		}
	}
	if len(o.EntityTypes) != 1 || o.EntityTypes[0].Entity != "ORDER" || o.Share != float64(int(float64(o.Members)/float64(o.Sample.Items)*1000+0.5))/1000 {
		t.Errorf("entity types %+v, share %v", o.EntityTypes, o.Share)
	}
	if o.WriteCost.ExtraWCUPerWrite != 1 || o.WriteCost.MaxWCUPerWrite != 1 || o.ViolationCount != 0 {
		t.Errorf("write cost %+v, violations %d", o.WriteCost, o.ViolationCount)
	}
	var names []string
	for _, p := range o.Patterns {
		names = append(names, p.Name)
	}
	sort.Strings(names)
	if !slices.Equal(names, []string{"open orders by date", "orders of a status"}) {
		t.Errorf("patterns served: %+v", o.Patterns)
	}
	// Violations: a proposal on LATEPK names the items it would skip.
	out, _, err = cli(t, "index", "try", "--endpoint-url", ep, "--table", table, "--pk-attr", "LATEPK", "--sk-attr", "LATESK", "--output", "json")
	if err != nil {
		t.Fatal(err)
	}
	o = tryJSON{}
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, v := range o.Violations {
		kinds[v.Violation]++
	}
	if o.Members != 1 || o.ViolationCount != 4 || kinds["wrong-type"] != 1 || kinds["empty"] != 1 || kinds["too-long"] != 2 {
		t.Errorf("LATEPK: %d members, violations %+v", o.Members, o.Violations)
	}
}
