package workbench

import (
	"bytes"
	"context"
	"os"
	"reflect"
	"slices"
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

const shopModel = "../cli/testdata/workbench/shop.json"

func readShop(t *testing.T) WorkbenchModel {
	t.Helper()
	f, err := os.Open(shopModel)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := ParseWorkbench(f)
	if err != nil {
		t.Fatalf("ParseWorkbench(%s): %v", shopModel, err)
	}
	return m
}

// The hand-written fixture: one table, its GSI, three facets and their
// entity prefixes.
func TestParseWorkbenchShop(t *testing.T) {
	m := readShop(t)
	if m.Name != "Shop" || m.Author != "dynascope" || m.Created != "Mar 1, 2025, 09:00 AM" || len(m.Tables) != 1 {
		t.Fatalf("model: %+v", m)
	}
	tb := m.Tables[0]
	want := dynamo.TableSpec{
		Name: "Shop", PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"},
		GSIs: []dynamo.Index{{Name: "GSI1", Kind: dynamo.GSI, PK: dynamo.KeyAttr{Name: "GSI1PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "GSI1SK", Type: "S"}, Projection: "ALL"}},
	}
	if !reflect.DeepEqual(tb.Spec, want) {
		t.Errorf("spec:\n got  %+v\n want %+v", tb.Spec, want)
	}
	if len(tb.Items) != 14 || len(tb.Attributes) != 17 {
		t.Errorf("%d items, %d attributes", len(tb.Items), len(tb.Attributes))
	}
	var got []string
	for _, f := range tb.Facets {
		got = append(got, f.Name+"="+strings.Join(f.Prefixes, ",")+"/"+f.PKAlias+"/"+f.SKAlias)
	}
	wantFacets := []string{
		"Customer=PROFILE/CUST#<customerId>/PROFILE",
		"Order=ORDER#/CUST#<customerId>/ORDER#<date>#<orderId>",
		"OrderLine=ITEM#/ORDER#<orderId>/ITEM#<lineNo>",
	}
	if !slices.Equal(got, wantFacets) {
		t.Errorf("facets:\n got  %q\n want %q", got, wantFacets)
	}
	names := tb.EntityNames()
	if !reflect.DeepEqual(names, map[string]string{"PROFILE": "Customer", "ORDER#": "Order", "ITEM#": "OrderLine"}) {
		t.Errorf("entity names: %v", names)
	}
	// Values keep their types and exact text.
	o := tb.Facets[1].Items[2]
	if itemcodec.KeyString(o["total"]) != "1249.5" || itemcodec.AttributeTypeName(o["shipTo"]) != "M" {
		t.Errorf("order B1207: %s", itemcodec.DynamoJSON(o))
	}
}

// What WriteWorkbench writes reads back as the same model.
func TestWorkbenchRoundTrip(t *testing.T) {
	m := readShop(t)
	var b bytes.Buffer
	if err := WriteWorkbench(&b, m); err != nil {
		t.Fatal(err)
	}
	back, err := ParseWorkbench(&b)
	if err != nil {
		t.Fatalf("reading back: %v\n%s", err, b.String())
	}
	if !reflect.DeepEqual(back, m) {
		t.Errorf("round trip differs:\n got  %+v\n want %+v", back, m)
	}
	// And the file is stable: writing the read-back model gives the same bytes.
	var again bytes.Buffer
	if err := WriteWorkbench(&again, back); err != nil {
		t.Fatal(err)
	}
	var first bytes.Buffer
	_ = WriteWorkbench(&first, m)
	if first.String() != again.String() {
		t.Error("writing is not stable")
	}
}

// Items may sit at table level; an exact copy of a facet's item is kept
// once, undeclared attributes are declared by the writer.
func TestWorkbenchTableLevelData(t *testing.T) {
	src := `{"ModelName": "M", "DataModel": [{
	  "TableName": "Things",
	  "KeyAttributes": {"PartitionKey": {"AttributeName": "id", "AttributeType": "N"}},
	  "NonKeyAttributes": [{"AttributeName": "blob", "AttributeType": "B"}],
	  "TableData": [{"id": {"N": "12345678901234567890123456789012345678"}, "blob": {"B": "AAEC"}}, {"id": {"N": "2"}}],
	  "TableFacets": [{"FacetName": "Thing", "KeyAttributeAlias": {"PartitionKeyAlias": "thingId"},
	    "TableData": [{"id": {"N": "2"}}]}]
	}]}`
	m, err := ParseWorkbench(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	tb := m.Tables[0]
	if tb.Spec.SK != nil || len(tb.Items) != 2 || len(tb.Facets[0].Items) != 1 || tb.Facets[0].Prefixes != nil {
		t.Fatalf("table: %+v", tb)
	}
	if itemcodec.KeyString(tb.Items[0]["id"]) != "12345678901234567890123456789012345678" || !bytes.Equal(tb.Items[0]["blob"].(*types.AttributeValueMemberB).Value, []byte{0, 1, 2}) {
		t.Errorf("item: %s", itemcodec.DynamoJSON(tb.Items[0]))
	}
	var b bytes.Buffer
	if err := WriteWorkbench(&b, m); err != nil {
		t.Fatal(err)
	}
	back, err := ParseWorkbench(&b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Tables[0].Items, tb.Items) || !reflect.DeepEqual(back.Tables[0].Facets[0].Items, tb.Facets[0].Items) {
		t.Errorf("round trip: %+v", back)
	}
	// The writer declares what the items carry and the model did not.
	m.Tables[0].Attributes = nil
	m.Tables[0].Items = append(m.Tables[0].Items, dynamo.Item{"id": demoN("3"), "note": demoS("x"), "gone": &types.AttributeValueMemberNULL{Value: true}})
	b.Reset()
	if err := WriteWorkbench(&b, m); err != nil {
		t.Fatal(err)
	}
	back, err = ParseWorkbench(&b)
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if !reflect.DeepEqual(back.Tables[0].Attributes, []WorkbenchAttribute{{"blob", "B"}, {"note", "S"}, {"gone", "NULL"}}) {
		t.Errorf("declared: %+v", back.Tables[0].Attributes)
	}
}

// Every mistake is refused with a sentence naming where it is.
func TestParseWorkbenchErrors(t *testing.T) {
	base := `{
  "ModelName": "M",
  "ModelMetadata": {"Version": "3.0"},
  "DataModel": [{
    "TableName": "App",
    "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
    "NonKeyAttributes": [{"AttributeName": "total", "AttributeType": "N"}, {"AttributeName": "G", "AttributeType": "S"}],
    "GlobalSecondaryIndexes": [{"IndexName": "GSI1", "KeyAttributes": {"PartitionKey": {"AttributeName": "G", "AttributeType": "S"}}, "Projection": {"ProjectionType": "ALL"}}],
    "TableFacets": [{"FacetName": "Order", "KeyAttributeAlias": {"PartitionKeyAlias": "CUST#id", "SortKeyAlias": "ORDER#id"},
      "NonKeyAttributes": ["total"],
      "TableData": [{"PK": {"S": "CUST#1"}, "SK": {"S": "ORDER#1"}, "total": {"N": "5"}}]}]
  }]
}`
	if _, err := ParseWorkbench(strings.NewReader(base)); err != nil {
		t.Fatalf("base model: %v", err)
	}
	cases := []struct{ old, new, want string }{
		{`"Version": "3.0"`, `"Version": "4.0"`,
			`the model's ModelMetadata: Version is "4.0"; dynascope reads NoSQL Workbench models of version 3.0, 2.0, 1.0.`},
		{`"TableName": "App",`, ``, `table 1 of DataModel: field "TableName" is missing.`},
		{`"TableName": "App"`, `"TableName": "A pp"`, `table 1 of DataModel: TableName "A pp" may hold only letters, digits, '_', '-' and '.'.`},
		{`"AttributeName": "SK", "AttributeType": "S"`, `"AttributeName": "SK", "AttributeType": "BOOL"`,
			`table App, KeyAttributes.SortKey: key attribute SK has AttributeType "BOOL"; a key is S, N or B.`},
		{`"AttributeName": "total", "AttributeType": "N"`, `"AttributeName": "total", "AttributeType": "Number"`,
			`table App, NonKeyAttributes[0]: attribute total has AttributeType "Number"; want one of S, N, B, BOOL, NULL, M, L, SS, NS, BS.`},
		{`{"AttributeName": "G", "AttributeType": "S"}]`, `{"AttributeName": "total", "AttributeType": "S"}]`,
			`table App, NonKeyAttributes[1]: attribute total is declared as both N and S; an attribute name has one type in a model, so rename one of them.`},
		{`{"AttributeName": "G", "AttributeType": "S"}]`, `{"AttributeName": "SK", "AttributeType": "S"}]`,
			`table App, NonKeyAttributes[1]: SK is the table's key attribute; key attributes are declared in KeyAttributes only.`},
		{`"PartitionKey": {"AttributeName": "G", "AttributeType": "S"}}`, `"PartitionKey": {"AttributeName": "H", "AttributeType": "S"}}`,
			`table App, index GSI1: key attribute H is not an attribute of the table; declare it in the table's NonKeyAttributes.`},
		{`"PartitionKey": {"AttributeName": "G", "AttributeType": "S"}}`, `"PartitionKey": {"AttributeName": "G", "AttributeType": "N"}}`,
			`table App, index GSI1: key attribute G has type N here but S in the table.`},
		{`"ProjectionType": "ALL"`, `"ProjectionType": "SOME"`,
			`table App, index GSI1, Projection: ProjectionType is "SOME"; want ALL, KEYS_ONLY or INCLUDE.`},
		{`"FacetName": "Order",`, `"FacetName": "",`, `table App, facet 1: FacetName is empty.`},
		{`"PartitionKeyAlias": "CUST#id", `, ``, `table App, facet Order, KeyAttributeAlias: field "PartitionKeyAlias" is missing.`},
		{`"NonKeyAttributes": ["total"]`, `"NonKeyAttributes": ["totl"]`, `table App, facet Order: NonKeyAttributes names totl, which the table does not declare.`},
		{`"total": {"N": "5"}`, `"total": {"N": "five"}`, `table App, facet Order, TableData item 1: attribute "total": N "five": `},
		{`"total": {"N": "5"}`, `"total": {"S": "5"}`, `table App, facet Order, TableData item 1: attribute total is S but the table declares it N.`},
		{`"total": {"N": "5"}`, `"totl": {"N": "5"}`, `table App, facet Order, TableData item 1: attribute totl is not declared; add it to the table's NonKeyAttributes.`},
		{`"SK": {"S": "ORDER#1"}, `, ``, `table App, facet Order, TableData item 1: the key attribute SK is missing.`},
		{`"TableData": [{"PK"`, `"TableData": [{"PK": {"S": "CUST#1"}, "SK": {"S": "ORDER#1"}, "total": {"N": "6"}}, {"PK"`,
			`table App, facet Order, TableData item 2: another item with the same primary key, different attributes, is facet Order, TableData item 1; keep one.`},
		{`"ORDER#id"},`, `"ORDER#id"}}, {"FacetName": "Order", "KeyAttributeAlias": {"PartitionKeyAlias": "x"}}, {"FacetName": "Z", "KeyAttributeAlias": {"PartitionKeyAlias": "x"},`,
			`table App: facet Order is already a facet of table App; facet names must be unique across the model.`},
		{`"ModelName": "M",`, `"ModelName": "M",,`, `the model is not valid JSON (line 2): invalid character ',' looking for beginning of object key string.`},
	}
	for _, c := range cases {
		src := strings.Replace(base, c.old, c.new, 1)
		if src == base {
			t.Fatalf("case %q does not change the model", c.old)
		}
		_, err := ParseWorkbench(strings.NewReader(src))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s -> %s:\n got  %v\n want %s", c.old, c.new, err, c.want)
		}
		var ue *dynamo.UserError
		if err != nil && !asUserError(err, &ue) {
			t.Errorf("%v is not a UserError", err)
		}
	}
}

func asUserError(err error, ue **dynamo.UserError) bool {
	u, ok := err.(*dynamo.UserError)
	*ue = u
	return ok
}

// The fixture goes into DynamoDB Local as dynamo.EnsureTable and dynamo.Seed load it and
// comes back item for item, the GSI included.
func TestWorkbenchSeedsDynamoDBLocal(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	ctx := testCtx(t)
	tb := readShop(t).Tables[0]
	spec := tb.Spec
	name := seedTable(t, api, spec)
	if _, err := dynamo.Seed(ctx, api, name, tb.Items, dynamo.SeedOptions{}); err != nil {
		t.Fatal(err)
	}
	got, err := dynamo.Describe(ctx, api, name)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Indexes) != 1 || got.Indexes[0].Name != "GSI1" || got.Indexes[0].PK != (dynamo.KeyAttr{Name: "GSI1PK", Type: "S"}) || got.Indexes[0].Projection != "ALL" {
		t.Errorf("indexes: %+v", got.Indexes)
	}
	var scanned []string
	var start map[string]types.AttributeValue
	for {
		out, err := api.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(name), ExclusiveStartKey: start})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			scanned = append(scanned, string(itemcodec.DynamoJSON(it)))
		}
		if out.LastEvaluatedKey == nil {
			break
		}
		start = out.LastEvaluatedKey
	}
	var want []string
	for _, it := range tb.Items {
		want = append(want, string(itemcodec.DynamoJSON(it)))
	}
	slices.Sort(scanned)
	slices.Sort(want)
	if !slices.Equal(scanned, want) {
		t.Errorf("items differ:\n got  %q\n want %q", scanned, want)
	}
	// The sparse index holds the two open orders.
	qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := api.Query(qctx, &dynamodb.QueryInput{
		TableName: aws.String(name), IndexName: aws.String("GSI1"),
		KeyConditionExpression:    aws.String("GSI1PK = :w"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":w": demoS("WH#2")},
	})
	if err != nil || len(out.Items) != 1 || itemcodec.KeyString(out.Items[0]["orderId"]) != "B1311" {
		t.Errorf("GSI1 WH#2: %v %v", err, out)
	}
}

