package dynamo_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/itemcodec"
	"dynascope/keys"
)

// sameTypes tells whether a skip-scan's groups are a full read's (or
// another walk's): the same names, prefixes and kinds in the same order,
// every end both read the same, at least one end of each type read, and
// both of each value group and exact type (a value group's BETWEEN and its
// name need them). A prefix type's end the walk did not land on is "":
// read only where it is free (Discover).
func sameTypes(got, want []keys.Group) bool {
	if len(got) != len(want) {
		return false
	}
	for i, g := range got {
		w := want[i]
		if g.Entity != w.Entity || g.Prefix != w.Prefix || g.Kind != w.Kind || g.Exact != w.Exact || g.Count != w.Count || g.Bare != w.Bare ||
			g.First != "" && w.First != "" && g.First != w.First || g.Last != "" && w.Last != "" && g.Last != w.Last ||
			g.First == "" && g.Last == "" || (g.Kind == keys.KindValue || g.Exact) && (g.First == "" || g.Last == "") {
			return false
		}
	}
	return true
}

// fullRead reads a whole partition page by page and groups it: what skip-scan
// must reproduce without reading it all.
func fullRead(t *testing.T, c *dynamo.Client, table, index, pk, skName, delim string, reverse bool) []keys.Group {
	t.Helper()
	q := dynamo.QueryInput{Table: table, Index: index, PK: pk, Reverse: reverse}
	var sks []string
	keyType := "S"
	for {
		p, err := c.Query(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range p.Items {
			sks = append(sks, itemcodec.KeyString(it[skName]))
			if _, ok := it[skName].(*types.AttributeValueMemberN); ok {
				keyType = "N"
			}
		}
		if p.LastEvaluatedKey == nil {
			break
		}
		q.StartKey = p.LastEvaluatedKey
	}
	return keys.GroupSortKeys(sks, keyType, delim)
}

func TestDiscoverMatchesFullRead(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	var sks []string
	// Prefixes that are prefixes of each other, exact types next to prefix
	// types of the same name, multi-byte text, and a large type.
	sks = append(sks, "ORDER", "ORDER#", "ORDERS#1", "ORDER$", "PROFILE", "PROFILE#1", "PROFILEX", "Ä#1", "Ä#2", "日本#1", "a", "z#")
	for i := range 120 {
		sks = append(sks, fmt.Sprintf("ORDER#2025-%03d", i))
	}
	for _, sk := range sks {
		put(t, api, table, dynamo.Item{"PK": s("P"), "SK": s(sk)})
	}
	c, _ := connect(t)
	for _, reverse := range []bool{false, true} {
		want := fullRead(t, c, table, "", "P", "SK", "#", reverse)
		for i := range want {
			want[i].Count = -1
		}
		d, err := c.Discover(context.Background(), dynamo.DiscoverInput{Table: table, PK: "P", Reverse: reverse})
		if err != nil {
			t.Fatal(err)
		}
		if !sameTypes(d.Groups, want) {
			t.Errorf("reverse=%v:\n skip-scan %+v\n full read %+v", reverse, d.Groups, want)
		}
		// The first page, one jump per type past it, one more for the value
		// group's far end, and where the walk's halves meet at most two that
		// find no new type: far fewer than the 132 items.
		if len(d.Requests) > len(want)+3 {
			t.Errorf("reverse=%v: %d requests for %d types", reverse, len(d.Requests), len(want))
		}
	}

	// Counting reads every item of each type and agrees with the full read.
	want := fullRead(t, c, table, "", "P", "SK", "#", false)
	d, err := c.Discover(context.Background(), dynamo.DiscoverInput{Table: table, PK: "P", Count: true})
	if err != nil {
		t.Fatal(err)
	}
	if !sameTypes(d.Groups, want) {
		t.Errorf("counted:\n skip-scan %+v\n full read %+v", d.Groups, want)
	}
	var sum float64
	for _, r := range d.Requests {
		sum += r.Capacity.Total
	}
	if d.Capacity().Total != sum || sum == 0 {
		t.Errorf("capacity %v, sum of requests %v", d.Capacity().Total, sum)
	}
}

// The pattern's example partition is one page: grouped from that page, one
// Query, with or without counts, its figures DynamoDB Local's own.
func TestDiscoverPatternExample(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	put(t, api, table,
		dynamo.Item{"PK": s("CUST#42"), "SK": s("PROFILE"), "name": s("Ann")},
		dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#2025-01-09#A11"), "total": n("20")},
		dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17"), "total": n("35")},
	)
	c, tap, _, _ := tapped(t, table)
	for _, count := range []bool{false, true} {
		before := len(tap.Exchanges("Query"))
		d, err := c.Discover(context.Background(), dynamo.DiscoverInput{Table: table, PK: "CUST#42", Count: count})
		if err != nil {
			t.Fatal(err)
		}
		nOrders, nProfile := -1, -1
		if count {
			nOrders, nProfile = 2, 1
		}
		want := []keys.Group{
			{Entity: "ORDER", Prefix: "ORDER#", Kind: keys.KindLabel, Count: nOrders, First: "ORDER#2025-01-09#A11", Last: "ORDER#2025-03-01#A17"},
			{Entity: "PROFILE", Prefix: "PROFILE", Kind: keys.KindLabel, Exact: true, Count: nProfile, First: "PROFILE", Last: "PROFILE"},
		}
		if !reflect.DeepEqual(d.Groups, want) || d.Delimiter != "#" || d.KeyType != "S" || d.Partial {
			t.Errorf("count=%v: groups %+v delimiter %q partial %v", count, d.Groups, d.Delimiter, d.Partial)
		}
		xs := tap.Exchanges("Query")[before:]
		if len(xs) != 1 || xs[0].Capacity != 0.5 || xs[0].More || d.Requests[0].KeyCondition != `PK = "CUST#42"` {
			t.Errorf("count=%v: %d requests for a 3-item partition: %v", count, len(xs), xs)
		}
		sameAsAnswered(t, d.Requests, xs)
	}
}

func TestDiscoverNumberKeysAndIndexes(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	def := dynamotest.PKSK()
	def.AttributeDefinitions = append(def.AttributeDefinitions,
		types.AttributeDefinition{AttributeName: aws.String("GPK"), AttributeType: "S"},
		types.AttributeDefinition{AttributeName: aws.String("GSK"), AttributeType: "N"})
	def.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{
		IndexName:  aws.String("ByNum"),
		KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("GPK"), KeyType: "HASH"}, {AttributeName: aws.String("GSK"), KeyType: "RANGE"}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
	}}
	table := dynamotest.Table(t, api, def)
	for i, v := range []string{"10", "-3", "2.5", "10"} {
		put(t, api, table, dynamo.Item{"PK": s("P"), "SK": s(fmt.Sprintf("X#%d", i)), "GPK": s("G"), "GSK": n(v)})
	}
	c, _ := connect(t)
	d, err := c.Discover(context.Background(), dynamo.DiscoverInput{Table: table, Index: "ByNum", PK: "G", Count: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []keys.Group{{Entity: keys.NumberEntity, Kind: keys.KindValue, Count: 4, First: "-3", Last: "10"}}
	if !reflect.DeepEqual(d.Groups, want) || d.KeyType != "N" {
		t.Errorf("numeric range: %+v", d.Groups)
	}
	for _, r := range d.Requests {
		if r.Index != "ByNum" || r.Capacity.Indexes["ByNum"] == 0 && r.Count > 0 {
			t.Errorf("request not on the index: %+v", r)
		}
	}
	// A partition that does not exist has no types and says so cheaply.
	d, err = c.Discover(context.Background(), dynamo.DiscoverInput{Table: table, PK: "nobody"})
	if err != nil || len(d.Groups) != 0 || len(d.Requests) != 1 {
		t.Errorf("empty partition: %v %+v", err, d)
	}
}
