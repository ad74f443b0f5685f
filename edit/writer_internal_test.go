package edit

import (
	"errors"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
)

// A journal entry's key is the old item's, or the new one's for a put.
func TestEntryKey(t *testing.T) {
	keys := dynamo.Table{PK: dynamo.KeyAttr{Name: "PK", Type: "S"}}
	item := func(pk string) dynamo.Item {
		return dynamo.Item{"PK": &types.AttributeValueMemberS{Value: pk}, "a": &types.AttributeValueMemberS{Value: "x"}}
	}
	for _, tc := range []struct {
		old, new dynamo.Item
		want     string
	}{
		{nil, item("new"), `{"PK":{"S":"new"}}`},
		{item("old"), nil, `{"PK":{"S":"old"}}`},
		{item("old"), item("new"), `{"PK":{"S":"old"}}`},
	} {
		p := &Plan{Change: Change{Table: "T", Keys: keys, Old: tc.old, New: tc.new}}
		if e := newEntry(p, Target{}, 0); string(e.Items[0].Key) != tc.want || e.State != StateInDoubt {
			t.Errorf("old %v new %v: key %s (%s), want %s in doubt", tc.old, tc.new, e.Items[0].Key, e.State, tc.want)
		}
	}
}

// After a failed condition or a lost answer, the write counts as landed
// only when the item is as the plan wanted it: a key change's old item
// gone and its new one there.
func TestLandedKeyChange(t *testing.T) {
	old := dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "P"}}
	new := dynamo.Item{"PK": &types.AttributeValueMemberS{Value: "Q"}}
	p := &Plan{Change: Change{Old: old, New: new}, Op: OpTransact}
	for _, tc := range []struct {
		current, atNewKey dynamo.Item
		want              bool
	}{
		{nil, new, true},
		{old, new, false},
		{nil, nil, false},
	} {
		if got := landed(p, &ConflictError{Plan: p, Current: tc.current, AtNewKey: tc.atNewKey}); got != tc.want {
			t.Errorf("current %v, at the new key %v: %v", tc.current, tc.atNewKey, got)
		}
	}
}

// DynamoDB takes a condition of up to 4,096 bytes: one of exactly that
// length is built, one byte more is too long.
func TestConditionLengthEdge(t *testing.T) {
	// attribute_not_exists over n names, the last a path of m parts, makes
	// lengths in steps fine enough to meet 4,096 and 4,097 exactly.
	cond := func(n, m int) expression.ConditionBuilder {
		var cs []expression.ConditionBuilder
		for i := range n {
			cs = append(cs, expression.AttributeNotExists(expression.NameNoDotSplit(fmt.Sprint("a", i))))
		}
		path := "p"
		for j := range m {
			path += fmt.Sprint(".q", j)
		}
		cs = append(cs, expression.AttributeNotExists(expression.Name(path)))
		return expression.And(cs[0], cs[1], cs[2:]...)
	}
	length := func(c expression.ConditionBuilder) int {
		e, err := expression.NewBuilder().WithCondition(c).Build()
		if err != nil {
			t.Fatal(err)
		}
		return len(*e.Condition())
	}
	found := map[int]expression.ConditionBuilder{}
	for n := 110; n < 125 && len(found) < 2; n++ {
		for m := range 40 {
			if l := length(cond(n, m)); l == maxConditionBytes || l == maxConditionBytes+1 {
				found[l] = cond(n, m)
			}
		}
	}
	if len(found) < 2 {
		t.Fatalf("no condition of exactly %d and %d bytes among those tried", maxConditionBytes, maxConditionBytes+1)
	}
	p := &Plan{}
	if _, err := p.build(found[maxConditionBytes], nil); err != nil {
		t.Errorf("%d bytes: %v", maxConditionBytes, err)
	}
	var long *conditionTooLong
	if _, err := p.build(found[maxConditionBytes+1], nil); !errors.As(err, &long) || long.n != maxConditionBytes+1 {
		t.Errorf("%d bytes: %v", maxConditionBytes+1, err)
	}
}
