package patterns

// Checking patterns against the table and turning them into requests.

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"dynascope/dynamo"
	"dynascope/filterexpr"
)

// Resolved is a pattern with its parameters filled in: exactly one of Query
// and Get is set. A pattern that fixes the full primary key of the base table
// is a GetItem, as access-pattern-first design would write it.
type Resolved struct {
	Query *dynamo.QueryInput
	Get   *dynamo.GetInput
}

// Operation names the request: "GetItem" or "Query".
func (r Resolved) Operation() string {
	if r.Get != nil {
		return "GetItem"
	}
	return "Query"
}

// parseTemplate splits "CUST#{customerId}" into its literal text and
// parameters. {{ and }} are literal braces, so that any key value can be
// written, including one saved from a hand-made query. The filter's quoted
// values read the same syntax (filterexpr.SplitTemplate).
func parseTemplate(s string) ([]filterexpr.TemplatePart, error) { return filterexpr.SplitTemplate(s) }

func fillTemplate(s string, params map[string]string) string {
	parts, _ := parseTemplate(s) // checked when the pattern was loaded or resolved
	var b strings.Builder
	for _, p := range parts {
		if p.Param {
			b.WriteString(params[p.Text])
		} else {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// escapeTemplate writes a literal key value as a template.
func escapeTemplate(s string) string {
	return strings.NewReplacer("{", "{{", "}", "}}").Replace(s)
}

// parameters lists the placeholders of pk, sk and the filter in order of
// appearance, or says which template is malformed.
func (p Pattern) parameters() ([]string, error) {
	var names []string
	add := func(field, s string) error {
		parts, err := parseTemplate(s)
		if err != nil {
			return p.errorAt(field, "%s %s", field, err)
		}
		for _, part := range parts {
			if part.Param && !slices.Contains(names, part.Text) {
				names = append(names, part.Text)
			}
		}
		return nil
	}
	if err := add("pk", p.PK); err != nil {
		return nil, err
	}
	for _, v := range p.SK.Values {
		if err := add("sk", v); err != nil {
			return nil, err
		}
	}
	tpl, err := p.filterTemplate()
	if err != nil {
		return nil, err
	}
	for _, n := range tpl.Parameters() {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names, nil
}

// filterTemplate is the pattern's filter read as a template: its quoted
// values may hold {name} placeholders (text), and a bare {name} is a number
// (filterexpr/template.go).
func (p Pattern) filterTemplate() (filterexpr.Template, error) {
	tpl, err := filterexpr.ParseTemplate(p.Filter)
	if err != nil {
		return tpl, p.errorAt("filter", "%s", userMsg(err))
	}
	return tpl, nil
}

// fillFilter is the filter with the parameters in its placeholders, as
// the text a QueryInput carries: each value is one literal value of the
// condition, quoted and escaped, so that it reaches DynamoDB as one
// ExpressionAttributeValue whatever it holds.
func (p Pattern) fillFilter(params map[string]string) (string, error) {
	tpl, err := p.filterTemplate()
	if err != nil {
		return "", err
	}
	e, err := tpl.Fill(params)
	if err != nil {
		return "", &PatternError{Pattern: p.Name, Msg: userMsg(err)}
	}
	return e.String(), nil
}

// Parameters lists the pattern's parameters ({name} placeholders) in the
// order they appear, for prompting; Example holds their example values.
func (p Pattern) Parameters() []string {
	names, _ := p.parameters()
	return names
}

// ParamsNote names the pattern's parameters (of its keys and its filter)
// with the values params gives them, for a comment line above the code
// that sends its request (codegen.Comment): each value quoted, so that
// none can end the comment and become code. "" when the pattern has none.
func (p Pattern) ParamsNote(params map[string]string) string {
	names := p.Parameters()
	if len(names) == 0 {
		return ""
	}
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + "=" + strconv.Quote(params[n])
	}
	return "parameters: " + strings.Join(parts, ", ")
}

// errorAt builds an error pointing at one field of the pattern, or at the
// pattern itself when the field is absent or the pattern has no file.
func (p Pattern) errorAt(field, format string, a ...any) *PatternError {
	line := p.lines[field]
	if line == 0 {
		line = p.Line
	}
	return &PatternError{File: p.file, Line: line, Pattern: p.Name, Msg: fmt.Sprintf(format, a...)}
}

// Validate checks the patterns against the table they will run on. The first
// mistake is returned, in file order.
func (s *PatternSet) Validate(t dynamo.Table) error {
	for _, p := range s.Patterns {
		if err := p.Validate(t); err != nil {
			return err
		}
	}
	return nil
}

// Validate checks one pattern against the table (from DescribeTable): its
// index exists, a sort-key condition has a sort key to apply to, and its
// example gives key values of the right types.
func (p Pattern) Validate(t dynamo.Table) error {
	ks := dynamo.KeySchema{PK: t.PK, SK: t.SK}
	where := "table " + t.Name
	if p.Index != "" {
		ix, ok := t.IndexByName(p.Index)
		if !ok {
			names := make([]string, len(t.Indexes))
			for i, x := range t.Indexes {
				names[i] = x.Name
			}
			if len(names) == 0 {
				return p.errorAt("index", "index %q does not exist: table %s has no secondary indexes", p.Index, t.Name)
			}
			return p.errorAt("index", "index %q does not exist on table %s; its indexes are %s", p.Index, t.Name, strings.Join(names, ", "))
		}
		ks = dynamo.KeySchema{Index: ix.Name, PK: ix.PK, SK: ix.SK}
		where = "index " + ix.Name
		if p.Consistent && ix.Kind == dynamo.GSI {
			return p.errorAt("consistent", "global secondary index %s cannot be read consistently; remove consistent: true", ix.Name)
		}
	}
	if p.SK.Op != dynamo.SKNone && ks.SK == nil {
		return p.errorAt("sk", "%s has no sort key, so the sort-key condition sk cannot apply; remove sk", where)
	}
	r, err := p.Resolve(t, p.Example)
	if err != nil {
		return err
	}
	var pkText string
	if r.Query != nil {
		pkText = r.Query.PK
	} else {
		pkText = r.Get.PK
	}
	if _, err := dynamo.KeyValue(ks.PK, "partition key", pkText); err != nil {
		return p.errorAt("pk", "%s", userMsg(err))
	}
	if r.Query != nil {
		if _, err := dynamo.BuildQuery(ks, *r.Query); err != nil {
			return p.errorAt("sk", "%s", userMsg(err))
		}
	} else if t.SK != nil {
		if _, err := dynamo.KeyValue(*t.SK, "sort key", r.Get.SK); err != nil {
			return p.errorAt("sk", "%s", userMsg(err))
		}
	}
	return nil
}

func userMsg(err error) string {
	var ue *dynamo.UserError
	if errors.As(err, &ue) {
		return strings.TrimRight(ue.Msg, ".")
	}
	return err.Error()
}

// Resolve fills in the parameters and returns the request the pattern makes
// on table t: a GetItem when it fixes the base table's full primary key (pk
// and sk eq, or pk alone on a table without sort key), a Query otherwise.
// params must give every parameter and nothing else; start from Example to
// prefill.
func (p Pattern) Resolve(t dynamo.Table, params map[string]string) (Resolved, error) {
	names, err := p.parameters()
	if err != nil {
		return Resolved{}, err
	}
	for _, n := range names {
		if _, ok := params[n]; !ok {
			return Resolved{}, &PatternError{Pattern: p.Name, Msg: fmt.Sprintf("it needs a value for the parameter %s (placeholder {%s})", n, n)}
		}
	}
	for _, n := range slices.Sorted(maps.Keys(params)) {
		if slices.Contains(names, n) {
			continue
		}
		if len(names) == 0 {
			return Resolved{}, &PatternError{Pattern: p.Name, Msg: fmt.Sprintf("it has no parameters, so %s cannot be given", n)}
		}
		return Resolved{}, &PatternError{Pattern: p.Name, Msg: fmt.Sprintf("it has no parameter %s; its parameters are %s", n, strings.Join(names, ", "))}
	}
	params, err = p.typedParams(params)
	if err != nil {
		return Resolved{}, &PatternError{Pattern: p.Name, Msg: err.Error()}
	}
	filter, err := p.fillFilter(params)
	if err != nil {
		return Resolved{}, err
	}
	pk := fillTemplate(p.PK, params)
	var skVals []string
	for _, v := range p.SK.Values {
		skVals = append(skVals, fillTemplate(v, params))
	}
	// A GetItem has no filter: a pattern with one stays a Query.
	if p.Index == "" && p.Filter == "" && ((t.SK == nil && p.SK.Op == dynamo.SKNone) || (t.SK != nil && p.SK.Op == dynamo.SKEq)) {
		g := &dynamo.GetInput{Table: t.Name, PK: pk, Consistent: p.Consistent}
		if len(skVals) > 0 {
			g.SK = skVals[0]
		}
		return Resolved{Get: g}, nil
	}
	q := &dynamo.QueryInput{Table: t.Name, Index: p.Index, PK: pk, Reverse: p.Reverse, Limit: p.Limit, Consistent: p.Consistent, Filter: filter}
	if p.SK.Op != dynamo.SKNone {
		q.SK = dynamo.SKCond{Op: p.SK.Op, Values: skVals}
	}
	return Resolved{Query: q}, nil
}

// Summary describes the pattern in one line, placeholders kept:
// pk = "CUST#{customerId}", sk begins_with "ORDER#", newest first, limit 1
// (and ", entity Order" when it names one).
func (p Pattern) Summary() string {
	parts := []string{"pk = " + strconv.Quote(p.PK)}
	switch p.SK.Op {
	case dynamo.SKNone:
	case dynamo.SKBetween:
		if len(p.SK.Values) == 2 {
			parts = append(parts, fmt.Sprintf("sk between %q and %q", p.SK.Values[0], p.SK.Values[1]))
		}
	default:
		if len(p.SK.Values) == 1 {
			parts = append(parts, fmt.Sprintf("sk %s %q", skOpName(p.SK.Op), p.SK.Values[0]))
		}
	}
	if p.Filter != "" {
		parts = append(parts, "filter "+strconv.Quote(p.Filter))
	}
	if p.Reverse {
		parts = append(parts, "newest first")
	}
	if p.Limit > 0 {
		parts = append(parts, fmt.Sprintf("limit %d", p.Limit))
	}
	if p.Consistent {
		parts = append(parts, "consistent")
	}
	if p.Index != "" {
		parts = append(parts, "on "+p.Index)
	}
	if p.Entity != "" {
		parts = append(parts, "entity "+p.Entity)
	}
	return strings.Join(parts, ", ")
}

// PatternFromQuery turns a hand-made query into a pattern without
// parameters, ready for SavePattern; braces in its values (and in its
// filter's text and names) are escaped.
func PatternFromQuery(name, description string, q dynamo.QueryInput) Pattern {
	p := Pattern{Name: name, Description: description, Index: q.Index, PK: escapeTemplate(q.PK),
		Reverse: q.Reverse, Limit: q.Limit, Consistent: q.Consistent, Filter: escapeTemplate(q.Filter)}
	if q.SK.Op != dynamo.SKNone {
		p.SK = dynamo.SKCond{Op: q.SK.Op}
		for _, v := range q.SK.Values {
			p.SK.Values = append(p.SK.Values, escapeTemplate(v))
		}
	}
	return p
}

// PatternFromGet turns a hand-made GetItem into a pattern without
// parameters; SK is left out when empty (a table without sort key).
func PatternFromGet(name, description string, g dynamo.GetInput) Pattern {
	p := Pattern{Name: name, Description: description, PK: escapeTemplate(g.PK), Consistent: g.Consistent}
	if g.SK != "" {
		p.SK = dynamo.SKCond{Op: dynamo.SKEq, Values: []string{escapeTemplate(g.SK)}}
	}
	return p
}
