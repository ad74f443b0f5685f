package dynamo

// Filters and projections, shared by Query and Scan. Both are read by
// filterexpr and handed to the SDK's expression builder, which names every
// attribute and value by placeholder. A filter is applied after the read:
// DynamoDB charges for every item it read, kept or not. A projection only
// trims what comes back: it saves bandwidth, not capacity.

import (
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/filterexpr"
)

// FilterNote is the sentence every filtered result carries.
const FilterNote = "a filter is applied after the read: RCU are charged for every item read, kept or not"

// ProjectionNote is the sentence every projected result carries.
const ProjectionNote = "a projection saves bandwidth, not capacity: RCU are charged for whole items"

// CheckShape says in one sentence what is wrong with a filter or a
// projection, before any request; nil when both read.
func CheckShape(filter, project string) error {
	_, err := ParseShape(filter, project, nil)
	return err
}

// ReadShape is a parsed filter and projection.
type ReadShape struct {
	Filter     filterexpr.Expr
	Projection []filterexpr.Path
	// FilterText and ProjectionText are what was asked for, in the
	// canonical form filterexpr writes ("" when none).
	FilterText, ProjectionText string
}

// ParseShape reads a filter and a projection; keep are the attributes a
// projection always includes (the keys, so that paging and the item's
// identity survive it).
func ParseShape(filter, project string, keep []string) (ReadShape, error) {
	var s ReadShape
	var err error
	if s.Filter, err = filterexpr.Parse(filter); err != nil {
		return s, &UserError{Msg: err.Error(), Err: err}
	}
	s.FilterText = s.Filter.String()
	paths, err := filterexpr.ParseProjection(project)
	if err != nil {
		return s, &UserError{Msg: err.Error(), Err: err}
	}
	if len(paths) == 0 {
		return s, nil
	}
	var texts []string
	for _, p := range paths {
		texts = append(texts, p.String())
	}
	s.ProjectionText = strings.Join(texts, ", ")
	for _, k := range keep {
		if k != "" && !slices.ContainsFunc(paths, func(p filterexpr.Path) bool { return len(p) == 1 && p.Top() == k }) {
			paths = append(paths, filterexpr.Path{{Name: k}})
		}
	}
	s.Projection = paths
	return s, nil
}

// add puts the filter and projection on a builder.
func (s ReadShape) Add(b expression.Builder) expression.Builder {
	if !s.Filter.Empty() {
		b = b.WithFilter(s.Filter.Condition())
	}
	if len(s.Projection) > 0 {
		b = b.WithProjection(filterexpr.Projection(s.Projection))
	}
	return b
}

// empty tells whether there is neither filter nor projection.
func (s ReadShape) Empty() bool { return s.Filter.Empty() && len(s.Projection) == 0 }

// KeepKeys are the key attributes of the index read and of its table.
func KeepKeys(ks KeySchema) []string {
	keep := []string{ks.PK.Name}
	if ks.SK != nil {
		keep = append(keep, ks.SK.Name)
	}
	for _, k := range ks.Base {
		if !slices.Contains(keep, k) {
			keep = append(keep, k)
		}
	}
	return keep
}

// mergeNames adds the placeholders of a second builder's expression to a
// request's maps; the builder's #0/:0 never meet the fixed #pk/:pk.
func mergeNames(names map[string]string, values map[string]types.AttributeValue, x expression.Expression) (map[string]string, map[string]types.AttributeValue) {
	for k, v := range x.Names() {
		if names == nil {
			names = map[string]string{}
		}
		names[k] = v
	}
	for k, v := range x.Values() {
		if values == nil {
			values = map[string]types.AttributeValue{}
		}
		values[k] = v
	}
	return names, values
}

// valueText shows a value of an expression: keys in KeyText's words, the
// other literals a filter may hold as filterexpr writes them.
func valueText(av types.AttributeValue) string {
	switch av.(type) {
	case *types.AttributeValueMemberS, *types.AttributeValueMemberN, *types.AttributeValueMemberB:
		return KeyText(av)
	}
	return filterexpr.ValueText(av)
}
