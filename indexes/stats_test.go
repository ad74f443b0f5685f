package indexes_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/indexes"
	"dynascope/keys"
)

// index try names the entity types of its members as the groups of their
// own partitions name them: ORDER and ORDER| where a migration left both
// in one partition (not one ORDER of both), ORDER in a partition with
// ORDER|… only, user names under an attendee list as one "name" group,
// and a lone letter-led id as a hex id.
func TestStatsNameEntityTypesAsGroupsDo(t *testing.T) {
	tbl := dynamo.Table{Name: "T", PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}}
	ix := dynamo.Index{Name: "GSI1", Kind: dynamo.GSI, PK: dynamo.KeyAttr{Name: "g", Type: "S"}, Projection: "ALL"}
	str := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	parts := map[string][]string{
		"CUST#42":          {"ORDER#2023-01-02#a1", "ORDER|2023-05-01|18c1", "ORDER|2023-05-02|19d2", "a5f0c3d2e1b4", "PROFILE"},
		"CUST#43":          {"ORDER|2023-05-03|20e3"},
		"MEET#1#ATTENDEES": {"arvinje", "johndoe"},
	}
	var items []dynamo.Item
	for pk, sks := range parts {
		for _, sk := range sks {
			items = append(items, dynamo.Item{"PK": str(pk), "SK": str(sk), "g": str("x")})
		}
	}
	var got []string
	for _, e := range indexes.Of1(tbl, ix, items, nil).EntityTypes {
		got = append(got, fmt.Sprintf("%s %d", e.Entity, e.Items))
	}
	slices.Sort(got)
	want := []string{"ORDER 2", "ORDER| 2", "PROFILE 1", keys.ShapeHex + " 1", keys.ShapeName + " 2"}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("entity types %q, want %q", got, want)
	}
}
