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
	if want := planPK(plan); !samePK(v, want) {
		ks, err := t.Schema(plan.Index)
		if err != nil {
			return ""
		}
		return fmt.Sprintf("an item %s from another partition than %s = %s", keyMapText(keyPart(t, ks, it)), plan.PKName, shortKeyText(want))
	}
	return ""
}

// statementKeyProblem says what is wrong with the LastEvaluatedKey of an
// ExecuteStatement answer, or "": it must be a key of what the statement
// reads and, for a Query plan, of the statement's partition. (A cache
// answering a statement with a Scan's page left its key, of no partition
// asked for, with no NextToken: the read looked complete and empty.)
func statementKeyProblem(t Table, plan partiql.Plan, lek Item) string {
	if len(lek) == 0 {
		return ""
	}
	ks, err := t.Schema(plan.Index)
	if err != nil {
		return ""
	}
	if p := lastKeyProblem(t, ks, lek); p != "" {
		return p
	}
	if want := planPK(plan); plan.Query && !samePK(lek[plan.PKName], want) {
		return fmt.Sprintf("a LastEvaluatedKey %s from another partition than %s = %s", keyMapText(keyPart(t, ks, lek)), plan.PKName, shortKeyText(want))
	}
	return ""
}

// planPK is the partition key value a Query plan's WHERE fixes.
func planPK(plan partiql.Plan) types.AttributeValue {
	if plan.PKNumber {
		return &types.AttributeValueMemberN{Value: plan.PKValue}
	}
	return &types.AttributeValueMemberS{Value: plan.PKValue}
}

func samePK(v, want types.AttributeValue) bool {
	c, ok := compareKey(v, want)
	return ok && c == 0
}
