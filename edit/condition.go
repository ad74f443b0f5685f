package edit

// The condition of a write: what it checks of the item as read, and what
// it cannot see.

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/itemcodec/number"
)

// VersionNames are the attributes taken as a version attribute when the
// item read has one as a number and the settings name none: the common
// hand-made ones and ElectroDB's.
var VersionNames = []string{"version", "_v", "__edb_v__"}

// findVersion is the version attribute an item has, or "".
func findVersion(it dynamo.Item) string {
	for _, n := range VersionNames {
		if _, ok := it[n].(*types.AttributeValueMemberN); ok {
			return n
		}
	}
	return ""
}

// goneLimit is what the condition of a write that removes the item read
// can see: DynamoDB conditions cannot say "no other attribute".
func (p *Plan) goneLimit() string {
	if v, ok := p.Old[p.Version]; ok && p.Version != "" {
		return fmt.Sprintf("the condition includes the version attribute %s = %s: a writer that changed the item and raised it, even only adding an attribute, is seen", p.Version, ValueText(v))
	}
	return "the condition covers the attributes read; an attribute someone added after the read is not seen and goes with the item (DynamoDB cannot condition on \"no other attribute\"; a version attribute would show it)"
}

// withNextVersion returns the new image with the version attribute one
// past the old one's (1 when there was none), unless the user set it.
func withNextVersion(old, new dynamo.Item, attr string) dynamo.Item {
	out := maps.Clone(new)
	if old != nil && !Equal(old[attr], new[attr]) {
		return out // the user changed it: their value stands
	}
	next := "1"
	if v, ok := old[attr].(*types.AttributeValueMemberN); ok {
		if d, err := number.Parse(v.Value); err == nil && d.Exp < number.MaxDigits {
			next = increment(v.Value)
		}
	}
	out[attr] = &types.AttributeValueMemberN{Value: next}
	return out
}

// asRead is the condition that the item at old's key is still as read,
// as far as this write goes. A nil old must not exist. Otherwise the key
// must exist (an update never re-creates a deleted item); with a version
// attribute the version must be the one read, else every attribute read
// must still have its value; and every attribute the write touches (sets,
// removes, or, for a delete, loses) must have its value as read, or be
// absent where it was absent: an attribute someone added meanwhile is
// never overwritten. versionOnly drops the touched attributes a version
// covers, for a delete whose image is too long for one condition.
func asRead(t dynamo.Table, old dynamo.Item, version string, touched []string, versionOnly bool) expression.ConditionBuilder {
	pk := expression.NameNoDotSplit(t.PK.Name)
	if old == nil {
		return expression.AttributeNotExists(pk)
	}
	conds := []expression.ConditionBuilder{expression.AttributeExists(pk)}
	keys := keyNames(t)
	names := touched
	if v, ok := old[version]; ok && version != "" {
		conds = append(conds, expression.NameNoDotSplit(version).Equal(value(v)))
		if versionOnly {
			names = nil
		}
	} else {
		names = slices.Collect(maps.Keys(old))
		for _, n := range touched {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	slices.Sort(names)
	for _, n := range slices.Compact(names) {
		if slices.Contains(keys, n) || n == version && old[version] != nil {
			continue
		}
		if v, ok := old[n]; ok {
			conds = append(conds, expression.NameNoDotSplit(n).Equal(value(v)))
		} else {
			conds = append(conds, expression.AttributeNotExists(expression.NameNoDotSplit(n)))
		}
	}
	if len(conds) == 1 {
		return conds[0]
	}
	return expression.And(conds[0], conds[1], conds[2:]...)
}

// touched are the attributes a write of the plan sets or removes: the
// diff's for an update, every attribute read for a delete (and for the old
// item of a key change).
func (p *Plan) touched(gone bool) []string {
	if gone {
		return slices.Sorted(maps.Keys(p.Old))
	}
	var out []string
	for _, d := range p.Diff {
		out = append(out, d.Name)
	}
	return out
}

// goneCondition is the condition of a delete of the item read: over the
// whole image, or, when that is too long and the item has a version
// attribute, on the version alone.
func (p *Plan) goneCondition() (expression.Expression, error) {
	e, err := p.build(asRead(p.Keys, p.Old, p.Version, p.touched(true), false), nil)
	var long *conditionTooLong
	if errors.As(err, &long) && p.Version != "" && p.Old[p.Version] != nil {
		return p.build(asRead(p.Keys, p.Old, p.Version, nil, true), nil)
	}
	return e, err
}

// conditionTooLong is a condition over more than DynamoDB takes.
type conditionTooLong struct{ n int }

func (e *conditionTooLong) Error() string {
	return fmt.Sprintf("the item has too many attributes for a condition over all of them (%d bytes, DynamoDB takes %d); name a version attribute in the settings (versionAttribute)", e.n, maxConditionBytes)
}
