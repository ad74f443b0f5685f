package patterns

import (
	"reflect"
	"strings"
	"testing"

	"dynascope/dynamo"
)

// projectedTable has an index of each projection: the shape of
// dynamotest.IndexedTable, as DescribeTable reports it.
var projectedTable = dynamo.Table{
	Name: "App",
	PK:   dynamo.KeyAttr{Name: "PK", Type: "S"},
	SK:   &dynamo.KeyAttr{Name: "SK", Type: "S"},
	Indexes: []dynamo.Index{
		{Name: "Sparse", Kind: dynamo.GSI, PK: dynamo.KeyAttr{Name: "GSI1PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "GSI1SK", Type: "S"}, Projection: "KEYS_ONLY"},
		{Name: "ByStatus", Kind: dynamo.GSI, PK: dynamo.KeyAttr{Name: "status", Type: "S"}, SK: &dynamo.KeyAttr{Name: "SK", Type: "S"}, Projection: "INCLUDE", NonKeyAttr: []string{"total"}},
		{Name: "Overloaded", Kind: dynamo.GSI, PK: dynamo.KeyAttr{Name: "GSI2PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "GSI2SK", Type: "S"}, Projection: "ALL"},
		{Name: "ByDate", Kind: dynamo.LSI, PK: dynamo.KeyAttr{Name: "PK", Type: "S"}, SK: &dynamo.KeyAttr{Name: "date", Type: "S"}, Projection: "KEYS_ONLY"},
	},
}

const projectedFile = `table: App
patterns:
  - name: open orders
    index: Sparse
    pk: "WH#{wh}"
    attributes: [total, address.city, GSI1SK]
    example: {wh: "1"}
  - name: delivered orders
    index: ByStatus
    pk: DELIVERED
    filter: 'total > 10 AND note <> "x"'
    attributes:
      - total
    example: {}
`

// attributes: and filter: are read, kept in file order, and shape the
// request: the filter goes with the Query, a pattern with one is never a
// GetItem, the attributes are not sent.
func TestParseAttributesAndFilter(t *testing.T) {
	set, err := ParsePatterns("dynascope.yaml", []byte(projectedFile))
	if err != nil {
		t.Fatal(err)
	}
	open, delivered := set.Patterns[0], set.Patterns[1]
	if !reflect.DeepEqual(open.Attributes, []string{"total", "address.city", "GSI1SK"}) || open.Filter != "" {
		t.Errorf("open orders: attributes %q, filter %q", open.Attributes, open.Filter)
	}
	if !reflect.DeepEqual(delivered.Attributes, []string{"total"}) || delivered.Filter != `total > 10 AND note <> "x"` {
		t.Errorf("delivered orders: attributes %q, filter %q", delivered.Attributes, delivered.Filter)
	}
	if err := set.Validate(projectedTable); err != nil {
		t.Fatal(err)
	}
	r, err := delivered.Resolve(projectedTable, delivered.Example)
	if err != nil || r.Query == nil || r.Query.Filter != delivered.Filter || r.Query.Project != "" {
		t.Fatalf("resolve: %+v, %v", r.Query, err)
	}
	if got := delivered.Summary(); got != `pk = "DELIVERED", filter "total > 10 AND note <> \"x\"", on ByStatus` {
		t.Errorf("summary %s", got)
	}
	get := Pattern{Name: "profile", PK: "CUST#1", SK: dynamo.SKCond{Op: dynamo.SKEq, Values: []string{"PROFILE"}}}
	if r, _ := get.Resolve(projectedTable, nil); r.Operation() != "GetItem" {
		t.Errorf("without a filter: %s", r.Operation())
	}
	get.Filter = "attribute_exists(email)"
	if r, _ := get.Resolve(projectedTable, nil); r.Operation() != "Query" || r.Query.Filter != get.Filter {
		t.Errorf("with a filter: %s %+v", r.Operation(), r.Query)
	}
}

// SavePattern writes attributes: and filter: so that they read back the same.
func TestSavePatternWithAttributesAndFilter(t *testing.T) {
	p := Pattern{Name: "delivered", Index: "ByStatus", PK: "DELIVERED", Filter: `total > 10 AND note <> "it's"`, Attributes: []string{"total", "address.city"}}
	path := writeTemp(t, "table: App\npatterns:\n")
	if err := SavePattern(path, p); err != nil {
		t.Fatal(err)
	}
	text := readFile(t, path)
	if !strings.Contains(text, "attributes: [total, address.city]") || !strings.Contains(text, `filter: 'total > 10 AND note <> "it''s"'`) {
		t.Errorf("file:\n%s", text)
	}
	set, err := LoadPatterns(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := set.Patterns[0]; !samePattern(got, p) {
		t.Errorf("read back %+v", got)
	}
}

// CheckProjection follows the index's projection: nothing to say on the
// base table or an ALL index; on KEYS_ONLY and INCLUDE it names what the
// index returns and what the pattern needs that it does not hold.
func TestCheckProjection(t *testing.T) {
	cases := []struct {
		name       string
		p          Pattern
		ok         bool
		missing    []string
		filtered   []string
		oneRequest bool
		sentence   string
	}{
		{name: "base table", p: Pattern{PK: "CUST#1", Attributes: []string{"total"}}},
		{name: "ALL index", p: Pattern{Index: "Overloaded", PK: "ORDER#1", Attributes: []string{"total"}}},
		{name: "KEYS_ONLY, nothing listed", p: Pattern{Index: "Sparse", PK: "WH#1"}, ok: true, oneRequest: true,
			sentence: "Sparse (KEYS_ONLY) returns PK, SK, GSI1PK, GSI1SK of each item; list what the pattern needs under attributes: to check it."},
		{name: "KEYS_ONLY, keys only needed", p: Pattern{Index: "Sparse", PK: "WH#1", Attributes: []string{"GSI1SK", "SK"}}, ok: true, oneRequest: true,
			sentence: "Sparse (KEYS_ONLY) projects every attribute the pattern needs."},
		{name: "KEYS_ONLY, a path and a key", p: Pattern{Index: "Sparse", PK: "WH#1", Attributes: []string{"address.city", "SK", "total"}}, ok: true,
			missing:  []string{"address", "total"},
			sentence: "Sparse (KEYS_ONLY) does not project address, total: each item would need a GetItem on the base table (2 more requests here), so the pattern is not one request."},
		{name: "INCLUDE holds total, not status", p: Pattern{Index: "ByStatus", PK: "OPEN", Attributes: []string{"total", "note"}}, ok: true,
			missing:  []string{"note"},
			sentence: "ByStatus (INCLUDE) does not project note: each item would need a GetItem on the base table (2 more requests here), so the pattern is not one request."},
		{name: "INCLUDE, a filter on what it holds", p: Pattern{Index: "ByStatus", PK: "OPEN", Filter: "total > 3"}, ok: true, oneRequest: true,
			sentence: "ByStatus (INCLUDE) returns PK, SK, status, total of each item; list what the pattern needs under attributes: to check it."},
		{name: "a filter on what it does not hold", p: Pattern{Index: "ByStatus", PK: "OPEN", Filter: "total > 3 AND size(note) > 1", Attributes: []string{"total"}}, ok: true,
			filtered: []string{"note"},
			sentence: "the filter reads note, which ByStatus (INCLUDE) does not project: DynamoDB refuses a filter on an attribute its index does not hold, so the pattern was not sent."},
		{name: "LSI fetches from the table", p: Pattern{Index: "ByDate", PK: "CUST#1", Attributes: []string{"date", "total"}}, ok: true, oneRequest: true,
			missing:  []string{"total"},
			sentence: "ByDate (KEYS_ONLY) does not project total: DynamoDB fetches it from the base table for each item when the Query asks for it (a projection or Select ALL_ATTRIBUTES), at extra read cost."},
		{name: "LSI filter", p: Pattern{Index: "ByDate", PK: "CUST#1", Filter: `status = "OPEN"`}, ok: true, filtered: []string{"status"},
			sentence: "the filter reads status, which ByDate (KEYS_ONLY) does not project: DynamoDB refuses a filter on an attribute its index does not hold, so the pattern was not sent."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := c.p.CheckProjection(projectedTable)
			if ok != c.ok {
				t.Fatalf("ok %v, want %v", ok, c.ok)
			}
			if !ok {
				return
			}
			if !reflect.DeepEqual(got.Missing, c.missing) || !reflect.DeepEqual(got.Filtered, c.filtered) {
				t.Errorf("missing %q filtered %q, want %q %q", got.Missing, got.Filtered, c.missing, c.filtered)
			}
			if got.OneRequest() != c.oneRequest {
				t.Errorf("one request %v, want %v", got.OneRequest(), c.oneRequest)
			}
			if s := got.Sentence(2); s != c.sentence {
				t.Errorf("sentence\n got %s\nwant %s", s, c.sentence)
			}
		})
	}
}

// A hand-made query saved as a pattern keeps its filter, so that the
// pattern sends what the query sent.
func TestPatternFromQueryKeepsTheFilter(t *testing.T) {
	q := dynamo.QueryInput{Table: "App", PK: "CUST#{7}", SK: dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"ORDER#"}}, Filter: `status = "OPEN"`}
	p := PatternFromQuery("open", "", q)
	r, err := p.Resolve(projectedTable, nil)
	if err != nil || r.Query == nil || r.Query.Filter != q.Filter || r.Query.PK != q.PK {
		t.Errorf("resolved %+v, %v", r.Query, err)
	}
}

// Verdict is check's verdict on the projection, "" when it costs no request.
func TestProjectionVerdict(t *testing.T) {
	for _, c := range []struct {
		p    Pattern
		want string
	}{
		{Pattern{Index: "Sparse", PK: "WH#1", Attributes: []string{"total", "status"}}, "a GetItem per item: Sparse does not project total, status"},
		{Pattern{Index: "ByStatus", PK: "OPEN", Filter: "size(note) > {n}", Example: map[string]string{"n": "1"}}, "not sent: DynamoDB refuses a filter on note, which ByStatus does not project"},
		{Pattern{Index: "ByStatus", PK: "OPEN", Attributes: []string{"total"}}, ""},
		{Pattern{Index: "ByDate", PK: "CUST#1", Attributes: []string{"total"}}, ""}, // an LSI fetches it, at a cost: the sentence says so
	} {
		pc, ok := c.p.CheckProjection(projectedTable)
		if !ok || pc.Verdict() != c.want {
			t.Errorf("%+v: verdict %q, want %q", c.p, pc.Verdict(), c.want)
		}
	}
}
