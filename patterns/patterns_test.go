package patterns

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"dynascope/demodata"
	"dynascope/dynamo"
)

// issueFile is the patterns file of the issue, verbatim.
const issueFile = `table: App
patterns:
  - name: customer with orders
    description: one request returns the profile and every order
    pk: "CUST#{customerId}"
    example: {customerId: "42"}
  - name: latest order
    pk: "CUST#{customerId}"
    sk: {begins_with: "ORDER#"}
    reverse: true
    limit: 1
    example: {customerId: "42"}
  - name: order with line items
    pk: "ORDER#{orderId}"
    example: {orderId: "A17"}
  - name: open orders for a warehouse
    index: GSI1
    pk: "WH#{warehouseId}"
    sk: {begins_with: "OPEN#"}
    example: {warehouseId: "1"}
  - name: one line item
    pk: "ORDER#{orderId}"
    sk: {eq: "ITEM#{line}"}
    example: {orderId: "A17", line: "1"}
`

// demoTable is the demo table as DescribeTable reports it.
var demoTable = dynamo.Table{
	Name: "App",
	PK:   dynamo.KeyAttr{Name: "PK", Type: "S"},
	SK:   &dynamo.KeyAttr{Name: "SK", Type: "S"},
	Indexes: []dynamo.Index{
		{Name: "GSI1", Kind: dynamo.GSI, PK: dynamo.KeyAttr{Name: "GSI1PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "GSI1SK", Type: "S"}, Projection: "ALL"},
		{Name: "ByCountry", Kind: dynamo.GSI, PK: dynamo.KeyAttr{Name: "country", Type: "S"}, Projection: "KEYS_ONLY"},
	},
}

func TestParseIssueFile(t *testing.T) {
	set, err := ParsePatterns("dynascope.yaml", []byte(issueFile))
	if err != nil {
		t.Fatal(err)
	}
	if set.Table != "App" || len(set.Patterns) != 5 {
		t.Fatalf("table %q, %d patterns", set.Table, len(set.Patterns))
	}
	latest, err := set.Find("latest order")
	if err != nil {
		t.Fatal(err)
	}
	want := Pattern{
		Name: "latest order", PK: "CUST#{customerId}",
		SK:      dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"ORDER#"}},
		Reverse: true, Limit: 1, Example: map[string]string{"customerId": "42"}, Line: 7,
	}
	latest.file, latest.lines = "", nil
	if !reflect.DeepEqual(latest, want) {
		t.Errorf("latest order:\n got %+v\nwant %+v", latest, want)
	}
	if got := set.Patterns[0].Description; got != "one request returns the profile and every order" {
		t.Errorf("description %q", got)
	}
	if got := set.Patterns[3].Index; got != "GSI1" {
		t.Errorf("index %q", got)
	}
	if got := set.Patterns[4].Parameters(); !reflect.DeepEqual(got, []string{"orderId", "line"}) {
		t.Errorf("parameters %v", got)
	}
	if err := set.Validate(demoTable); err != nil {
		t.Errorf("validate: %v", err)
	}
	if _, err := set.Find("lastest order"); err == nil || !strings.Contains(err.Error(), `no pattern "lastest order"; its patterns are "customer with orders", "latest order"`) {
		t.Errorf("find: %v", err)
	}
}

