package dynamo

import (
	"bytes"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec"
)

// Every loop over pages stops on DynamoDB's word: a page without a
// LastEvaluatedKey is the last. A server that sends a key back again, or
// one that goes backwards, would keep such a loop reading forever. These
// checks make the key's progress a second stop: within a partition a Query
// reads in sort-key order, so each page's key must lie strictly beyond the
// key it started from.

// keyAdvance returns what is wrong with a Query page's LastEvaluatedKey next,
// given the ExclusiveStartKey start the page was read from, or "".
func keyAdvance(ks KeySchema, forward bool, start, next Item) string {
	if len(start) == 0 || len(next) == 0 {
		return ""
	}
	if sameKey(start, next) {
		return fmt.Sprintf("a LastEvaluatedKey %s equal to the ExclusiveStartKey it was sent (paging would never end)", keyMapText(next))
	}
	if ks.SK == nil {
		return ""
	}
	a, b := start[ks.SK.Name], next[ks.SK.Name]
	if a == nil || b == nil {
		return ""
	}
	c, ok := compareKey(a, b)
	if !ok {
		return ""
	}
	if !forward {
		c = -c
	}
	if c > 0 || c == 0 && ks.Index == "" {
		dir := "after"
		if !forward {
			dir = "before"
		}
		return fmt.Sprintf("a LastEvaluatedKey %s that is not %s its ExclusiveStartKey %s (paging would not move on)", keyMapText(next), dir, keyMapText(start))
	}
	return ""
}

// compareKey orders two key values of one type as DynamoDB does: strings
// and binary by bytes, numbers by value. ok is false for values that are
// not both scalars of one type.
func compareKey(a, b types.AttributeValue) (c int, ok bool) {
	switch x := a.(type) {
	case *types.AttributeValueMemberS:
		if y, ok := b.(*types.AttributeValueMemberS); ok {
			return strings.Compare(x.Value, y.Value), true
		}
	case *types.AttributeValueMemberB:
		if y, ok := b.(*types.AttributeValueMemberB); ok {
			return bytes.Compare(x.Value, y.Value), true
		}
	case *types.AttributeValueMemberN:
		if y, ok := b.(*types.AttributeValueMemberN); ok {
			fx, _, err1 := big.ParseFloat(x.Value, 10, 256, big.ToNearestEven)
			fy, _, err2 := big.ParseFloat(y.Value, 10, 256, big.ToNearestEven)
			if err1 != nil || err2 != nil {
				return 0, false
			}
			return fx.Cmp(fy), true
		}
	}
	return 0, false
}

// sameKey tells whether two keys hold the same attributes with the same values.
func sameKey(a, b Item) bool {
	return len(a) == len(b) && keyID(a) == keyID(b)
}

// keyID is a key as one comparable string.
func keyID(k Item) string {
	var sb strings.Builder
	for _, name := range slices.Sorted(maps.Keys(k)) {
		fmt.Fprintf(&sb, "%q=%T:%s;", name, k[name], itemcodec.KeyString(k[name]))
	}
	return sb.String()
}

// keyMapText shows a key for a sentence: {PK "CUST#1", SK "ORDER#2"},
// long values cut (shortKeyText).
func keyMapText(k Item) string {
	parts := make([]string, 0, len(k))
	for _, name := range slices.Sorted(maps.Keys(k)) {
		parts = append(parts, shortName(name)+" "+shortKeyText(k[name]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// seenKeys remembers the keys a Scan has been sent on from, whose order
// nobody can check: the one thing sure is that none comes twice.
type seenKeys map[string]bool

// repeat records next and returns the sentence when it came before.
func (s seenKeys) repeat(next Item) string {
	if len(next) == 0 {
		return ""
	}
	id := keyID(next)
	if s[id] {
		return fmt.Sprintf("a LastEvaluatedKey %s it had sent before (paging would never end)", keyMapText(next))
	}
	s[id] = true
	return ""
}
