package dynamo

// The keys of a paged answer, checked against the read that asked for
// them (answer_items.go checks each item's own keys): a LastEvaluatedKey
// must be a key of the table or index read, within DynamoDB's key limits
// and, for a Query, in the partition asked for; and the keys of one Query
// page move strictly in the read's direction, from the ExclusiveStartKey
// through each item to the LastEvaluatedKey. Each page starts from the
// key the one before it ended on (QueryPager), so a read whose every page
// passes never shows an item twice nor goes back. A Scan's order is the
// hash's, which nobody can check: there an item that comes twice in one
// read is refused. These are functions over decoded keys, called once per
// page where the reader decodes it (query.go, scan.go, sample_scan.go).

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/itemcodec"
)

// DynamoDB's key limits: a partition key value of at most 2,048 bytes, a
// sort key value of at most 1,024.
const (
	MaxPartitionKeyBytes = 2048
	MaxSortKeyBytes      = 1024
)

// keyAttrs are the attributes a key of the table (index "") or of an index
// holds, in order, each with its role: DynamoDB's LastEvaluatedKey of an
// index holds the index's key and the table's.
func keyAttrs(t Table, ks KeySchema) []StartKeyAttr {
	out, _ := StartKeyAttrs(t, ks.Index)
	return out
}

// keyValueProblem says what is wrong with one key attribute's value in a
// key of what ("a LastEvaluatedKey"), or "".
func keyValueProblem(what string, a StartKeyAttr, v types.AttributeValue) string {
	if v == nil {
		return fmt.Sprintf("%s without the key attribute %s", what, a.Name)
	}
	if got := itemcodec.AttributeTypeName(v); got != a.Type {
		return fmt.Sprintf("%s whose %s is of type %s, not the key schema's %s", what, a.Name, got, a.Type)
	}
	n := keyBytes(v)
	if n == 0 && a.Type != "N" {
		return fmt.Sprintf("%s whose %s is empty, which no key can be", what, a.Name)
	}
	role, limit := "partition key", MaxPartitionKeyBytes
	if isSortKey(a) {
		role, limit = "sort key", MaxSortKeyBytes
	}
	if n > limit {
		return fmt.Sprintf("%s whose %s %s is %s bytes long, beyond DynamoDB's limit of %s", what, role, a.Name, thousands(n), thousands(limit))
	}
	return ""
}

// isSortKey tells a sort key's role from a partition key's.
func isSortKey(a StartKeyAttr) bool { return len(a.Role) > 12 && a.Role[:12] == "the sort key" }

// keyBytes is the length a key limit counts: a string's UTF-8 bytes, a
// binary's bytes, a number's text.
func keyBytes(v types.AttributeValue) int {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		return len(x.Value)
	case *types.AttributeValueMemberB:
		return len(x.Value)
	case *types.AttributeValueMemberN:
		return len(x.Value)
	}
	return 0
}

// lastKeyProblem says what is wrong with a LastEvaluatedKey of a read of
// ks: exactly the key attributes of the table or index, of their types,
// not empty, within the key limits. "" for none or a good one.
func lastKeyProblem(t Table, ks KeySchema, lek Item) string {
	if len(lek) == 0 {
		return ""
	}
	attrs := keyAttrs(t, ks)
	for _, a := range attrs {
		if p := keyValueProblem("a LastEvaluatedKey", a, lek[a.Name]); p != "" {
			return p
		}
	}
	if len(lek) != len(attrs) {
		for name := range lek {
			if !hasAttr(attrs, name) {
				return fmt.Sprintf("a LastEvaluatedKey with the attribute %s, which is no key attribute of %s", shortName(name), keyOwner(ks.Index))
			}
		}
	}
	return ""
}

func hasAttr(attrs []StartKeyAttr, name string) bool {
	for _, a := range attrs {
		if a.Name == name {
			return true
		}
	}
	return false
}

// keyOwner names what a read read, for a sentence that names its table
// already.
func keyOwner(index string) string {
	if index == "" {
		return "the table"
	}
	return "index " + shortName(index)
}

// queryKeysProblem checks a Query page's keys against its request: its
// LastEvaluatedKey a key of what was read, in the partition asked for and
// within its sort-key condition,
// and every key in the read's direction (queryOrderProblem).
func queryKeysProblem(t Table, ks KeySchema, q QueryInput, items []Item, lek Item) string {
	if p := lastKeyProblem(t, ks, lek); p != "" {
		return p
	}
	if len(lek) > 0 {
		if pkv, err := KeyValue(ks.PK, "partition key", q.PK); err == nil {
			if c, ok := compareKey(lek[ks.PK.Name], pkv); !ok || c != 0 {
				return fmt.Sprintf("a LastEvaluatedKey %s from another partition than %s = %s", keyMapText(keyPart(t, ks, lek)), ks.PK.Name, shortKeyText(pkv))
			}
		}
		// Sent back, DynamoDB would refuse it in its own words ("does not
		// match the range key predicate"): it is the endpoint's fault.
		if cond := outsideSKCond(ks, q, lek); cond != "" {
			return fmt.Sprintf("a LastEvaluatedKey %s outside the sort-key condition %s", keyMapText(keyPart(t, ks, lek)), cond)
		}
	}
	if p := keyAdvance(ks, !q.Reverse, q.StartKey, lek); p != "" {
		return p
	}
	return queryOrderProblem(t, ks, !q.Reverse, q.StartKey, items, lek)
}

