// Package indexes computes an item's place in a table's secondary indexes
// from the key schema DescribeTable reports: whether it is in each index and
// why not, its keys there, which attributes the index projects, and the
// index key violations of items written before an index was added; and the
// same over a sample of items for an index map or a proposed index.
//
// It is pure computation: it imports dynamo for the table description's
// types, itemcodec and keys, and never sends a request; it must not import
// ui, cli, config, patterns or anything that talks to DynamoDB itself.
package indexes

import (
	"fmt"
	"slices"
	"sort"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/itemcodec"
)

// DynamoDB's limits on key values (bytes of UTF-8 for a string, raw bytes
// for binary).
const (
	MaxPartitionKeyBytes = 2048
	MaxSortKeyBytes      = 1024
)

// Violation names why an item that carries an index key attribute is not in
// the index; AWS calls these index key violations.
type Violation string

// The kinds of violation; an absent attribute is none (a sparse index).
const (
	NoViolation Violation = ""
	WrongType   Violation = "wrong-type"
	EmptyString Violation = "empty"
	TooLong     Violation = "too-long"
)

// Key is one key attribute of an item in an index.
type Key struct {
	Name  string
	Value types.AttributeValue
}

// Membership is an item's place in one index.
type Membership struct {
	Index  dynamo.Index
	Member bool
	Keys   []Key // the index's key attributes, partition key first; only for a member
	// Projected and NotProjected split the item's attributes by what the
	// index holds (keys first, then by name); only for a member.
	Projected, NotProjected []string
	Why                     string    // why the item is not in the index; "" for a member
	Violation               Violation // set when a key attribute is present but unusable
	Attr                    string    // the key attribute Why is about
}

// Of returns the item's membership of every secondary index of the table,
// in the table's index order.
func Of(t dynamo.Table, it dynamo.Item) []Membership {
	out := make([]Membership, 0, len(t.Indexes))
	for _, ix := range t.Indexes {
		out = append(out, Check(t, ix, it))
	}
	return out
}

// Check decides whether the item is in the index by DynamoDB's rules: a GSI
// holds an item only when it has every key attribute of the index with the
// declared type, not empty and not too long; an LSI every item that has its
// sort key attribute (its partition key is the table's).
func Check(t dynamo.Table, ix dynamo.Index, it dynamo.Item) Membership {
	m := Membership{Index: ix}
	attrs := []struct {
		attr dynamo.KeyAttr
		max  int
		role string
	}{{ix.PK, MaxPartitionKeyBytes, "partition key"}}
	if ix.SK != nil {
		attrs = append(attrs, struct {
			attr dynamo.KeyAttr
			max  int
			role string
		}{*ix.SK, MaxSortKeyBytes, "sort key"})
	}
	for _, a := range attrs {
		av, ok := it[a.attr.Name]
		if !ok || av == nil {
			m.Why, m.Attr, m.Keys = a.attr.Name+" is absent", a.attr.Name, nil
			return m
		}
		if v, why := checkValue(a.attr, a.role, a.max, av); v != NoViolation {
			m.Violation, m.Attr, m.Keys = v, a.attr.Name, nil
			m.Why = why + "; " + consequence(ix)
			return m
		}
		m.Keys = append(m.Keys, Key{Name: a.attr.Name, Value: av})
	}
	m.Member = true
	m.Projected, m.NotProjected = Split(t, ix, it)
	return m
}

// consequence says how an item with a violation came to be: DynamoDB refuses
// such a write once the index exists, so a GSI's violator was written before
// the index was added and its backfill skipped it. An LSI exists from the
// table's creation: a violating item cannot come from DynamoDB at all.
func consequence(ix dynamo.Index) string {
	if ix.Kind == dynamo.LSI {
		return "DynamoDB refuses such a write to a table with this local index, so the server's answer is wrong"
	}
	return "the item was written before the index was created and the backfill skipped it (an index key violation)"
}

// checkValue checks a present key value against the declared type and
// DynamoDB's limits.
func checkValue(attr dynamo.KeyAttr, role string, max int, av types.AttributeValue) (Violation, string) {
	got := itemcodec.AttributeTypeName(av)
	if got != attr.Type {
		return WrongType, fmt.Sprintf("%s is %s (%s), the index declares %s (%s)", attr.Name, typeName(got), got, typeName(attr.Type), attr.Type)
	}
	n := 0
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		n = len(v.Value)
	case *types.AttributeValueMemberB:
		n = len(v.Value)
	default:
		return NoViolation, "" // a number is at most 38 digits: always short enough
	}
	switch {
	case n == 0 && attr.Type == "S":
		return EmptyString, attr.Name + " is an empty string"
	case n == 0:
		return EmptyString, attr.Name + " is an empty binary value"
	case n > max:
		return TooLong, fmt.Sprintf("%s is %d bytes, longer than the %d bytes an index %s may be", attr.Name, n, max, role)
	}
	return NoViolation, ""
}

var typeNames = map[string]string{
	"S": "a string", "N": "a number", "B": "binary", "BOOL": "a boolean", "NULL": "null",
	"M": "a map", "L": "a list", "SS": "a string set", "NS": "a number set", "BS": "a binary set",
}

func typeName(t string) string {
	if n, ok := typeNames[t]; ok {
		return n
	}
	return "of an unknown type"
}

// KeyNames lists the attributes every projection keeps: the table's keys,
// then the index's.
func KeyNames(t dynamo.Table, ix dynamo.Index) []string {
	names := []string{t.PK.Name}
	add := func(n string) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if t.SK != nil {
		add(t.SK.Name)
	}
	add(ix.PK.Name)
	if ix.SK != nil {
		add(ix.SK.Name)
	}
	return names
}

// Projects reports whether the index holds the named attribute of its items.
func Projects(t dynamo.Table, ix dynamo.Index, name string) bool {
	switch {
	case slices.Contains(KeyNames(t, ix), name):
		return true
	case ix.Projection == "ALL" || ix.Projection == "":
		return true
	case ix.Projection == "INCLUDE":
		return slices.Contains(ix.NonKeyAttr, name)
	}
	return false
}

// Split divides the item's attributes into those the index projects and
// those it does not: keys in KeyNames' order first, the rest by name.
func Split(t dynamo.Table, ix dynamo.Index, it dynamo.Item) (projected, notProjected []string) {
	projected, notProjected = []string{}, []string{}
	keyNames := KeyNames(t, ix)
	for _, n := range keyNames {
		if _, ok := it[n]; ok {
			projected = append(projected, n)
		}
	}
	rest := make([]string, 0, len(it))
	for n := range it {
		if !slices.Contains(keyNames, n) {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	for _, n := range rest {
		if Projects(t, ix, n) {
			projected = append(projected, n)
		} else {
			notProjected = append(notProjected, n)
		}
	}
	return projected, notProjected
}

// ProjectedSize is the size of the item's entry in the index: the item
// reduced to the attributes the index projects, by DynamoDB's size rules.
func ProjectedSize(t dynamo.Table, ix dynamo.Index, it dynamo.Item) int {
	n := 0
	for name, av := range it {
		if Projects(t, ix, name) {
			n += itemcodec.AttributeSize(name, av)
		}
	}
	return n
}
