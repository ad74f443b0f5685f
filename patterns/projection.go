package patterns

// What a pattern on a secondary index needs of each item against what the
// index projects: computed from DescribeTable, without a request.

import (
	"fmt"
	"slices"
	"strings"

	"dynascope/dynamo"
	"dynascope/indexes"
)

// Projection compares a pattern on a KEYS_ONLY or INCLUDE index with the
// index: what the index returns of each item, what the pattern needs of
// it (its attributes:) and reads (its filter), and what of that is
// missing.
type Projection struct {
	Index       string
	Kind        dynamo.IndexKind
	Projection  string   // KEYS_ONLY or INCLUDE
	Returns     []string // the keys of the table and the index, then the INCLUDE list
	Needs       []string // top-level names of attributes:, nil when the pattern lists none
	FilterReads []string // the filter's top-level attributes, nil without a filter
	Missing     []string // of Needs, what the index does not project
	Filtered    []string // of FilterReads, what the index does not project
}

// CheckProjection compares the pattern with its index. ok is false when
// the pattern reads the base table or an index that projects ALL, where
// every attribute is there.
func (p Pattern) CheckProjection(t dynamo.Table) (Projection, bool) {
	if p.Index == "" {
		return Projection{}, false
	}
	ix, found := t.IndexByName(p.Index)
	if !found || ix.Projection == "ALL" || ix.Projection == "" {
		return Projection{}, false
	}
	c := Projection{Index: ix.Name, Kind: ix.Kind, Projection: ix.Projection, Returns: indexes.KeyNames(t, ix)}
	if ix.Projection == "INCLUDE" {
		for _, a := range ix.NonKeyAttr {
			c.Returns = appendNew(c.Returns, a)
		}
	}
	if shape, err := dynamo.ParseShape("", strings.Join(p.Attributes, ", "), nil); err == nil { // read when the file was loaded
		for _, path := range shape.Projection {
			c.Needs = appendNew(c.Needs, path.Top())
		}
	}
	if tpl, err := p.filterTemplate(); err == nil { // read when the file was loaded
		c.FilterReads = tpl.Attributes()
	}
	notIn := func(names []string) (out []string) {
		for _, a := range names {
			if !indexes.Projects(t, ix, a) {
				out = append(out, a)
			}
		}
		return out
	}
	c.Missing, c.Filtered = notIn(c.Needs), notIn(c.FilterReads)
	return c, true
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// Refused tells whether DynamoDB refuses the pattern's Query outright: its
// filter reads an attribute the index does not project (a
// ValidationException, for a GSI and for an LSI read as dynascope sends
// it, without Select).
func (c Projection) Refused() bool { return len(c.Filtered) > 0 }

// OneRequest tells whether the index gives the pattern everything it needs
// in the Query itself: a GSI missing an attribute needs a GetItem per item;
// an LSI fetches it from the base table inside the Query, at a cost.
func (c Projection) OneRequest() bool {
	return !c.Refused() && (len(c.Missing) == 0 || c.Kind == dynamo.LSI)
}

// Verdict is what patterns check's verdict says of the projection alone,
// in its words: why the pattern is not one request, "" when the index
// gives it what it needs (the UI's patterns view shows the same).
func (c Projection) Verdict() string {
	switch {
	case c.Refused():
		return fmt.Sprintf("not sent: DynamoDB refuses a filter on %s, which %s does not project", strings.Join(c.Filtered, ", "), c.Index)
	case !c.OneRequest():
		return fmt.Sprintf("a GetItem per item: %s does not project %s", c.Index, strings.Join(c.Missing, ", "))
	}
	return ""
}

// Sentence says what the comparison found, in one sentence; items is the
// number of items the pattern's Query returned (-1 when it was not sent).
func (c Projection) Sentence(items int) string {
	what := fmt.Sprintf("%s (%s)", c.Index, c.Projection)
	missing := strings.Join(c.Missing, ", ")
	switch {
	case c.Refused():
		return fmt.Sprintf("the filter reads %s, which %s does not project: DynamoDB refuses a filter on an attribute its index does not hold, so the pattern was not sent.", strings.Join(c.Filtered, ", "), what)
	case c.Needs == nil:
		return fmt.Sprintf("%s returns %s of each item; list what the pattern needs under attributes: to check it.", what, strings.Join(c.Returns, ", "))
	case len(c.Missing) == 0:
		return fmt.Sprintf("%s projects every attribute the pattern needs.", what)
	case c.Kind == dynamo.LSI:
		return fmt.Sprintf("%s does not project %s: DynamoDB fetches it from the base table for each item when the Query asks for it (a projection or Select ALL_ATTRIBUTES), at extra read cost.", what, missing)
	case items >= 0:
		return fmt.Sprintf("%s does not project %s: each item would need a GetItem on the base table (%s here), so the pattern is not one request.", what, missing, itemsText(items))
	}
	return fmt.Sprintf("%s does not project %s: each item would need a GetItem on the base table, so the pattern is not one request.", what, missing)
}

func itemsText(n int) string {
	if n == 1 {
		return "1 more request"
	}
	return fmt.Sprintf("%d more requests", n)
}
