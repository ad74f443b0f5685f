package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
)

// hostileStatus is a parameter value that, pasted into the filter's text,
// would turn it into "every item".
const hostileStatus = `x" OR size(PK) > 0 OR "`

const filterParamPatterns = `patterns:
  - name: orders by status above
    pk: "CUST#{customerId}"
    sk: {begins_with: "ORDER#"}
    filter: 'status = "{status}" AND total >= {min}'
    example: {customerId: "1", status: OPEN, min: "20"}
`

// --param fills a filter's placeholders end to end, through the patterns
// file, against DynamoDB Local: the Query returns exactly the items the
// filter selects, a value with quotes and OR in it being one value.
func TestPatternsRunFilterParameters(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	table := makeCase(t, layoutCase{def: dynamotest.PKSK(), items: []dynamo.Item{
		{"PK": s("CUST#1"), "SK": s("ORDER#1"), "status": s("OPEN"), "total": n("10")},
		{"PK": s("CUST#1"), "SK": s("ORDER#2"), "status": s("OPEN"), "total": n("50")},
		{"PK": s("CUST#1"), "SK": s("ORDER#3"), "status": s(hostileStatus), "total": n("5")},
		{"PK": s("CUST#1"), "SK": s("ORDER#4"), "status": s("SHIPPED"), "total": n("100")},
	}})
	file := filepath.Join(t.TempDir(), "dynascope.yaml")
	if err := os.WriteFile(file, []byte(filterParamPatterns), 0o644); err != nil {
		t.Fatal(err)
	}
	ep := dynamotest.Endpoint(t)
	var filters []string // as each run printed it
	runSKs := func(params ...string) []string {
		t.Helper()
		args := []string{"run", "orders by status above", "--patterns", file, "--table", table, "--endpoint-url", ep}
		for _, p := range params {
			args = append(args, "--param", p)
		}
		out, _, err := runPatterns(t, args...)
		if err != nil {
			t.Fatalf("run %v: %v", params, err)
		}
		q := decodeQuery(t, out)
		if len(q.Requests) != 1 || q.ScannedCount != 4 || q.Filter == nil || len(q.Notes) == 0 {
			t.Errorf("run %v: %d requests, %d scanned, filter %v, notes %q; want 1 reading the 4 orders, with its filter and note", params, len(q.Requests), q.ScannedCount, q.Filter, q.Notes)
		}
		filters = append(filters, *q.Filter)
		return sortKeys(t, q.Items)
	}
	if got := runSKs(); !slices.Equal(got, []string{"ORDER#2"}) {
		t.Errorf("with the example (OPEN, 20): %v, want ORDER#2", got)
	}
	if got := runSKs("min=0"); !slices.Equal(got, []string{"ORDER#1", "ORDER#2"}) {
		t.Errorf("min=0: %v, want ORDER#1 and ORDER#2", got)
	}
	if got := runSKs("status="+hostileStatus, "min=0"); !slices.Equal(got, []string{"ORDER#3"}) {
		t.Errorf("status=%s: %v, want only ORDER#3, whose status is that text", hostileStatus, got)
	}
	if got := runSKs("status=SHIPPED", "min=1e2"); !slices.Equal(got, []string{"ORDER#4"}) {
		t.Errorf("SHIPPED, 1e2: %v, want ORDER#4", got)
	}
	// The output says the filter as sent: each value one quoted literal.
	if want := []string{`status = "OPEN" AND total >= 20`, `status = "OPEN" AND total >= 0`,
		`status = "x\" OR size(PK) > 0 OR \"" AND total >= 0`, `status = "SHIPPED" AND total >= 1e2`}; !slices.Equal(filters, want) {
		t.Errorf("filters %q, want %q", filters, want)
	}

	_, _, err := runPatterns(t, "run", "orders by status above", "--patterns", file, "--table", table, "--endpoint-url", ep, "--param", "min=lots")
	want := `pattern "orders by status above": the filter compares {min} as a number (it is not in quotes), and "lots" is not a number; give a number, or write "{min}" in the filter to compare text.`
	if err == nil || err.Error() != want {
		t.Errorf("min=lots: %v\nwant %s", err, want)
	}

	// check runs the filter with the example's values.
	out, _, err := runPatterns(t, "check", "--patterns", file, "--table", table, "--endpoint-url", ep, "--output", "json")
	if err != nil {
		t.Fatal(err)
	}
	if c := decodeCheck(t, out); len(c.Patterns) != 1 || c.Patterns[0].Items != 1 || !c.Patterns[0].OneRequest {
		t.Errorf("check: %+v", c)
	}

	// show's code carries the value as one expression value, and names the
	// parameters it holds in a comment none of them can end.
	out, _, err = runPatterns(t, "show", "orders by status above", "--patterns", file, "--table", table, "--endpoint-url", ep,
		"--lang", "cli", "--param", "status="+hostileStatus)
	if err != nil || !strings.Contains(out, `":0":{"S":"x\" OR size(PK) > 0 OR \""}`) || !strings.Contains(out, `--filter-expression '(#0 = :0) AND (#1 >= :1)'`) ||
		!strings.HasPrefix(out, `# parameters: customerId="1", status="x\" OR size(PK) > 0 OR \"", min="20"`+"\n") {
		t.Errorf("show: %v\n%s", err, out)
	}
	out, _, err = runPatterns(t, "show", "orders by status above", "--patterns", file, "--table", table, "--endpoint-url", ep,
		"--lang", "python", "--param", "status=a\nimport os")
	if err != nil || !strings.HasPrefix(out, `# parameters: customerId="1", status="a\nimport os", min="20"`+"\n") || strings.Contains(out, "\nimport os") {
		t.Errorf("show with a newline in a value: %v\n%s", err, out)
	}
}

// list names a filter's parameters with the keys', in text and JSON.
func TestPatternsListFilterParameters(t *testing.T) {
	file := filepath.Join(t.TempDir(), "dynascope.yaml")
	if err := os.WriteFile(file, []byte(filterParamPatterns), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runPatterns(t, "list", "--patterns", file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "PARAMETERS") || !strings.HasSuffix(strings.TrimSpace(lines[1]), `{min}"  customerId, status, min`) {
		t.Errorf("list:\n%s", out)
	}
	out, _, err = runPatterns(t, "list", "--patterns", file, "--output", "json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Patterns []struct {
			Filter     string
			Parameters []string
			Example    map[string]string
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Patterns) != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
	p := got.Patterns[0]
	if !slices.Equal(p.Parameters, []string{"customerId", "status", "min"}) || p.Example["min"] != "20" || p.Filter != `status = "{status}" AND total >= {min}` {
		t.Errorf("list JSON: %+v", p)
	}
}
