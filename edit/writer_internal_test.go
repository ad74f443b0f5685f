package edit

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
)

// After a lost answer, "nothing was written" needs the item as read and,
// for a key change only, nothing at the new key.
func TestUntouchedAfterALostAnswer(t *testing.T) {
	item := dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "P"}}
	other := dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "Q"}}
	for _, tc := range []struct {
		op                Op
		current, atNewKey dynamo.Item
		want              bool
	}{
		{OpTransact, item, nil, true},
		{OpTransact, item, other, false},
		{OpTransact, other, nil, false},
		{OpUpdate, item, other, true},
		{OpUpdate, other, nil, false},
	} {
		p := &Plan{Change: Change{Old: item}, Op: tc.op}
		if got := untouched(p, &ConflictError{Plan: p, Current: tc.current, AtNewKey: tc.atNewKey}); got != tc.want {
			t.Errorf("%s, current %v, at the new key %v: %v", tc.op, tc.current, tc.atNewKey, got)
		}
	}
}