// queryOrderProblem checks that a Query page's keys move strictly in the
// read's direction: the ExclusiveStartKey start, then each item, then the
// LastEvaluatedKey lek, which may be the last item's own key (it is, but
// for a filter). An index's sort keys need not be unique, so there a key
// of equal sort key must only not repeat one of the page; the table's sort
// key is unique within its partition. A table without a sort key holds one
// item per partition; an index without one orders nothing, and only a
// repeat is refused.
func queryOrderProblem(t Table, ks KeySchema, forward bool, start Item, items []Item, lek Item) string {
	o := keyOrder{t: t, ks: ks, forward: forward, ties: map[string]bool{}}
	if len(start) > 0 {
		o.at(start, "the ExclusiveStartKey")
	}
	for _, it := range items {
		if p := o.item(it); p != "" {
			return p
		}
	}
	if len(lek) > 0 && o.prev != nil {
		if c, ok := o.cmp(o.prev, lek); ok && c < 0 {
			return fmt.Sprintf("a LastEvaluatedKey %s behind %s %s", keyMapText(keyPart(t, ks, lek)), o.prevWhat, keyMapText(keyPart(t, ks, o.prev)))
		}
	}
	return ""
}

// keyOrder follows the keys of one page.
type keyOrder struct {
	t        Table
	ks       KeySchema
	forward  bool
	prev     Item   // the last key met
	prevWhat string // what it was, for a sentence
	ties     map[string]bool
}

func (o *keyOrder) at(k Item, what string) {
	o.prev, o.prevWhat = k, what
	o.ties[keyID(keyPart(o.t, o.ks, k))] = true
}

// item checks the next item of the page.
func (o *keyOrder) item(it Item) string {
	k := keyPart(o.t, o.ks, it)
	if o.prev != nil {
		c, ok := o.cmp(o.prev, it)
		dir := "after"
		if !o.forward {
			dir = "before"
		}
		switch {
		case !ok:
			// not of one type: keyProblem has said so
		case c < 0 || c == 0 && o.ties[keyID(k)]:
			return fmt.Sprintf("an item %s not %s %s %s", keyMapText(k), dir, o.prevWhat, keyMapText(keyPart(o.t, o.ks, o.prev)))
		case c > 0:
			clear(o.ties)
		}
	}
	o.at(it, "the item before it")
	o.prevWhat = "the last item"
	return ""
}

// cmp orders b against a in the read's direction: > 0 when b comes after.
// Keys of equal order key compare 0: the same item on the table, a tie on
// an index.
func (o *keyOrder) cmp(a, b Item) (int, bool) {
	if o.ks.SK == nil {
		return 0, true
	}
	c, ok := compareKey(b[o.ks.SK.Name], a[o.ks.SK.Name])
	if !o.forward {
		c = -c
	}
	return c, ok
}

// keyPart is a key's attributes of an item or key: the index's and the
// table's.
func keyPart(t Table, ks KeySchema, it Item) Item {
	k := Item{}
	for _, a := range []*KeyAttr{&ks.PK, ks.SK, &t.PK, t.SK} {
		if a != nil && it[a.Name] != nil {
			k[a.Name] = it[a.Name]
		}
	}
	return k
}

// thousands writes n with commas: 1,808.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// A key value in a sentence is cut when long: an endpoint's key of 1,802
// characters would otherwise make a sentence no one can read.
const sentenceKeyRunes = 40

// shortKeyText is KeyText cut to its first sentenceKeyRunes characters,
// with the value's length in bytes after the cut.
func shortKeyText(av types.AttributeValue) string {
	s := KeyText(av)
	r := []rune(s)
	if len(r) <= sentenceKeyRunes+2 {
		return s
	}
	return string(r[:sentenceKeyRunes]) + "…\" (" + thousands(keyBytes(av)) + " bytes)"
}

// shortName is an attribute name for a sentence, cut when long.
func shortName(name string) string {
	if r := []rune(name); len(r) > sentenceKeyRunes {
		return fmt.Sprintf("%q…", string(r[:sentenceKeyRunes]))
	}
	return name
}