// Each kind of mistake gives one sentence naming the file, the line and the
// pattern.
func TestPatternFileMistakes(t *testing.T) {
	const head = "table: App\npatterns:\n"
	cases := []struct {
		name, src, want string
	}{
		{"bad YAML", head + "  - name: x\n    pk: \"CUST#1\n",
			`dynascope.yaml:4: the file is not valid YAML: found unexpected end of stream.`},
		{"bad YAML on line 1", "table: App: x\n",
			`dynascope.yaml:1: the file is not valid YAML: mapping values are not allowed in this context.`},
		{"empty file", "# nothing yet\n",
			`dynascope.yaml: the file is empty; it needs a patterns: list.`},
		{"not a mapping", "- name: x\n",
			`dynascope.yaml:1: the file must be a mapping with table: and patterns:.`},
		{"unknown top-level field", "table: App\npattern:\n  - name: x\n",
			`dynascope.yaml:2: unknown field "pattern" (did you mean "patterns"?); the file has table:, keys:, check:, entities: and patterns:.`},
		{"patterns not a list", head[:len("table: App\n")] + "patterns: {name: x}\n",
			`dynascope.yaml:2: patterns: must be a list with one item (- name: ...) per pattern.`},
		{"unknown field", head + "  - name: latest order\n    pk: \"CUST#42\"\n    revers: true\n",
			`dynascope.yaml:5: pattern "latest order": unknown field "revers" (did you mean "reverse"?).`},
		{"unknown field far from any", head + "  - name: x\n    pk: \"CUST#42\"\n    cache: 3\n",
			`dynascope.yaml:5: pattern "x": unknown field "cache".`},
		{"filter not text", head + "  - name: x\n    pk: a\n    filter: [status]\n",
			`dynascope.yaml:5: pattern "x": filter must be text such as 'status = "OPEN"', not a list of 1.`},
		{"filter not a condition", head + "  - name: x\n    pk: a\n    filter: total >\n",
			`dynascope.yaml:5: pattern "x": the filter is not valid at column 8: expected an attribute or a value, found the end.`},
		{"attributes not a list", head + "  - name: x\n    pk: a\n    attributes: total\n",
			`dynascope.yaml:5: pattern "x": attributes must list the attributes the pattern needs of each item, e.g. [total, status], not "total".`},
		{"attributes empty", head + "  - name: x\n    pk: a\n    attributes: []\n",
			`dynascope.yaml:5: pattern "x": attributes must list the attributes the pattern needs of each item, e.g. [total, status], not a list of 0.`},
		{"attributes not names", head + "  - name: x\n    pk: a\n    attributes:\n      - total\n      - {a: 1}\n",
			`dynascope.yaml:7: pattern "x": attributes lists a mapping; give attribute names.`},
		{"attributes two in one", head + "  - name: x\n    pk: a\n    attributes: [\"total, status\"]\n",
			`dynascope.yaml:5: pattern "x": attributes lists "total, status", which names 2 attributes; give one per line.`},
		{"attributes twice", head + "  - name: x\n    pk: a\n    attributes: [total, status, total]\n",
			`dynascope.yaml:5: pattern "x": attributes lists "total" twice.`},
		{"field twice", head + "  - name: x\n    pk: a\n    pk: b\n",
			`dynascope.yaml:5: pattern "x": field "pk" is given twice (first at line 4).`},
		{"unknown sk operator", head + "  - name: x\n    pk: a\n    sk: {starts_with: \"ORDER#\"}\n",
			`dynascope.yaml:5: pattern "x": unknown sort-key operator "starts_with"; use one of eq, lt, le, gt, ge, between, begins_with.`},
		{"misspelt sk operator", head + "  - name: x\n    pk: a\n    sk:\n      begin_with: \"ORDER#\"\n",
			`dynascope.yaml:6: pattern "x": unknown sort-key operator "begin_with" (did you mean "begins_with"?); use one of eq, lt, le, gt, ge, between, begins_with.`},
		{"two sk operators", head + "  - name: x\n    pk: a\n    sk:\n      ge: \"A\"\n      lt: \"B\"\n",
			`dynascope.yaml:7: pattern "x": sk has two conditions (ge and lt); DynamoDB allows one sort-key condition per query.`},
		{"sk not a condition", head + "  - name: x\n    pk: a\n    sk: \"ORDER#\"\n",
			`dynascope.yaml:5: pattern "x": sk must be one condition such as {begins_with: "ORDER#"}, using one of eq, lt, le, gt, ge, between, begins_with.`},
		{"between one value", head + "  - name: x\n    pk: a\n    sk: {between: \"A\"}\n",
			`dynascope.yaml:5: pattern "x": between takes two values, between: [LOW, HIGH], not "A".`},
		{"between three values", head + "  - name: x\n    pk: a\n    sk: {between: [A, B, C]}\n",
			`dynascope.yaml:5: pattern "x": between takes two values, between: [LOW, HIGH], not a list of 3.`},
		{"eq with a list", head + "  - name: x\n    pk: a\n    sk: {eq: [A, B]}\n",
			`dynascope.yaml:5: pattern "x": eq takes one value, not a list of 2.`},
		{"placeholder without example", head + "  - name: latest order\n    pk: \"CUST#{customerId}\"\n",
			`dynascope.yaml:3: pattern "latest order": placeholder {customerId} has no value in example; add example: {customerId: ...} so that check can run it.`},
		{"placeholder missing from example", head + "  - name: one line item\n    pk: \"ORDER#{orderId}\"\n    sk: {eq: \"ITEM#{line}\"}\n    example: {orderId: \"A17\"}\n",
			`dynascope.yaml:6: pattern "one line item": placeholder {line} has no value in example; add example: {line: ...} so that check can run it.`},
		{"unknown parameter in example", head + "  - name: x\n    pk: \"CUST#{customerId}\"\n    example: {customerId: \"42\", custId: \"42\"}\n",
			`dynascope.yaml:5: pattern "x": example gives "custId", which is not a placeholder of pk, sk or filter.`},
		{"example value not plain", head + "  - name: x\n    pk: \"CUST#{id}\"\n    example: {id: [1, 2]}\n",
			`dynascope.yaml:5: pattern "x": example gives a list of 2 for "id"; give a plain value.`},
		{"bad placeholder", head + "  - name: x\n    pk: \"CUST#{customer id}\"\n",
			`dynascope.yaml:4: pattern "x": pk "CUST#{customer id}" has the placeholder {customer id}, but a placeholder is a name of letters, digits and _ (write {{ and }} for literal braces).`},
		{"unclosed placeholder", head + "  - name: x\n    pk: a\n    sk: {begins_with: \"ORDER#{date\"}\n",
			`dynascope.yaml:5: pattern "x": sk "ORDER#{date" has a { without its closing }; write {{ for a literal brace.`},
		{"limit zero", head + "  - name: x\n    pk: a\n    limit: 0\n",
			`dynascope.yaml:5: pattern "x": limit must be a positive whole number, not "0".`},
		{"limit negative", head + "  - name: x\n    pk: a\n    limit: -3\n",
			`dynascope.yaml:5: pattern "x": limit must be a positive whole number, not "-3".`},
		{"limit fraction", head + "  - name: x\n    pk: a\n    limit: 1.5\n",
			`dynascope.yaml:5: pattern "x": limit must be a positive whole number, not "1.5".`},
		{"limit text", head + "  - name: x\n    pk: a\n    limit: ten\n",
			`dynascope.yaml:5: pattern "x": limit must be a positive whole number, not "ten".`},
		{"limit too large", head + "  - name: x\n    pk: a\n    limit: 3000000000\n",
			`dynascope.yaml:5: pattern "x": limit must be a positive whole number, not "3000000000".`},
		{"reverse not a bool", head + "  - name: x\n    pk: a\n    reverse: yes\n",
			`dynascope.yaml:5: pattern "x": reverse must be true or false, not "yes".`},
		{"duplicate names", head + "  - name: x\n    pk: a\n  - name: y\n    pk: b\n  - name: x\n    pk: c\n",
			`dynascope.yaml:7: pattern "x": the name is used twice (first at line 3); pattern names must be unique.`},
		{"missing pk", head + "  - name: latest order\n    sk: {begins_with: \"ORDER#\"}\n",
			`dynascope.yaml:3: pattern "latest order": it has no pk: every access pattern names one partition key value.`},
		{"empty pk", head + "  - name: x\n    pk: \"\"\n",
			`dynascope.yaml:4: pattern "x": pk is empty; a partition key value cannot be empty.`},
		{"missing name", head + "  - name: a\n    pk: a\n  - pk: \"CUST#42\"\n    limit: 1\n",
			`dynascope.yaml:5: pattern #2: it has no name; give it one with name: (it is how run and check refer to it).`},
		{"name not text", head + "  - name: [a]\n    pk: a\n",
			`dynascope.yaml:3: pattern #1: name must be text, not a list of 1.`},
		{"pattern not a mapping", head + "  - latest order\n",
			`dynascope.yaml:3: pattern #1: each pattern must be a mapping (name:, pk:, ...).`},
		{"second document", head + "  - name: x\n    pk: a\n---\ntable: B\n",
			`dynascope.yaml:5: the file holds a second YAML document; keep everything in one.`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParsePatterns("dynascope.yaml", []byte(c.src))
			if err == nil {
				t.Fatalf("no error for\n%s", c.src)
			}
			if err.Error() != c.want {
				t.Errorf("error\n got %s\nwant %s", err, c.want)
			}
			var pe *PatternError
			if !errors.As(err, &pe) {
				t.Errorf("%T is not a *PatternError", err)
			}
		})
	}
}