// seedTable creates a uniquely named table from spec through
// dynamo.EnsureTable, as seed --workbench does, and deletes it when the test
// ends.
func seedTable(t *testing.T, api *dynamodb.Client, spec dynamo.TableSpec) string {
	t.Helper()
	spec.Name = dynamotest.UniqueName("workbench")
	dynamotest.DeleteAtEnd(t, api, spec.Name)
	created, err := dynamo.EnsureTable(testCtx(t), api, spec)
	if err != nil || !created {
		t.Fatalf("EnsureTable(%s): created %v, %v; want a new table", spec.Name, created, err)
	}
	return spec.Name
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func demoS(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func demoN(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

// Workbench 2.0 lists an attribute once per facet that uses it: one type
// repeated is one declaration, named once for the caller's note.
func TestParseWorkbenchRepeatedAttributes(t *testing.T) {
	f, err := os.Open("../cli/testdata/workbench/events-2.0.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := ParseWorkbench(f)
	if err != nil {
		t.Fatalf("ParseWorkbench: %v", err)
	}
	if want := []string{"table Events: type, name, end"}; !slices.Equal(m.Repeated, want) {
		t.Errorf("Repeated = %q, want %q", m.Repeated, want)
	}
	var names []string
	for _, a := range m.Tables[0].Attributes {
		names = append(names, a.Name+":"+a.Type)
	}
	if want := []string{"type:S", "name:S", "end:S", "seats:N"}; !slices.Equal(names, want) {
		t.Errorf("Attributes = %q, want %q", names, want)
	}
	if n := len(m.Tables[0].Items); n != 4 {
		t.Errorf("%d items, want 4", n)
	}
}
