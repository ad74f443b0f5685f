package dynamo

// The items of an ExecuteStatement answer, checked against the statement:
// a SELECT * returns whole items, so each carries the key schema, and a
// statement whose WHERE fixes the partition key (a Query plan) returns
// only items of that partition. An item of another partition shown for
// WHERE PK = 'CUST#7' is a cache or mock in between, never DynamoDB.

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/partiql"
)

// statementItemProblem says what is wrong with an item the planned
// statement was answered with, or "". An item without the partition key
// (a SELECT of other attributes) cannot be placed and passes.
func statementItemProblem(t Table, plan partiql.Plan, whole bool, it Item) string {
	if whole {
		if p := keyProblem(t, plan.Index, it); p != "" {
			return p
		}
	}
	if !plan.Query {
		return ""
	}
	v, ok := it[plan.PKName]
	if !ok {
		return ""
	}
	var want types.AttributeValue = &types.AttributeValueMemberS{Value: plan.PKValue}
	if plan.PKNumber {
		want = &types.AttributeValueMemberN{Value: plan.PKValue}
	}
	if c, ok := compareKey(v, want); !ok || c != 0 {
		ks, err := t.Schema(plan.Index)
		if err != nil {
			return ""
		}
		return fmt.Sprintf("an item %s from another partition than %s = %s", keyMapText(keyPart(t, ks, it)), plan.PKName, shortKeyText(want))
	}
	return ""
}
