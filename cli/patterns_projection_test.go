package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"dynascope/dynamo/dynamotest"
)

// projectionPatterns reads each index of dynamotest.IndexedTable: the sparse
// KEYS_ONLY GSI, the INCLUDE GSI (total) and the KEYS_ONLY LSI.
const projectionPatterns = `patterns:
  - name: open queue, nothing listed
    index: Sparse
    pk: "WH#1"
  - name: open queue with totals
    index: Sparse
    pk: "WH#1"
    attributes: [total, status, GSI1SK]
  - name: delivered totals
    index: ByStatus
    pk: DELIVERED
    attributes: [total]
  - name: delivered big totals
    index: ByStatus
    pk: DELIVERED
    filter: total > 20
    attributes: [total]
  - name: delivered with a long note
    index: ByStatus
    pk: DELIVERED
    filter: size(note) > 80
  - name: orders by date with totals
    index: ByDate
    pk: "CUST#1"
    attributes: [total]
`

type checkProjectionOut struct {
	Index              string   `json:"index"`
	Kind               string   `json:"kind"`
	Projection         string   `json:"projection"`
	Returns            []string `json:"returns"`
	Needs              []string `json:"needs"`
	FilterReads        []string `json:"filterReads"`
	NotProjected       []string `json:"notProjected"`
	FilterNotProjected []string `json:"filterNotProjected"`
	OneRequest         bool     `json:"oneRequest"`
	Note               string   `json:"note"`
}

// indexQuery sends one Query on an index of the table straight through the
// SDK, with an optional filter or projection, and returns DynamoDB Local's
// answer.
func indexQuery(t *testing.T, api *dynamodb.Client, table, index, pkName, pk, filter, project string) (*dynamodb.QueryOutput, error) {
	t.Helper()
	in := &dynamodb.QueryInput{
		TableName: aws.String(table), IndexName: aws.String(index),
		KeyConditionExpression:    aws.String("#k = :k"),
		ExpressionAttributeNames:  map[string]string{"#k": pkName},
		ExpressionAttributeValues: map[string]types.AttributeValue{":k": &types.AttributeValueMemberS{Value: pk}},
		ReturnConsumedCapacity:    types.ReturnConsumedCapacityTotal,
	}
	if filter != "" {
		in.FilterExpression = aws.String(filter)
		in.ExpressionAttributeNames["#f"] = "note"
	}
	if project != "" {
		in.ProjectionExpression = aws.String(project)
		in.ExpressionAttributeNames["#p"] = "total"
	}
	return api.Query(context.Background(), in)
}

