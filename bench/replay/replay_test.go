package replay

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo/dynamotest"
)

// pageItems is how many of the test's 40 KB items fill more than two of
// DynamoDB's 1 MB pages: a recording of several pages.
const pageItems = 60

// filled is a table of DynamoDB Local holding pageItems items of 40 KB in
// the partition P, and one other item elsewhere.
func filled(t *testing.T) string {
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	big := strings.Repeat("x", 40<<10)
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	var reqs []types.WriteRequest
	for i := range pageItems + 1 {
		pk := "P"
		if i == pageItems {
			pk = "OTHER"
		}
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{
			"PK": s(pk), "SK": s(fmt.Sprintf("K#%03d", i)), "pad": s(big)}}})
	}
	for len(reqs) > 0 {
		n := min(len(reqs), 20)
		out, err := api.BatchWriteItem(context.Background(), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: reqs[:n]}})
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs[n:], out.UnprocessedItems[table]...)
	}
	return table
}

// read reads the replay to its end with the bare SDK and returns the sort
// keys it got, in order, and the pages.
func read(t *testing.T, srv *Server, table, op string) (keys []string, pages int) {
	t.Helper()
	api := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL), RetryMaxAttempts: 1,
		Credentials: credentials.NewStaticCredentialsProvider("local", "local", "")})
	ctx := context.Background()
	take := func(items []map[string]types.AttributeValue) {
		for _, it := range items {
			keys = append(keys, it["SK"].(*types.AttributeValueMemberS).Value)
		}
		pages++
	}
	switch op {
	case "Query":
		p := dynamodb.NewQueryPaginator(api, &dynamodb.QueryInput{TableName: aws.String(table), KeyConditionExpression: aws.String("PK = :p"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "P"}}})
		for p.HasMorePages() {
			out, err := p.NextPage(ctx)
			if err != nil {
				t.Fatalf("page %d: %v", pages, err)
			}
			take(out.Items)
		}
	case "ExecuteStatement":
		in := &dynamodb.ExecuteStatementInput{Statement: aws.String("SELECT * FROM x")}
		for {
			out, err := api.ExecuteStatement(ctx, in)
			if err != nil {
				t.Fatalf("page %d: %v", pages, err)
			}
			take(out.Items)
			if out.NextToken == nil {
				break
			}
			in.NextToken = out.NextToken
		}
	}
	return keys, pages
}

// A replay serves the engine's own pages, in order, and a replay of laps
// laps serves every item laps times under new sort keys, still in order,
// chained from lap to lap; its DescribeTable counts laps times the items.
func TestReplayServesTheRecordingInLaps(t *testing.T) {
	table := filled(t)
	ctx := context.Background()
	stmt := fmt.Sprintf(`SELECT * FROM "%s" WHERE PK = 'P'`, table)
	for _, op := range []string{"Query", "ExecuteStatement"} {
		rec, err := Record(ctx, dynamotest.Endpoint(t), table, op, "P", stmt)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Items != pageItems || len(rec.Pages) < 3 {
			t.Fatalf("%s: recorded %d items in %d pages, want %d in 3 or more", op, rec.Items, len(rec.Pages), pageItems)
		}
		for _, laps := range []int{1, 3} {
			srv, err := Serve(rec, laps)
			if err != nil {
				t.Fatal(err)
			}
			keys, pages := read(t, srv, table, op)
			if op == "Query" {
				d, err := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL),
					Credentials: credentials.NewStaticCredentialsProvider("local", "local", "")}).DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
				if err != nil {
					t.Fatal(err)
				}
				if got := aws.ToInt64(d.Table.ItemCount); got != int64((pageItems+1)*laps) {
					t.Errorf("laps %d: DescribeTable counts %d items, want %d", laps, got, (pageItems+1)*laps)
				}
			}
			srv.Close()
			if len(keys) != pageItems*laps || pages != len(rec.Pages)*laps || srv.Items() != len(keys) {
				t.Fatalf("%s, %d laps: %d items in %d pages (Items says %d)", op, laps, len(keys), pages, srv.Items())
			}
			for i, k := range keys {
				want := fmt.Sprintf("K#%03d", i%pageItems)
				if laps > 1 {
					want = fmt.Sprintf("%02d/%s", i/pageItems, want)
				}
				if k != want {
					t.Fatalf("%s, %d laps: item %d has sort key %q, want %q", op, laps, i, k, want)
				}
			}
		}
	}
}
