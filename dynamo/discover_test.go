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
		if !reflect.DeepEqual(d.Groups, want) {
			t.Errorf("reverse=%v:\n skip-scan %+v\n full read %+v", reverse, d.Groups, want)
		}
		// One request per type, one more per prefix type for its last key,
		// one that finds the end: far fewer than the 132 items.
		if len(d.Requests) > 2*len(want)+1 {
			t.Errorf("reverse=%v: %d requests for %d types", reverse, len(d.Requests), len(want))
		}
	}

	// Counting reads every item of each type and agrees with the full read.
	want := fullRead(t, c, table, "", "P", "SK", "#", false)
	d, err := c.Discover(context.Background(), dynamo.DiscoverInput{Table: table, PK: "P", Count: true})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Groups, want) {
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

func TestDiscoverPatternExample(t *testing.T) {
	t.Parallel()
	api := dynamotest.SDK(t)
	table := dynamotest.Table(t, api, dynamotest.PKSK())
	put(t, api, table,
		dynamo.Item{"PK": s("CUST#42"), "SK": s("PROFILE"), "name": s("Ann")},
		dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#2025-01-09#A11"), "total": n("20")},
		dynamo.Item{"PK": s("CUST#42"), "SK": s("ORDER#2025-03-01#A17"), "total": n("35")},
	)
	c, _ := connect(t)
	d, err := c.Discover(context.Background(), dynamo.DiscoverInput{Table: table, PK: "CUST#42"})
	if err != nil {
		t.Fatal(err)
	}
	want := []keys.Group{
		{Entity: "ORDER", Prefix: "ORDER#", Kind: keys.KindLabel, Count: -1, First: "ORDER#2025-01-09#A11", Last: "ORDER#2025-03-01#A17"},
		{Entity: "PROFILE", Prefix: "PROFILE", Kind: keys.KindLabel, Exact: true, Count: -1, First: "PROFILE", Last: "PROFILE"},
	}
	if !reflect.DeepEqual(d.Groups, want) || d.Delimiter != "#" || d.KeyType != "S" {
		t.Errorf("groups %+v delimiter %q", d.Groups, d.Delimiter)
	}
	// first ORDER, last ORDER, then SK >= "ORDER$" finds PROFILE, SK > "PROFILE" finds the end.
	var conds []string
	for _, r := range d.Requests {
		conds = append(conds, r.KeyCondition)
	}
	wantConds := []string{
		`PK = "CUST#42"`,
		`PK = "CUST#42" AND begins_with(SK, "ORDER#")`,
		`PK = "CUST#42" AND SK >= "ORDER$"`,
		`PK = "CUST#42" AND SK > "PROFILE"`,
	}
	if !reflect.DeepEqual(conds, wantConds) {
		t.Errorf("requests:\n%q\nwant\n%q", conds, wantConds)
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
