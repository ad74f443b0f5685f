package dynamo

// The check on DescribeTable answers (answer.go checks every answer on its
// raw body): a table description DynamoDB would never give is refused
// before anything of it is cached.

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// describedKey is one KeySchema element of a DescribeTable answer.
type describedKey struct{ AttributeName, KeyType *string }

// describedIndex is the part of an index's description that is checked.
type describedIndex struct {
	IndexName      *string
	KeySchema      []describedKey
	ItemCount      *json.Number
	IndexSizeBytes *json.Number
}

// checkDescribe checks a DescribeTable answer: a named table, key schemas
// of exactly one HASH and at most one RANGE key whose types are defined as
// S, N or B, and counts and sizes that are whole and not negative. Nothing
// of an answer that fails is cached.
func checkDescribe(body []byte) string {
	var a struct {
		Table *struct {
			TableName              *string
			KeySchema              []describedKey
			AttributeDefinitions   []struct{ AttributeName, AttributeType *string }
			ItemCount              *json.Number
			TableSizeBytes         *json.Number
			GlobalSecondaryIndexes []describedIndex
			LocalSecondaryIndexes  []describedIndex
		}
	}
	if err := json.Unmarshal(body, &a); err != nil || a.Table == nil {
		return "no Table"
	}
	t := a.Table
	if t.TableName == nil || *t.TableName == "" {
		return "a Table without TableName"
	}
	types_ := map[string]string{}
	for _, d := range t.AttributeDefinitions {
		if d.AttributeName != nil && d.AttributeType != nil {
			types_[*d.AttributeName] = *d.AttributeType
		}
	}
	if p := checkKeySchema("the table", t.KeySchema, types_); p != "" {
		return p
	}
	if p := checkCounts("the table", t.ItemCount, t.TableSizeBytes); p != "" {
		return p
	}
	for _, ix := range append(t.GlobalSecondaryIndexes, t.LocalSecondaryIndexes...) {
		name := "an index without IndexName"
		if ix.IndexName != nil && *ix.IndexName != "" {
			name = "index " + strconv.Quote(*ix.IndexName)
		} else {
			return name
		}
		if p := checkKeySchema(name, ix.KeySchema, types_); p != "" {
			return p
		}
		if p := checkCounts(name, ix.ItemCount, ix.IndexSizeBytes); p != "" {
			return p
		}
	}
	return ""
}

func checkKeySchema(what string, ks []describedKey, types_ map[string]string) string {
	hash, rng := 0, 0
	for _, k := range ks {
		if k.AttributeName == nil || *k.AttributeName == "" {
			return fmt.Sprintf("a key schema of %s with an unnamed key", what)
		}
		switch kt := ""; {
		case k.KeyType != nil && *k.KeyType == "HASH":
			hash++
		case k.KeyType != nil && *k.KeyType == "RANGE":
			rng++
		default:
			if k.KeyType != nil {
				kt = *k.KeyType
			}
			return fmt.Sprintf("a key schema of %s with the key type %q (only HASH and RANGE exist)", what, kt)
		}
		switch typ := types_[*k.AttributeName]; typ {
		case "S", "N", "B":
		case "":
			return fmt.Sprintf("a key schema of %s whose key %s has no type in AttributeDefinitions", what, strconv.Quote(*k.AttributeName))
		default:
			return fmt.Sprintf("a key schema of %s whose key %s has the type %q (keys are S, N or B)", what, strconv.Quote(*k.AttributeName), typ)
		}
	}
	if hash != 1 || rng > 1 {
		return fmt.Sprintf("a key schema of %s with %d HASH and %d RANGE keys (DynamoDB has exactly one HASH and at most one RANGE)", what, hash, rng)
	}
	return ""
}

func checkCounts(what string, counts ...*json.Number) string {
	for _, c := range counts {
		if c == nil {
			continue // missing: unknown, which the estimate says
		}
		if n, err := strconv.ParseInt(c.String(), 10, 64); err != nil || n < 0 {
			return fmt.Sprintf("an item count or size of %s of %s, not a whole number of 0 or more", what, c)
		}
	}
	return ""
}
