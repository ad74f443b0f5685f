package dynamo_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/keys"
)

// A table keyed by a partition key alone: its partition is its one item,
// found with one request (before: no request and no group, "no items in
// this partition"); a partition key index without sort key holds many,
// counted on --count. Each is named by its partition key's family, as
// layout names it (u of u2, red of red; before: "item").
func TestDiscoverNoSortKey(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamodb.CreateTableInput{
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("team"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("byTeam"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("team"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
		}},
		BillingMode: types.BillingModePayPerRequest,
	})
	for _, id := range []string{"u1", "u2", "u3"} {
		put(t, api, table, dynamo.Item{"id": s(id), "team": s("red")})
	}
	c, _ := connect(t)
	ctx := context.Background()
	d, err := c.Discover(ctx, dynamo.DiscoverInput{Table: table, PK: "u2"})
	want := keys.Group{Entity: "u", Kind: keys.KindValue, Count: 1}
	if err != nil || len(d.Groups) != 1 || d.Groups[0] != want || len(d.Requests) != 1 || d.Partial {
		t.Errorf("table partition: %v %+v, %d requests; want one %+v in 1 request", err, d.Groups, len(d.Requests), want)
	}
	if d, err := c.Discover(ctx, dynamo.DiscoverInput{Table: table, PK: "nobody"}); err != nil || len(d.Groups) != 0 {
		t.Errorf("missing partition: %v %+v; want no groups", err, d.Groups)
	}
	d, err = c.Discover(ctx, dynamo.DiscoverInput{Table: table, Index: "byTeam", PK: "red", Count: true})
	want.Entity, want.Count = "red", 3
	if err != nil || len(d.Groups) != 1 || d.Groups[0] != want {
		t.Errorf("index partition: %v %+v; want one %+v", err, d.Groups, want)
	}
}
