package dynamotest

// A table whose indexes cover every way an item can be in or out of one:
// a sparse KEYS_ONLY GSI, an INCLUDE GSI, an overloaded GSI, an LSI, and a
// GSI added after items that violate its keys were written.

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The indexes of IndexedTable.
const (
	SparseIndex     = "Sparse"     // KEYS_ONLY on GSI1PK/GSI1SK: open orders only
	IncludeIndex    = "ByStatus"   // INCLUDE total, on status/SK
	OverloadedIndex = "Overloaded" // ALL on GSI2PK/GSI2SK: customers by email, orders by id
	LocalIndex      = "ByDate"     // LSI KEYS_ONLY on date
	LateIndex       = "Late"       // ALL on LATEPK/LATESK, added by UpdateTable after the items
)

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

func gsi(name, pk, sk string, p types.Projection) types.GlobalSecondaryIndex {
	return types.GlobalSecondaryIndex{
		IndexName: aws.String(name),
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange},
		},
		Projection: &p,
	}
}

func sdef(names ...string) []types.AttributeDefinition {
	var out []types.AttributeDefinition
	for _, n := range names {
		out = append(out, types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS})
	}
	return out
}

// IndexItems are the items IndexedTable writes before LateIndex exists: the
// last five carry LATEPK/LATESK, four of them with an index key violation
// (a number, an empty string, a 2,049-byte partition key, a 1,025-byte
// sort key), one valid.
func IndexItems() []map[string]types.AttributeValue {
	var items []map[string]types.AttributeValue
	for c := 1; c <= 3; c++ {
		cust := fmt.Sprintf("CUST#%d", c)
		items = append(items, map[string]types.AttributeValue{
			"PK": s(cust), "SK": s("PROFILE"), "name": s(fmt.Sprintf("Customer %d", c)),
			"GSI2PK": s(fmt.Sprintf("EMAIL#c%d@example.com", c)), "GSI2SK": s(cust),
		})
		for o := 1; o <= 4; o++ {
			id := fmt.Sprintf("A%d%d", c, o)
			date := fmt.Sprintf("2025-0%d-0%d", o, c)
			status := []string{"OPEN", "DELIVERED", "DELIVERED", "CANCELLED"}[o-1]
			it := map[string]types.AttributeValue{
				"PK": s(cust), "SK": s("ORDER#" + date + "#" + id), "status": s(status),
				"total": &types.AttributeValueMemberN{Value: fmt.Sprintf("%d.5", c*10+o)}, "note": s(strings.Repeat("x", 40*o)),
				"GSI2PK": s("ORDER#" + id), "GSI2SK": s(cust),
			}
			if status == "OPEN" {
				it["GSI1PK"], it["GSI1SK"] = s(fmt.Sprintf("WH#%d", c%2)), s("OPEN#"+date+"#"+id)
			}
			if o != 4 {
				it["date"] = s(date)
			}
			items = append(items, it)
		}
	}
	late := []struct{ sk, pk, lsk types.AttributeValue }{
		{s("LATE#number"), &types.AttributeValueMemberN{Value: "7"}, s("x")},
		{s("LATE#empty"), s(""), s("x")},
		{s("LATE#longpk"), s(strings.Repeat("p", 2049)), s("x")},
		{s("LATE#longsk"), s("L#1"), s(strings.Repeat("k", 1025))},
		{s("LATE#ok"), s("L#1"), s("x")},
	}
	for _, l := range late {
		items = append(items, map[string]types.AttributeValue{"PK": s("CUST#9"), "SK": l.sk, "LATEPK": l.pk, "LATESK": l.lsk})
	}
	return items
}

// IndexedTable creates the table, writes IndexItems, then adds LateIndex
// with UpdateTable and waits until DynamoDB Local has built it. The table
// is deleted when the test ends.
func IndexedTable(t testing.TB, api *dynamodb.Client) string {
	t.Helper()
	in := PKSK()
	in.AttributeDefinitions = append(in.AttributeDefinitions, sdef("GSI1PK", "GSI1SK", "status", "GSI2PK", "GSI2SK", "date")...)
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{
		gsi(SparseIndex, "GSI1PK", "GSI1SK", types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}),
		gsi(IncludeIndex, "status", "SK", types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"total"}}),
		gsi(OverloadedIndex, "GSI2PK", "GSI2SK", types.Projection{ProjectionType: types.ProjectionTypeAll}),
	}
	in.LocalSecondaryIndexes = []types.LocalSecondaryIndex{{
		IndexName: aws.String(LocalIndex),
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("date"), KeyType: types.KeyTypeRange},
		},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
	}}
	name := Table(t, api, in)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, it := range IndexItems() {
		if _, err := api.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: it}); err != nil {
			t.Fatalf("put %v: %v", it["SK"], err)
		}
	}
	AddGSI(t, api, name, LateIndex, "LATEPK", "LATESK", types.Projection{ProjectionType: types.ProjectionTypeAll})
	return name
}

// AddGSI adds a global secondary index of string keys (sk "" for none) to
// a table and waits until it is ACTIVE.
func AddGSI(t testing.TB, api *dynamodb.Client, table, index, pk, sk string, p types.Projection) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ks := []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}}
	defs := sdef(pk)
	if sk != "" {
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange})
		defs = append(defs, sdef(sk)...)
	}
	_, err := api.UpdateTable(ctx, &dynamodb.UpdateTableInput{
		TableName:            aws.String(table),
		AttributeDefinitions: defs,
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{{Create: &types.CreateGlobalSecondaryIndexAction{
			IndexName: aws.String(index), KeySchema: ks, Projection: &p,
		}}},
	})
	if err != nil {
		t.Fatalf("add index %s to %s: %v", index, table, err)
	}
	for {
		d, err := api.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
		if err != nil {
			t.Fatalf("describe %s: %v", table, err)
		}
		for _, g := range d.Table.GlobalSecondaryIndexes {
			if aws.ToString(g.IndexName) == index && g.IndexStatus == types.IndexStatusActive {
				return
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("index %s of %s did not become ACTIVE: %v", index, table, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}
