package dynamo_test

import (
	"slices"
	"testing"

	"dynascope/dynamo"
)

func TestTableAttributeNames(t *testing.T) {
	tb := dynamo.Table{
		Name: "App", PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"},
		Indexes: []dynamo.Index{
			{Name: "GSI1", Kind: dynamo.GSI, PK: dynamo.KeyAttr{Name: "GSI1PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}, Projection: "INCLUDE", NonKeyAttr: []string{"status", "total"}},
			{Name: "ByTotal", Kind: dynamo.LSI, PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "total", Type: "N"}},
			{Name: "ByStatus", Kind: dynamo.GSI, PK: dynamo.KeyAttr{Name: "status", Type: "S"}},
		},
	}
	want := []string{"PK", "SK", "GSI1PK", "status", "total"}
	if got := tb.AttributeNames(); !slices.Equal(got, want) {
		t.Errorf("AttributeNames = %v, want %v", got, want)
	}
	only := dynamo.Table{Name: "Users", PK: dynamo.KeyAttr{Name: "id", Type: "S"}}
	if got := only.AttributeNames(); !slices.Equal(got, []string{"id"}) {
		t.Errorf("a table with only a partition key: %v", got)
	}
}
