package dynamo

// Every item an answer holds is checked against the request that asked for
// it: its key attributes present and of the key schema's types, and for a
// Query the partition key equal to the one asked for and the sort key
// within the condition. A server that answers with an item the request
// could not return (a cache in between keyed on the wrong thing, a mock)
// is refused, as answer.go refuses a malformed body: an item shown must be
// one DynamoDB could have sent.

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec"
)

// keyProblem says what is wrong with an item read from the table (index
// "") or an index, by the key schema alone, or "".
func keyProblem(t Table, index string, it Item) string {
	ks, err := t.Schema(index)
	if err != nil {
		return ""
	}
	for _, k := range []*KeyAttr{&ks.PK, ks.SK, &t.PK, t.SK} {
		if k == nil || k.Name == "" || k.Type == "" {
			continue
		}
		v, ok := it[k.Name]
		if !ok {
			return fmt.Sprintf("an item without its key attribute %s", k.Name)
		}
		if got := itemcodec.AttributeTypeName(v); got != k.Type {
			return fmt.Sprintf("an item whose key attribute %s is of type %s, not the key schema's %s", k.Name, got, k.Type)
		}
	}
	return ""
}

// queryItemProblem says what is wrong with an item a Query answered, or "":
// its keys, its partition key against the one asked for, its sort key
// against the condition.
func queryItemProblem(t Table, ks KeySchema, q QueryInput, it Item) string {
	if p := keyProblem(t, ks.Index, it); p != "" {
		return p
	}
	pkv, err := KeyValue(ks.PK, "partition key", q.PK)
	if err != nil {
		return ""
	}
	if c, ok := compareKey(it[ks.PK.Name], pkv); !ok || c != 0 {
		return fmt.Sprintf("an item %s from another partition than %s = %s", itemKeyText(t, ks, it), ks.PK.Name, KeyText(pkv))
	}
	if cond := outsideSKCond(ks, q, it); cond != "" {
		return fmt.Sprintf("an item %s outside the sort-key condition %s", itemKeyText(t, ks, it), cond)
	}
	return ""
}

// outsideSKCond is the text of q's sort-key condition ("SK begins_with
// \"ORDER#\"") when the key k (an item's, a LastEvaluatedKey) fails it, ""
// when it meets it or there is none to meet.
func outsideSKCond(ks KeySchema, q QueryInput, k Item) string {
	if q.SK.Op == SKNone || ks.SK == nil {
		return ""
	}
	var vals []types.AttributeValue
	for _, v := range q.SK.Values {
		av, err := KeyValue(*ks.SK, "sort key", v)
		if err != nil {
			return ""
		}
		vals = append(vals, av)
	}
	if skMatches(q.SK.Op, k[ks.SK.Name], vals) {
		return ""
	}
	return ks.SK.Name + " " + skCondText(q.SK.Op, vals)
}

// skMatches tells whether a sort-key value meets a condition, as DynamoDB
// decides it (bytes for strings and binary, value for numbers).
func skMatches(op SKOp, v types.AttributeValue, vals []types.AttributeValue) bool {
	if len(vals) == 0 {
		return true
	}
	if op == SKBeginsWith {
		switch x := v.(type) {
		case *types.AttributeValueMemberS:
			p, ok := vals[0].(*types.AttributeValueMemberS)
			return ok && strings.HasPrefix(x.Value, p.Value)
		case *types.AttributeValueMemberB:
			p, ok := vals[0].(*types.AttributeValueMemberB)
			return ok && bytes.HasPrefix(x.Value, p.Value)
		}
		return false
	}
	c, ok := compareKey(v, vals[0])
	if !ok {
		return false
	}
	switch op {
	case SKEq:
		return c == 0
	case SKLt:
		return c < 0
	case SKLe:
		return c <= 0
	case SKGt:
		return c > 0
	case SKGe:
		return c >= 0
	case SKBetween:
		if len(vals) < 2 {
			return c >= 0
		}
		hi, ok := compareKey(v, vals[1])
		return ok && c >= 0 && hi <= 0
	}
	return true
}

func skCondText(op SKOp, vals []types.AttributeValue) string {
	switch op {
	case SKBetween:
		if len(vals) == 2 {
			return "BETWEEN " + KeyText(vals[0]) + " AND " + KeyText(vals[1])
		}
	case SKBeginsWith:
		return "begins_with " + KeyText(vals[0])
	}
	return string(op) + " " + KeyText(vals[0])
}

// itemKeyText is an item's key for a sentence: {PK "CUST#8", SK "PROFILE"}.
func itemKeyText(t Table, ks KeySchema, it Item) string {
	k := Item{}
	for _, a := range []*KeyAttr{&ks.PK, ks.SK, &t.PK, t.SK} {
		if a != nil && it[a.Name] != nil {
			k[a.Name] = it[a.Name]
		}
	}
	return keyMapText(k)
}

// getItemProblem says what is wrong with the item a GetItem answered: it
// must carry the very key that was asked for.
func getItemProblem(t Table, key Item, it Item) string {
	if p := keyProblem(t, "", it); p != "" {
		return p
	}
	for name, want := range key {
		if c, ok := compareKey(it[name], want); !ok || c != 0 {
			return fmt.Sprintf("an item %s that is not the one asked for, %s", keyMapText(pick(it, key)), keyMapText(key))
		}
	}
	return ""
}

// pick is it's attributes named in key.
func pick(it, key Item) Item {
	out := Item{}
	for name := range key {
		if v, ok := it[name]; ok {
			out[name] = v
		}
	}
	return out
}
