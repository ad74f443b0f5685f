package patterns

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
)

const paramFile = `table: App
patterns:
  - name: open orders above
    pk: "CUST#{customerId}"
    sk: {begins_with: "ORDER#"}
    filter: 'status = "{status}" AND total > {min}'
    example: {customerId: "42", status: OPEN, min: "100"}
`

// A filter's placeholders are parameters of the pattern, after those of the
// keys, filled from the example by default or from the given values.
func TestFilterParameters(t *testing.T) {
	set, err := ParsePatterns("dynascope.yaml", []byte(paramFile))
	if err != nil {
		t.Fatal(err)
	}
	p := set.Patterns[0]
	if got := p.Parameters(); !slices.Equal(got, []string{"customerId", "status", "min"}) {
		t.Errorf("parameters %q", got)
	}
	if err := p.Validate(demoTable); err != nil {
		t.Fatal(err)
	}
	r, err := p.Resolve(demoTable, p.Example)
	if err != nil {
		t.Fatal(err)
	}
	if r.Query == nil || r.Query.Filter != `status = "OPEN" AND total > 100` || r.Query.PK != "CUST#42" {
		t.Fatalf("resolved %+v", r.Query)
	}
	// The summary keeps the placeholders.
	if s := p.Summary(); !strings.Contains(s, `filter "status = \"{status}\" AND total > {min}"`) {
		t.Errorf("summary %s", s)
	}

	// A value with quotes and OR is one string value of the request.
	hostile := `x" OR size(PK) > 0 OR "`
	r, err = p.Resolve(demoTable, map[string]string{"customerId": "42", "status": hostile, "min": "-1.5"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := dynamo.BuildQuery(dynamo.KeySchema{PK: demoTable.PK, SK: demoTable.SK}, *r.Query)
	if err != nil {
		t.Fatal(err)
	}
	var strs, nums []string
	for _, v := range b.Input.ExpressionAttributeValues {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			strs = append(strs, v.Value)
		case *types.AttributeValueMemberN:
			nums = append(nums, v.Value)
		}
	}
	slices.Sort(strs)
	if !slices.Equal(strs, []string{"CUST#42", "ORDER#", hostile}) || !slices.Equal(nums, []string{"-1.5"}) {
		t.Errorf("values: strings %q, numbers %q", strs, nums)
	}
	if f := *b.Input.FilterExpression; strings.Contains(f, "size") || strings.Contains(f, "OR") {
		t.Errorf("FilterExpression %q holds the value's text", f)
	}

	// A bare placeholder takes a number only: one sentence otherwise.
	_, err = p.Resolve(demoTable, map[string]string{"customerId": "42", "status": "OPEN", "min": "lots"})
	want := `pattern "open orders above": the filter compares {min} as a number (it is not in quotes), and "lots" is not a number; give a number, or write "{min}" in the filter to compare text.`
	if err == nil || err.Error() != want {
		t.Errorf("error\n got %v\nwant %s", err, want)
	}
}

// Mistakes in a filter's placeholders are found when the file is loaded,
// with the line.
func TestFilterParameterMistakes(t *testing.T) {
	head := "table: App\npatterns:\n  - name: x\n    pk: a\n"
	for _, c := range []struct{ name, src, want string }{
		{"placeholder as an attribute", head + "    filter: '{attr} = \"OPEN\"'\n    example: {attr: status}\n",
			`dynascope.yaml:5: pattern "x": the filter is not valid at column 1: {attr} stands where an attribute name is expected, but a placeholder stands for a value only ("{attr}" for text, {attr} for a number).`},
		{"placeholder as an operator", head + "    filter: 'total {op} 5'\n",
			`dynascope.yaml:5: pattern "x": the filter is not valid at column 7: {op} stands where an operator is expected, but a placeholder stands for a value only ("{op}" for text, {op} for a number).`},
		{"placeholder in a quoted name", head + "    filter: '`{a}` = 1'\n",
			`dynascope.yaml:5: pattern "x": the filter is not valid at column 1: {a} stands in an attribute name, but a placeholder stands for a value only ("{a}" for text, {a} for a number).`},
		{"no example value", head + "    filter: 'total > {min}'\n",
			`dynascope.yaml:3: pattern "x": placeholder {min} has no value in example; add example: {min: ...} so that check can run it.`},
		{"example not a number", head + "    filter: 'total > {min}'\n    example: {min: many}\n",
			`dynascope.yaml:6: pattern "x": example: the filter compares {min} as a number (it is not in quotes), and "many" is not a number; give a number, or write "{min}" in the filter to compare text.`},
		{"unclosed in text", head + "    filter: 'status = \"{s\"'\n",
			`dynascope.yaml:5: pattern "x": the filter is not valid at column 10: the text has a { without its closing }; write {{ for a literal brace.`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParsePatterns("dynascope.yaml", []byte(c.src))
			if err == nil || err.Error() != c.want {
				t.Errorf("error\n got %v\nwant %s", err, c.want)
			}
		})
	}
}

// A filter's placeholders name no attribute: the projection check reads
// the attributes around them.
func TestCheckProjectionOfAFilterWithParameters(t *testing.T) {
	p := Pattern{Name: "p", Index: "ByStatus", PK: "DELIVERED", Filter: `total > {min} AND note = "{note}"`}
	c, ok := p.CheckProjection(projectedTable)
	if !ok || !slices.Equal(c.FilterReads, []string{"total", "note"}) || !slices.Equal(c.Filtered, []string{"note"}) || !c.Refused() {
		t.Errorf("projection %+v", c)
	}
}

// A hand-made filter with braces in its text is saved with them doubled, so
// that the pattern sends what the query sent and has no parameter.
func TestPatternFromQueryEscapesFilterBraces(t *testing.T) {
	q := dynamo.QueryInput{Table: "App", PK: "CUST#7", Filter: "note = \"{x}\" AND `a{b}` = 1"}
	p := PatternFromQuery("braces", "", q)
	if got := p.Parameters(); len(got) != 0 {
		t.Errorf("parameters %q", got)
	}
	r, err := p.Resolve(projectedTable, nil)
	if err != nil || r.Query == nil || r.Query.Filter != q.Filter {
		t.Fatalf("resolved %+v, %v", r.Query, err)
	}
	path := filepath.Join(t.TempDir(), "dynascope.yaml")
	if err := SavePattern(path, p); err != nil {
		t.Fatal(err)
	}
	set, err := LoadPatterns(path)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := set.Patterns[0].Resolve(projectedTable, nil); err != nil || r.Query.Filter != q.Filter {
		t.Errorf("after saving: %+v, %v", r.Query, err)
	}
}