// Issue 26, item 6: patterns check compares each pattern on a KEYS_ONLY or
// INCLUDE index with what the index projects, and each verdict is what
// DynamoDB Local does with the same request.
func TestPatternsCheckProjection(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.IndexedTable(t, api)
	ep := dynamotest.Endpoint(t)
	file := filepath.Join(t.TempDir(), "dynascope.yaml")
	if err := os.WriteFile(file, []byte(projectionPatterns), 0o600); err != nil {
		t.Fatal(err)
	}

	out, _, err := runPatterns(t, "check", "--patterns", file, "--table", table, "--endpoint-url", ep, "--output", "json")
	c := decodeCheck(t, out)
	if len(c.Patterns) != 6 {
		t.Fatalf("check JSON:\n%s", out)
	}
	want := `2 of 6 patterns are not one request: "open queue with totals" (a GetItem per item), "delivered with a long note" (not sent).`
	if err == nil || err.Error() != want {
		t.Errorf("error\n got %v\nwant %s", err, want)
	}
	p := map[string]int{}
	for i, r := range c.Patterns {
		p[r.Name] = i
		if r.Projection == nil {
			t.Fatalf("%s: no projection in %s", r.Name, out)
		}
	}

	// KEYS_ONLY and nothing listed: one request, what it returns is said.
	// DynamoDB Local returns exactly those attributes.
	plain := c.Patterns[p["open queue, nothing listed"]]
	local, err := indexQuery(t, api, table, "Sparse", "GSI1PK", "WH#1", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if !plain.OneRequest || plain.Verdict != "one request" || plain.Projection.Needs != nil ||
		strings.Join(plain.Projection.Returns, ",") != "PK,SK,GSI1PK,GSI1SK" ||
		plain.Projection.Note != "Sparse (KEYS_ONLY) returns PK, SK, GSI1PK, GSI1SK of each item; list what the pattern needs under attributes: to check it." {
		t.Errorf("nothing listed: %+v %+v", plain, plain.Projection)
	}
	for _, it := range local.Items {
		if len(it) != 4 {
			t.Errorf("DynamoDB Local returns %d attributes of a Sparse item, check says 4", len(it))
		}
	}

	// KEYS_ONLY with total and status needed: a GetItem per item, as many
	// as the Query returned; the items DynamoDB Local returns have neither.
	totals := c.Patterns[p["open queue with totals"]]
	if totals.OneRequest || totals.Items != int(local.Count) || local.Count != 2 ||
		totals.Verdict != "a GetItem per item: Sparse does not project total, status" ||
		strings.Join(totals.Projection.NotProjected, ",") != "total,status" ||
		totals.Projection.Note != "Sparse (KEYS_ONLY) does not project total, status: each item would need a GetItem on the base table (2 more requests here), so the pattern is not one request." {
		t.Errorf("GetItem per item: %+v %+v", totals, totals.Projection)
	}
	for _, it := range local.Items {
		if _, ok := it["total"]; ok {
			t.Errorf("DynamoDB Local returned total from Sparse: %v", it)
		}
	}
	if _, err := indexQuery(t, api, table, "Sparse", "GSI1PK", "WH#1", "", "#p"); err == nil {
		t.Error("DynamoDB Local answered a projection of total on Sparse; check says it cannot")
	}

	// INCLUDE total: everything needed is there, with or without a filter
	// on it, and the filter is sent.
	for name, verdict := range map[string]string{"delivered totals": "one request", "delivered big totals": "one request · kept 4 of 6 read (67%), 0.125 RCU per item returned"} {
		r := c.Patterns[p[name]]
		if !r.OneRequest || r.Verdict != verdict || r.Projection.Note != "ByStatus (INCLUDE) projects every attribute the pattern needs." {
			t.Errorf("%s: %+v %+v", name, r, r.Projection)
		}
	}
	if all, big := c.Patterns[p["delivered totals"]], c.Patterns[p["delivered big totals"]]; all.Items != 6 || big.Items == 0 || big.Items >= all.Items {
		t.Errorf("the filter was not applied: %d of %d items", big.Items, all.Items)
	}

	// A filter on note, which ByStatus does not project: not sent, since
	// DynamoDB Local refuses the same Query.
	refused := c.Patterns[p["delivered with a long note"]]
	if refused.OneRequest || refused.Requests != 0 || refused.KeyCondition != `status = "DELIVERED"` ||
		refused.Verdict != "not sent: DynamoDB refuses a filter on note, which ByStatus does not project" ||
		strings.Join(refused.Projection.FilterNotProjected, ",") != "note" {
		t.Errorf("refused: %+v %+v", refused, refused.Projection)
	}
	_, err = indexQuery(t, api, table, "ByStatus", "status", "DELIVERED", "size(#f) > :k", "")
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) || apiErr.ErrorCode() != "ValidationException" || !strings.Contains(apiErr.ErrorMessage(), "does not project") {
		t.Errorf("DynamoDB Local on a filter of note on ByStatus: %v", err)
	}

	// run sends what it is asked to, and says DynamoDB's refusal.
	_, _, err = runPatterns(t, "run", "delivered with a long note", "--patterns", file, "--table", table, "--endpoint-url", ep)
	if err == nil || !strings.Contains(err.Error(), "DynamoDB rejected the request: One or more parameter values were invalid: Secondary index ByStatus does not project one or more filter attributes: [note]") {
		t.Errorf("run of the refused pattern: %v", err)
	}

	// The LSI: still one Query, at extra cost when it asks for total, which
	// DynamoDB Local then fetches from the table.
	lsi := c.Patterns[p["orders by date with totals"]]
	if !lsi.OneRequest || lsi.Verdict != "one request" || lsi.Projection.Kind != "lsi" ||
		!strings.HasPrefix(lsi.Projection.Note, "ByDate (KEYS_ONLY) does not project total: DynamoDB fetches it from the base table for each item") {
		t.Errorf("LSI: %+v %+v", lsi, lsi.Projection)
	}
	keysOnly, err := indexQuery(t, api, table, "ByDate", "PK", "CUST#1", "", "")
	if err != nil {
		t.Fatal(err)
	}
	fetched, err := indexQuery(t, api, table, "ByDate", "PK", "CUST#1", "", "#p")
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToFloat64(fetched.ConsumedCapacity.CapacityUnits) <= aws.ToFloat64(keysOnly.ConsumedCapacity.CapacityUnits) || fetched.Items[0]["total"] == nil {
		t.Errorf("DynamoDB Local: the LSI read with total %v RCU, without %v RCU", aws.ToFloat64(fetched.ConsumedCapacity.CapacityUnits), aws.ToFloat64(keysOnly.ConsumedCapacity.CapacityUnits))
	}
	t.Logf("LSI ByDate, CUST#1 (%d items): %v RCU keys only, %v RCU with total fetched from the table",
		keysOnly.Count, aws.ToFloat64(keysOnly.ConsumedCapacity.CapacityUnits), aws.ToFloat64(fetched.ConsumedCapacity.CapacityUnits))

	// The text says the same under the table.
	text, _, _ := runPatterns(t, "check", "--patterns", file, "--table", table, "--endpoint-url", ep)
	for _, line := range []string{
		"Projections of the indexes read:",
		"  open queue with totals: Sparse (KEYS_ONLY) does not project total, status: each item would need a GetItem on the base table (2 more requests here), so the pattern is not one request.",
		"  delivered with a long note: the filter reads note, which ByStatus (INCLUDE) does not project",
	} {
		if !strings.Contains(text, line) {
			t.Errorf("text lacks %q:\n%s", line, text)
		}
	}
	if strings.Contains(text, "each one request") {
		t.Errorf("text:\n%s", text)
	}
}
