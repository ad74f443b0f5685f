package indexes_test

import (
	"context"
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
	"dynascope/indexes"
	"dynascope/itemcodec"
)

// scanAll reads a table or index whole with the SDK.
func scanAll(t *testing.T, api *dynamodb.Client, table, index string) []dynamo.Item {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	in := &dynamodb.ScanInput{TableName: aws.String(table)}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	var items []dynamo.Item
	for {
		out, err := api.Scan(ctx, in)
		if err != nil {
			t.Fatalf("scan %s %s: %v", table, index, err)
		}
		items = append(items, out.Items...)
		if len(out.LastEvaluatedKey) == 0 {
			return items
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

func describe(t *testing.T, table string) dynamo.Table {
	t.Helper()
	c, err := dynamo.Connect(context.Background(), dynamo.Options{Endpoint: dynamotest.Endpoint(t), Region: "us-east-1", NoSchemaCache: true})
	if err != nil {
		t.Fatal(err)
	}
	d, err := c.DescribeTable(context.Background(), table)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func keyOf(it dynamo.Item) string {
	return itemcodec.KeyString(it["PK"]) + " / " + itemcodec.KeyString(it["SK"])
}

// localBackfillKeeps are the violating items DynamoDB Local's backfill
// puts in an added GSI although AWS skips them (AWS's documentation on
// index key violations): a key of another type and an over-long key.
// Local skips only the empty string. Once the index exists it refuses
// writes of all three, as AWS does (TestViolationsAreRefusedOnceIndexed):
// so an item with one predates the index, and Check follows AWS.
var localBackfillKeeps = map[string]bool{"LATE#number": true, "LATE#longpk": true, "LATE#longsk": true}

// Check agrees with DynamoDB Local on every index of a table with a sparse
// KEYS_ONLY GSI, an INCLUDE GSI, an overloaded GSI, an LSI and a GSI added
// after violating items were written: the items it calls members are the
// items the index holds, with the attributes the index returns for them.
func TestCheckAgreesWithDynamoDBLocal(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.IndexedTable(t, api)
	desc := describe(t, table)
	items := scanAll(t, api, table, "")
	if len(desc.Indexes) != 5 {
		t.Fatalf("indexes: %+v", desc.Indexes)
	}
	for _, ix := range desc.Indexes {
		held := map[string][]string{}
		for _, it := range scanAll(t, api, table, ix.Name) {
			names := make([]string, 0, len(it))
			for n := range it {
				names = append(names, n)
			}
			sort.Strings(names)
			held[keyOf(it)] = names
		}
		members := 0
		for _, it := range items {
			m := indexes.Check(desc, ix, it)
			got, in := held[keyOf(it)]
			if in && !m.Member && ix.Name == dynamotest.LateIndex && localBackfillKeeps[itemcodec.KeyString(it["SK"])] {
				delete(held, keyOf(it))
				continue
			}
			if m.Member != in {
				t.Errorf("%s: %s: member %v (why %q), DynamoDB Local says %v", ix.Name, keyOf(it), m.Member, m.Why, in)
				continue
			}
			if !m.Member {
				continue
			}
			members++
			want := slices.Clone(m.Projected)
			sort.Strings(want)
			if !slices.Equal(want, got) {
				t.Errorf("%s: %s: projected %v, the index returns %v", ix.Name, keyOf(it), want, got)
			}
			if len(m.Projected)+len(m.NotProjected) != len(it) {
				t.Errorf("%s: %s: %v + %v is not the item's %d attributes", ix.Name, keyOf(it), m.Projected, m.NotProjected, len(it))
			}
		}
		if members != len(held) || members == 0 {
			t.Errorf("%s: %d members, the index holds %d", ix.Name, members, len(held))
		}
	}
}

// The reasons, one per rule: absent (a sparse index, no violation), and the
// three violations of items written before the index, said so.
func TestWhyNotInIndex(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.IndexedTable(t, api)
	desc := describe(t, table)
	late, _ := desc.IndexByName(dynamotest.LateIndex)
	sparse, _ := desc.IndexByName(dynamotest.SparseIndex)
	local, _ := desc.IndexByName(dynamotest.LocalIndex)
	bySK := map[string]dynamo.Item{}
	for _, it := range scanAll(t, api, table, "") {
		bySK[itemcodec.KeyString(it["SK"])] = it
	}
	cases := []struct {
		ix        dynamo.Index
		sk        string
		violation indexes.Violation
		why       string
	}{
		{sparse, "PROFILE", indexes.NoViolation, "GSI1PK is absent"},
		{local, "PROFILE", indexes.NoViolation, "date is absent"},
		{late, "LATE#number", indexes.WrongType, "LATEPK is a number (N), the index declares a string (S); the item was written before the index was created"},
		{late, "LATE#empty", indexes.EmptyString, "LATEPK is an empty string; the item was written before the index was created"},
		{late, "LATE#longpk", indexes.TooLong, "LATEPK is 2049 bytes, longer than the 2048 bytes an index partition key may be; the item was written before"},
		{late, "LATE#longsk", indexes.TooLong, "LATESK is 1025 bytes, longer than the 1024 bytes an index sort key may be; the item was written before"},
	}
	for _, c := range cases {
		it, ok := bySK[c.sk]
		if !ok {
			t.Fatalf("no item %s", c.sk)
		}
		m := indexes.Check(desc, c.ix, it)
		if m.Member || m.Violation != c.violation || !strings.HasPrefix(m.Why, c.why) {
			t.Errorf("%s in %s: member %v, violation %q, why %q; want %q, %q", c.sk, c.ix.Name, m.Member, m.Violation, m.Why, c.violation, c.why)
		}
		if m.Member || m.Keys != nil || m.Projected != nil {
			t.Errorf("%s in %s: a non-member has keys %v and projection %v", c.sk, c.ix.Name, m.Keys, m.Projected)
		}
	}
	ok := indexes.Check(desc, late, bySK["LATE#ok"])
	if !ok.Member || len(ok.Keys) != 2 || ok.Keys[0].Name != "LATEPK" || itemcodec.KeyString(ok.Keys[1].Value) != "x" {
		t.Errorf("LATE#ok: %+v", ok)
	}
}

// Without a network: the type checks cover every type, and a binary key's
// length counts raw bytes.
func TestCheckTypesAndBinary(t *testing.T) {
	t.Parallel()
	tbl := dynamo.Table{Name: "T", PK: dynamo.KeyAttr{Name: "PK", Type: "S"}}
	ix := dynamo.Index{Name: "B", Kind: dynamo.GSI, PK: dynamo.KeyAttr{Name: "bk", Type: "B"}, Projection: "KEYS_ONLY"}
	tbl.Indexes = []dynamo.Index{ix}
	for _, c := range []struct {
		av   types.AttributeValue
		want indexes.Violation
	}{
		{&types.AttributeValueMemberB{Value: make([]byte, 2048)}, indexes.NoViolation},
		{&types.AttributeValueMemberB{Value: make([]byte, 2049)}, indexes.TooLong},
		{&types.AttributeValueMemberB{Value: []byte{}}, indexes.EmptyString},
		{&types.AttributeValueMemberS{Value: "x"}, indexes.WrongType},
		{&types.AttributeValueMemberNULL{Value: true}, indexes.WrongType},
		{&types.AttributeValueMemberSS{Value: []string{"a"}}, indexes.WrongType},
	} {
		it := dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "p"}, "bk": c.av, "x": &types.AttributeValueMemberS{Value: "y"}}
		ms := indexes.Of(tbl, it)
		if len(ms) != 1 || ms[0].Violation != c.want || ms[0].Member != (c.want == indexes.NoViolation) {
			t.Errorf("%T: %+v, want %q", c.av, ms, c.want)
		}
		if ms[0].Member && (!slices.Equal(ms[0].Projected, []string{"PK", "bk"}) || !slices.Equal(ms[0].NotProjected, []string{"x"})) {
			t.Errorf("projection of a KEYS_ONLY member: %v / %v", ms[0].Projected, ms[0].NotProjected)
		}
	}
}

// Once the index exists, DynamoDB refuses to write an item with any of
// the violations: an item that has one was written before the index.
func TestViolationsAreRefusedOnceIndexed(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.IndexedTable(t, api)
	str := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	for _, c := range []struct{ pk, sk types.AttributeValue }{
		{&types.AttributeValueMemberN{Value: "7"}, str("x")},
		{str(""), str("x")},
		{str(strings.Repeat("p", indexes.MaxPartitionKeyBytes+1)), str("x")},
		{str("L#1"), str(strings.Repeat("k", indexes.MaxSortKeyBytes+1))},
	} {
		_, err := api.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: dynamo.Item{
			"PK": str("NEW"), "SK": str("NEW"), "LATEPK": c.pk, "LATESK": c.sk}})
		if err == nil || !strings.Contains(err.Error(), "ValidationException") {
			t.Errorf("a write of LATEPK %v, LATESK of %d bytes: %v, want a ValidationException", c.pk, len(itemcodec.KeyString(c.sk)), err)
		}
	}
	// And the limits are exact: at them the write goes through.
	_, err := api.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(table), Item: dynamo.Item{
		"PK": str("NEW"), "SK": str("NEW"), "LATEPK": str(strings.Repeat("p", indexes.MaxPartitionKeyBytes)), "LATESK": str(strings.Repeat("k", indexes.MaxSortKeyBytes))}})
	if err != nil {
		t.Errorf("keys at the limits: %v", err)
	}
}
