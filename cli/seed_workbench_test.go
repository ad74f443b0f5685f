package cli

import (
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
	"dynascope/workbench"
)

const shopModel = "testdata/workbench/shop.json"

func readShopModel(t *testing.T) workbench.WorkbenchModel {
	t.Helper()
	m, err := readWorkbench(shopModel, workbench.WorkbenchReadOptions{}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// seedShop loads the fixture through `seed --workbench` under a unique
// prefix and returns the created table's name.
func seedShop(t *testing.T, ep string) (table, out string) {
	t.Helper()
	prefix := dynamotest.UniqueName("wb") + "-"
	table = prefix + "Shop"
	t.Cleanup(func() { deleteTables(table) })
	out, _, err := cli(t, "seed", "--endpoint-url", ep, "--workbench", shopModel, "--table-prefix", prefix)
	if err != nil {
		t.Fatalf("seed --workbench: %v", err)
	}
	return table, out
}

// The "done when": the hand-written model with three facets and a
// GSI goes into DynamoDB Local and every partition reads back exactly.
func TestSeedWorkbench(t *testing.T) {
	t.Parallel()
	ep := dynamotest.Endpoint(t)
	table, out := seedShop(t, ep)
	if !strings.HasPrefix(out, "created table and loaded "+table+": 14 items") ||
		!strings.Contains(out, "facets: Customer (PROFILE), Order (ORDER#), OrderLine (ITEM#)") {
		t.Errorf("seed output:\n%s", out)
	}
	tb := readShopModel(t).Tables[0]
	want := map[string][]string{}
	for _, it := range tb.Items {
		pk := itemcodec.KeyString(it["PK"])
		want[pk] = append(want[pk], string(itemcodec.DynamoJSON(it)))
	}
	for pk, items := range want {
		out, _, err := cli(t, "query", "--endpoint-url", ep, "--table", table, "--pk", pk, "--output", "jsonl", "--dynamodb-json")
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		slices.Sort(got)
		slices.Sort(items)
		if !slices.Equal(got, items) {
			t.Errorf("partition %s:\n got  %q\n want %q", pk, got, items)
		}
	}
	// The GSI is there and sparse: only open orders.
	out, _, err := cli(t, "query", "--endpoint-url", ep, "--table", table, "--index", "GSI1", "--pk", "WH#1", "--output", "jsonl")
	if err != nil || !strings.Contains(out, `"orderId":"A17"`) || strings.Count(out, "\n") != 1 {
		t.Errorf("GSI1 WH#1: %v\n%s", err, out)
	}
	// Loading again is refused like any seed into a table with items.
	prefix := strings.TrimSuffix(table, "Shop")
	_, _, err = cli(t, "seed", "--endpoint-url", ep, "--workbench", shopModel, "--table-prefix", prefix)
	if err == nil || !strings.Contains(err.Error(), "already holds items") {
		t.Errorf("second seed: %v", err)
	}
}

func TestSeedWorkbenchErrors(t *testing.T) {
	t.Parallel()
	bad := t.TempDir() + "/bad.json"
	if err := os.WriteFile(bad, []byte(`{"ModelName": "M", "DataModel": [{"TableName": "App", "KeyAttributes": {}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args  []string
		want  string
		usage bool
	}{
		{[]string{"seed", "--table", "App"}, "seed needs exactly one source: --demo, --file F.jsonl or --workbench MODEL.json.", true},
		{[]string{"seed", "--demo", "--workbench", shopModel}, "seed needs exactly one source: --demo, --file F.jsonl or --workbench MODEL.json.", true},
		{[]string{"seed", "--demo", "--table-prefix", "x"}, "--table-prefix goes with --workbench or --file; with --demo, name the table with --table.", true},
		{[]string{"seed", "--workbench", shopModel, "--table", "Nope"}, "model Shop has no table Nope; it has Shop.", true},
		{[]string{"seed", "--workbench", bad}, bad + `: table App, KeyAttributes: field "PartitionKey" is missing.`, false},
		{[]string{"seed", "--workbench", "/no/such/model.json"}, "cannot read /no/such/model.json: open /no/such/model.json: no such file or directory", false},
		{[]string{"demo", "--workbench", bad}, bad + `: table App, KeyAttributes: field "PartitionKey" is missing.`, false},
	}
	for _, c := range cases {
		_, _, err := cli(t, c.args...)
		if err == nil || err.Error() != c.want {
			t.Errorf("%v:\n got  %v\n want %s", c.args, err, c.want)
		}
		if _, ok := err.(usageError); ok != c.usage {
			t.Errorf("%v: usage error %v, want %v", c.args, ok, c.usage)
		}
	}
}

// The partition demo --workbench opens on: the first facet's first item.
func TestWorkbenchPartition(t *testing.T) {
	tb := readShopModel(t).Tables[0]
	if got := workbenchPartition(tb); got != "CUST#42" {
		t.Errorf("got %q", got)
	}
	if got := workbenchPartition(workbench.WorkbenchTable{}); got != "" {
		t.Errorf("empty table: %q", got)
	}
}

// A Workbench 2.0 model that lists an attribute once per entity loads,
// with one note line naming the repeated attributes.
func TestSeedWorkbenchRepeatedAttributes(t *testing.T) {
	t.Parallel()
	ep := dynamotest.Endpoint(t)
	prefix := dynamotest.UniqueName("wb2") + "-"
	t.Cleanup(func() { deleteTables(prefix + "Events") })
	out, errOut, err := cli(t, "seed", "--endpoint-url", ep, "--workbench", "testdata/workbench/events-2.0.json", "--table-prefix", prefix)
	if err != nil {
		t.Fatal(err)
	}
	note := "note: testdata/workbench/events-2.0.json: attributes declared more than once with one type, read as one: table Events: type, name, end.\n"
	if errOut != note {
		t.Errorf("stderr:\n%s\nwant:\n%s", errOut, note)
	}
	if !strings.Contains(out, "4 items") || countItems(t, prefix+"Events") != 4 {
		t.Errorf("stdout:\n%s", out)
	}
}
