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

// layout --index-map on the indexed table: each index's members are what
// DynamoDB Local holds (the added index Late aside: Local's backfill keeps
// the items AWS skips, see indexes' TestCheckAgreesWithDynamoDBLocal), the
// sparse index is sparse, the overloaded one holds two entity types, and
// Late's four violations are named.
func TestLayoutIndexMap(t *testing.T) {
	t.Parallel()
	ep := dynamotest.Endpoint(t)
	api := dynamotest.SDK(t)
	table := dynamotest.IndexedTable(t, api)
	out, stderr, err := cli(t, "layout", "--endpoint-url", ep, "--table", table, "--index-map")
	if err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	if !strings.Contains(stderr, "index map of table "+table+": up to 10000 items / 250 RCU") {
		t.Errorf("the map's Scan was not announced: %q", stderr)
	}
	var o struct {
		IndexMap *indexMapJSON `json:"indexMap"`
	}
	if err := json.Unmarshal([]byte(out), &o); err != nil || o.IndexMap == nil {
		t.Fatalf("%v: %s", err, out)
	}
	m := o.IndexMap
	if !m.Sample.Complete || m.Sample.Items != len(dynamotest.IndexItems()) || len(m.Indexes) != 5 {
		t.Fatalf("%+v", m)
	}
	count := func(index string) int {
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
	for _, e := range m.Indexes {
		if e.Name == dynamotest.LateIndex {
			if e.Members != 1 || e.ViolationCount != 4 || len(e.Violations) != 4 {
				t.Errorf("Late: %+v", e)
			}
			continue
		}
		if n := count(e.Name); e.Members != n || !e.Sparse || e.ViolationCount != 0 {
			t.Errorf("%s: %d members (sparse %v, %d violations), DynamoDB Local holds %d", e.Name, e.Members, e.Sparse, e.ViolationCount, n)
		}
		switch e.Name {
		case dynamotest.OverloadedIndex:
			if !e.Overloaded || len(e.EntityTypes) != 2 || e.Projected[0] != "*" {
				t.Errorf("overloaded: %+v", e)
			}
		case dynamotest.SparseIndex:
			if e.Overloaded || e.Partitions != 2 || e.LargestPartition == nil || e.LargestPartition.Items != 2 || strings.Join(e.Projected, ",") != "PK,SK,GSI1PK,GSI1SK" {
				t.Errorf("sparse: %+v", e)
			}
		case dynamotest.IncludeIndex:
			if strings.Join(e.Projected, ",") != "PK,SK,status,total" || e.Partitions != 3 {
				t.Errorf("include: %+v", e)
			}
		}
	}
	out, _, err = cli(t, "layout", "--endpoint-url", ep, "--table", table, "--index-map", "--output", "table")
	if err != nil || !strings.Contains(out, "INDEX MAP") || !strings.Contains(out, "LATEPK is an empty string") {
		t.Errorf("%v: %s", err, out)
	}
	if _, _, err := cli(t, "layout", "--endpoint-url", ep, "--table", table, "--index-map", "--index", "Sparse"); err == nil {
		t.Error("--index-map with --index went through")
	}
}
