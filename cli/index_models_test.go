package cli

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo/dynamotest"
	"dynascope/workbench"
)

// indexCount counts an index's items with the SDK.
func indexCount(t *testing.T, api *dynamodb.Client, table, index string) int {
	t.Helper()
	n := 0
	in := &dynamodb.ScanInput{TableName: aws.String(table), IndexName: aws.String(index), Select: types.SelectCount}
	for {
		p, err := api.Scan(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		n += int(p.Count)
		if p.LastEvaluatedKey == nil {
			return n
		}
		in.ExclusiveStartKey = p.LastEvaluatedKey
	}
}

// layoutIndexMap runs layout --index-map over the whole table.
func layoutIndexMap(t *testing.T, ep, table string) *indexMapJSON {
	t.Helper()
	out, stderr, err := cli(t, "layout", "--endpoint-url", ep, "--table", table, "--index-map", "--max-items", "100000", "--max-rcu", "10000")
	if err != nil {
		t.Fatalf("layout --index-map %s: %v: %s", table, err, stderr)
	}
	var o struct {
		IndexMap *indexMapJSON `json:"indexMap"`
	}
	if err := json.Unmarshal([]byte(out), &o); err != nil || o.IndexMap == nil || !o.IndexMap.Sample.Complete {
		t.Fatalf("%s: %v: %.300s", table, err, out)
	}
	return o.IndexMap
}

// The published models that have GSIs, loaded into DynamoDB Local: the
// index map's members of every index are what DynamoDB Local holds.
func TestIndexMapOfPublishedModels(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(realModels); err != nil {
		t.Skip("../shared/real-models is not beside this clone (from cli/, ../../shared); the published models are not tested.")
	}
	ep := dynamotest.Endpoint(t)
	api := dynamotest.SDK(t)
	for _, f := range []string{
		"aws-dynamodb-examples/ChatSystemSchema.json",
		"aws-dynamodb-examples/ComplaintManagementSchema.json",
		"aws-dynamodb-examples/RecurringPaymentsSchema.json",
		"aws-dynamodb-examples/SessionManagementSchema.json",
		"amazon-dynamodb-design-patterns/AnOnlineShop_14.json",
	} {
		path := filepath.Join(realModels, f)
		m, err := readWorkbench(path, workbench.WorkbenchReadOptions{}, io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		prefix := dynamotest.UniqueName("ix") + "-"
		if _, stderr, err := cli(t, "seed", "--endpoint-url", ep, "--workbench", path, "--table-prefix", prefix); err != nil {
			t.Fatalf("seed %s: %v: %s", f, err, stderr)
		}
		indexes, members := 0, 0
		for _, tb := range m.Tables {
			table := prefix + tb.Spec.Name
			t.Cleanup(func() { deleteTables(table) })
			for _, e := range layoutIndexMap(t, ep, table).Indexes {
				indexes++
				members += e.Members
				if n := indexCount(t, api, table, e.Name); e.Members != n || e.ViolationCount != 0 {
					t.Errorf("%s %s: the map says %d members (%d violations), DynamoDB Local holds %d", f, e.Name, e.Members, e.ViolationCount, n)
				}
			}
		}
		if indexes == 0 || members == 0 {
			t.Errorf("%s: %d indexes mapped, %d members", f, indexes, members)
		}
	}
}

// The demo table: index try of GSI1's own keys over the whole table holds
// what the real GSI1 holds, its members named by the demo's declared
// entities; item on an open order names its GSI1 keys.
func TestIndexTryOnTheDemo(t *testing.T) {
	t.Parallel()
	table, ep := seededDemo(t)
	api := dynamotest.SDK(t)
	out, stderr, err := cli(t, "index", "try", "--endpoint-url", ep, "--table", table, "--pk-attr", "GSI1PK", "--sk-attr", "GSI1SK",
		"--max-items", "100000", "--max-rcu", "10000", "--patterns", "../dynascope.yaml")
	if err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	var o tryJSON
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatal(err)
	}
	n := indexCount(t, api, table, "GSI1")
	// dynascope.yaml declares the demo's entities: the members are named by
	// the declaration their table keys match (39.3), not by inference.
	if !o.Sample.Complete || o.Members != n || o.Partitions == 0 || len(o.EntityTypes) != 1 || o.EntityTypes[0].Entity != "Order" ||
		o.EntityTypes[0].Declared == nil || !*o.EntityTypes[0].Declared {
		t.Errorf("try: %+v; GSI1 holds %d", o, n)
	}
	found := false
	for _, p := range o.Patterns {
		found = found || p.Name == "open orders for a warehouse" && p.ServedBy != nil && *p.ServedBy == "GSI1"
	}
	if !found {
		t.Errorf("the demo's warehouse pattern is not among those served: %+v", o.Patterns)
	}
}