// Mistakes that only the table's description reveals.
func TestPatternValidateAgainstTable(t *testing.T) {
	noSK := dynamo.Table{Name: "Users", PK: dynamo.KeyAttr{Name: "id", Type: "S"}}
	numeric := dynamo.Table{Name: "Scores", PK: dynamo.KeyAttr{Name: "player", Type: "N"}, SK: &dynamo.KeyAttr{Name: "at", Type: "N"}}
	const head = "table: App\npatterns:\n"
	cases := []struct {
		name  string
		table dynamo.Table
		src   string
		want  string
	}{
		{"unknown index", demoTable, head + "  - name: open orders\n    index: GSI2\n    pk: \"WH#1\"\n",
			`dynascope.yaml:4: pattern "open orders": index "GSI2" does not exist on table App; its indexes are GSI1, ByCountry.`},
		{"index on a table without indexes", noSK, head + "  - name: x\n    index: GSI1\n    pk: a\n",
			`dynascope.yaml:4: pattern "x": index "GSI1" does not exist: table Users has no secondary indexes.`},
		{"sk on a table without sort key", noSK, head + "  - name: x\n    pk: a\n    sk: {begins_with: \"B\"}\n",
			`dynascope.yaml:5: pattern "x": table Users has no sort key, so the sort-key condition sk cannot apply; remove sk.`},
		{"sk on an index without sort key", demoTable, head + "  - name: x\n    index: ByCountry\n    pk: DE\n    sk: {eq: \"B\"}\n",
			`dynascope.yaml:6: pattern "x": index ByCountry has no sort key, so the sort-key condition sk cannot apply; remove sk.`},
		{"consistent on a GSI", demoTable, head + "  - name: x\n    index: GSI1\n    pk: \"WH#1\"\n    consistent: true\n",
			`dynascope.yaml:6: pattern "x": global secondary index GSI1 cannot be read consistently; remove consistent: true.`},
		{"text for a number key", numeric, head + "  - name: x\n    pk: \"P#{id}\"\n    example: {id: \"7\"}\n",
			`dynascope.yaml:4: pattern "x": the partition key player is a number (N); "P#7" is not a number.`},
		{"begins_with on a number key", numeric, head + "  - name: x\n    pk: \"7\"\n    sk: {begins_with: \"1\"}\n",
			`dynascope.yaml:5: pattern "x": begins_with does not apply to the number sort key at; use <, >, or between.`},
		{"text for a number sort key of a GetItem", numeric, head + "  - name: x\n    pk: \"7\"\n    sk: {eq: \"latest\"}\n",
			`dynascope.yaml:5: pattern "x": the sort key at is a number (N); "latest" is not a number.`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			set, err := ParsePatterns("dynascope.yaml", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			err = set.Validate(c.table)
			if err == nil || err.Error() != c.want {
				t.Errorf("error\n got %v\nwant %s", err, c.want)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	set, err := ParsePatterns("dynascope.yaml", []byte(issueFile))
	if err != nil {
		t.Fatal(err)
	}
	get := func(name string) Pattern {
		p, err := set.Find(name)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}

	r, err := get("latest order").Resolve(demoTable, map[string]string{"customerId": "7"})
	if err != nil {
		t.Fatal(err)
	}
	want := &dynamo.QueryInput{Table: "App", PK: "CUST#7", SK: dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"ORDER#"}}, Reverse: true, Limit: 1}
	if r.Get != nil || !reflect.DeepEqual(r.Query, want) || r.Operation() != "Query" {
		t.Errorf("latest order: %+v", r.Query)
	}

	r, err = get("one line item").Resolve(demoTable, map[string]string{"orderId": "A17", "line": "1"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Query != nil || !reflect.DeepEqual(r.Get, &dynamo.GetInput{Table: "App", PK: "ORDER#A17", SK: "ITEM#1"}) || r.Operation() != "GetItem" {
		t.Errorf("one line item: %+v %+v", r.Get, r.Query)
	}

	// pk alone is a GetItem on a table without sort key, a Query otherwise.
	noSK := dynamo.Table{Name: "Users", PK: dynamo.KeyAttr{Name: "id", Type: "S"}}
	p := Pattern{Name: "user by id", PK: "USER#{id}"}
	if r, err := p.Resolve(noSK, map[string]string{"id": "1"}); err != nil || r.Get == nil || r.Get.PK != "USER#1" {
		t.Errorf("user by id: %+v %v", r, err)
	}
	if r, err := p.Resolve(demoTable, map[string]string{"id": "1"}); err != nil || r.Query == nil {
		t.Errorf("pk alone on a table with sort key: %+v %v", r, err)
	}
	// On an index, even an eq sort key is a Query: GetItem reads the table only.
	ix := Pattern{Name: "by index", Index: "GSI1", PK: "WH#1", SK: dynamo.SKCond{Op: dynamo.SKEq, Values: []string{"OPEN#x"}}}
	if r, err := ix.Resolve(demoTable, nil); err != nil || r.Query == nil || r.Query.Index != "GSI1" {
		t.Errorf("eq on an index: %+v %v", r, err)
	}

	_, err = get("one line item").Resolve(demoTable, map[string]string{"orderId": "A17"})
	if err == nil || err.Error() != `pattern "one line item": it needs a value for the parameter line (placeholder {line}).` {
		t.Errorf("missing parameter: %v", err)
	}
	_, err = get("latest order").Resolve(demoTable, map[string]string{"customerId": "42", "custId": "1"})
	if err == nil || err.Error() != `pattern "latest order": it has no parameter custId; its parameters are customerId.` {
		t.Errorf("unknown parameter: %v", err)
	}
	_, err = ix.Resolve(demoTable, map[string]string{"x": "1"})
	if err == nil || err.Error() != `pattern "by index": it has no parameters, so x cannot be given.` {
		t.Errorf("parameter to a pattern without: %v", err)
	}
}

func TestTemplates(t *testing.T) {
	p := Pattern{Name: "braces", PK: "T#{{literal}}#{id}", SK: dynamo.SKCond{Op: dynamo.SKBetween, Values: []string{"{from}", "{to}}}"}}}
	if got := p.Parameters(); !reflect.DeepEqual(got, []string{"id", "from", "to"}) {
		t.Errorf("parameters %v", got)
	}
	r, err := p.Resolve(demoTable, map[string]string{"id": "{9}", "from": "A", "to": "B"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Query.PK != "T#{literal}#{9}" || !reflect.DeepEqual(r.Query.SK.Values, []string{"A", "B}"}) {
		t.Errorf("filled: %+v", r.Query)
	}
	q := dynamo.QueryInput{Table: "App", PK: "odd {key}", SK: dynamo.SKCond{Op: dynamo.SKGe, Values: []string{"}"}}, Limit: 3}
	saved := PatternFromQuery("odd", "", q)
	if saved.PK != "odd {{key}}" || len(saved.Parameters()) != 0 {
		t.Errorf("escaped: %+v", saved)
	}
	r, err = saved.Resolve(demoTable, nil)
	if err != nil || r.Query.PK != q.PK || r.Query.SK.Values[0] != "}" || r.Query.Limit != 3 {
		t.Errorf("round trip: %+v %v", r.Query, err)
	}
	if got := (Pattern{PK: "CUST#{id}", SK: dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"ORDER#"}}, Reverse: true, Limit: 1, Index: "GSI1"}).Summary(); got != `pk = "CUST#{id}", sk begins_with "ORDER#", newest first, limit 1, on GSI1` {
		t.Errorf("summary %s", got)
	}
}

func TestLoadPatternsMissingFile(t *testing.T) {
	_, err := LoadPatterns(filepath.Join(t.TempDir(), "dynascope.yaml"))
	if err == nil || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "pass --patterns FILE.") {
		t.Errorf("missing file: %v", err)
	}
}

// The shipped dynascope.yaml loads and fits the demo table as seeding
// creates it.
func TestShippedPatternsFile(t *testing.T) {
	set, err := LoadPatterns("../" + PatternsFile)
	if err != nil {
		t.Fatal(err)
	}
	spec := demodata.TableSpec(demodata.Table)
	if err := set.Validate(dynamo.Table{Name: spec.Name, PK: spec.PK, SK: spec.SK, Indexes: spec.GSIs}); err != nil {
		t.Fatal(err)
	}
	if set.Table != demodata.Table {
		t.Errorf("table %q", set.Table)
	}
	for _, name := range []string{"customer with orders", "latest order", "order with line items", "open orders for a warehouse", "one line item"} {
		if _, err := set.Find(name); err != nil {
			t.Error(err)
		}
	}
}

// ParamsNote names the parameters in order with their values quoted, so a
// newline in a value stays inside the comment; none without parameters.
func TestParamsNote(t *testing.T) {
	p := Pattern{Name: "by status", PK: "CUST#{customerId}", Filter: `status = "{status}" AND total >= {min}`}
	got := p.ParamsNote(map[string]string{"customerId": "42", "status": "a\n# b", "min": "5"})
	if want := `parameters: customerId="42", status="a\n# b", min="5"`; got != want {
		t.Errorf("ParamsNote = %q, want %q", got, want)
	}
	if got := (Pattern{Name: "fixed", PK: "CUST#1"}).ParamsNote(nil); got != "" {
		t.Errorf("a pattern without parameters: %q", got)
	}
}
