package edit

// The typed diff: what a change does to each attribute, with the types, so
// that S "35" → N 35 is seen as the change it is.

import (
	"bytes"
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/itemcodec"
	"dynascope/itemcodec/number"
)

// AttrDiff is one attribute that differs: Old nil when it is added, New nil
// when it is removed.
type AttrDiff struct {
	Name string
	Old  types.AttributeValue
	New  types.AttributeValue
}

// Kind is "+" for an added attribute, "-" for a removed one, "~" for a
// changed one.
func (d AttrDiff) Kind() string {
	switch {
	case d.Old == nil:
		return "+"
	case d.New == nil:
		return "-"
	}
	return "~"
}

// String is the diff line: `~ status: S "OPEN" → S "SHIPPED"`. Item data is
// in it as is; sanitize it before it reaches a terminal.
func (d AttrDiff) String() string {
	switch d.Kind() {
	case "+":
		return "+ " + d.Name + ": " + ValueText(d.New)
	case "-":
		return "- " + d.Name + ": " + ValueText(d.Old)
	}
	return "~ " + d.Name + ": " + ValueText(d.Old) + " → " + ValueText(d.New)
}

// Diff lists the attributes that differ between two images (either may be
// nil), the key attributes first, then by name.
func Diff(old, new dynamo.Item) []AttrDiff {
	var out []AttrDiff
	names := map[string]bool{}
	for n := range old {
		names[n] = true
	}
	for n := range new {
		names[n] = true
	}
	for _, n := range slices.Sorted(maps.Keys(names)) {
		o, n2 := old[n], new[n]
		if o != nil && n2 != nil && Equal(o, n2) {
			continue
		}
		out = append(out, AttrDiff{Name: n, Old: o, New: n2})
	}
	return out
}

// Changed tells whether a diff changes anything.
func Changed(d []AttrDiff) bool { return len(d) > 0 }

// DiffLines is a diff as lines, the key attributes of t first.
func DiffLines(t dynamo.Table, d []AttrDiff) []string {
	byKey := KeysFirst(t)
	sorted := slices.Clone(d)
	slices.SortStableFunc(sorted, func(a, b AttrDiff) int { return byKey(a.Name, b.Name) })
	lines := make([]string, len(sorted))
	for i, x := range sorted {
		lines[i] = x.String()
	}
	return lines
}

// ValueText is a value with its type, as the diff shows it: S "OPEN",
// N 35.5, BOOL true, NULL, SS ["a","b"], M {"a":1}.
func ValueText(av types.AttributeValue) string {
	typ := itemcodec.AttributeTypeName(av)
	if typ == "NULL" {
		return "NULL"
	}
	return typ + " " + string(itemcodec.MarshalPlainValue(av))
}

// Equal tells whether two values are the same value, as DynamoDB compares
// them: numbers by value ("35.50" is 35.5), sets without order.
func Equal(a, b types.AttributeValue) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	switch x := a.(type) {
	case *types.AttributeValueMemberS:
		y, ok := b.(*types.AttributeValueMemberS)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberN:
		y, ok := b.(*types.AttributeValueMemberN)
		return ok && numberKey(x.Value) == numberKey(y.Value)
	case *types.AttributeValueMemberB:
		y, ok := b.(*types.AttributeValueMemberB)
		return ok && bytes.Equal(x.Value, y.Value)
	case *types.AttributeValueMemberBOOL:
		y, ok := b.(*types.AttributeValueMemberBOOL)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberNULL:
		_, ok := b.(*types.AttributeValueMemberNULL)
		return ok
	case *types.AttributeValueMemberSS:
		y, ok := b.(*types.AttributeValueMemberSS)
		return ok && sameSet(x.Value, y.Value, func(s string) string { return s })
	case *types.AttributeValueMemberNS:
		y, ok := b.(*types.AttributeValueMemberNS)
		return ok && sameSet(x.Value, y.Value, numberKey)
	case *types.AttributeValueMemberBS:
		y, ok := b.(*types.AttributeValueMemberBS)
		return ok && sameSet(x.Value, y.Value, func(b []byte) string { return string(b) })
	case *types.AttributeValueMemberL:
		y, ok := b.(*types.AttributeValueMemberL)
		return ok && slices.EqualFunc(x.Value, y.Value, Equal)
	case *types.AttributeValueMemberM:
		y, ok := b.(*types.AttributeValueMemberM)
		return ok && SameItem(x.Value, y.Value)
	}
	return false
}

// SameItem tells whether two images hold the same attributes and values.
func SameItem(a, b dynamo.Item) bool {
	return (a == nil) == (b == nil) && maps.EqualFunc(a, b, Equal)
}

func numberKey(s string) string {
	d, err := number.ParseSyntax(s)
	if err != nil {
		return "?" + s
	}
	return d.Key()
}

func sameSet[T any](a, b []T, key func(T) string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]int{}
	for _, m := range a {
		seen[key(m)]++
	}
	for _, m := range b {
		k := key(m)
		if seen[k] == 0 {
			return false
		}
		seen[k]--
	}
	return true
}

// increment adds one to a number's text, exactly; the version attribute
// may be any number DynamoDB stores.
func increment(s string) string {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return "1"
	}
	r.Add(r, big.NewRat(1, 1))
	if r.IsInt() {
		return r.Num().String()
	}
	_, frac, _ := strings.Cut(s, ".")
	return r.FloatString(len(frac))
}

// ItemText is an item as one line of plain JSON, for messages.
func ItemText(it dynamo.Item) string {
	if it == nil {
		return "(no item)"
	}
	return string(itemcodec.PlainJSON(it))
}
