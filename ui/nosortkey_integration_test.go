package ui

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// A table keyed by a partition key alone: the partition's one item shows,
// and e and r, which have no sort key to work on, neither open an editor
// nor send a request; the status line says why. Before, e opened a
// sort-key editor that refused only after enter, and r sent a query.
func TestUINoSortKeyTable(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	api := dynamotest.SDK(t)
	table := idOnlyTable(t, api)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := api.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table),
		Item: map[string]types.AttributeValue{"id": s("user-7"), "name": s("Ada")}}); err != nil {
		t.Fatal(err)
	}
	client, seen, tap := localClient(t, ep)
	hs := newHarnessOn(t, Options{Store: client, Table: table, PK: "user-7", Region: "us-east-1", Endpoint: tap.URL, ConfigDir: t.TempDir()}, 120, 35)
	hs.contains("Ada", "1 loaded")
	before := len(seen())
	for _, k := range []string{"e", "r"} {
		hs.keys(k)
		if md := hs.m.mode(); md != modeGroups && md != modeItems {
			t.Fatalf("%s opened mode %v; want the panes", k, md)
		}
		hs.contains("table " + table + " has no sort key: e and r are off.")
	}
	if n := len(seen()); n != before {
		t.Errorf("e and r sent %d requests; want none", n-before)
	}
}

// The CLI and the UI name a partition-key-only item alike (issue 37.12):
// `groups` (the client's Discover) and the types pane beside the item say
// the partition key's family, as the README says (user for user42, CUST for
// CUST#42). Before, groups said "item" and the pane showed no type.
func TestUINoSortKeyTypeNamedAsGroups(t *testing.T) {
	ep := dynamotest.Endpoint(t)
	api := dynamotest.SDK(t)
	table := idOnlyTable(t, api)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client, _, tap := localClient(t, ep)
	for pk, want := range map[string]string{"user42": "user", "CUST#42": "CUST"} {
		if _, err := api.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table),
			Item: map[string]types.AttributeValue{"id": s(pk), "name": s("Ada")}}); err != nil {
			t.Fatal(err)
		}
		d, err := client.Discover(ctx, dynamo.DiscoverInput{Table: table, PK: pk})
		if err != nil || len(d.Groups) != 1 || d.Groups[0].Entity != want {
			t.Fatalf("groups on %s: %v %+v; want one %q", pk, err, d.Groups, want)
		}
		hs := newHarnessOn(t, Options{Store: client, Table: table, PK: pk, Region: "us-east-1", Endpoint: tap.URL, ConfigDir: t.TempDir()}, 120, 35)
		hs.contains("1 loaded")
		if rows := hs.m.groups.types(); len(rows) != 1 || rows[0].Entity != want {
			t.Errorf("the types pane of %s: %+v; want one %q as groups says", pk, rows, want)
		}
		hs.contains(want+" ", "no sort key")
	}
}

// idOnlyTable is a throw-away table keyed by the string "id" alone.
func idOnlyTable(t *testing.T, api *dynamodb.Client) string {
	return dynamotest.Table(t, api, dynamodb.CreateTableInput{
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
}
