package codegen_test

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"dynascope/codegen"
	"dynascope/dynamo"
	"dynascope/dynamo/dynamotest"
	"dynascope/filterexpr"
	"dynascope/itemcodec"
)

// typedSKRE pulls sort keys out of items printed in DynamoDB JSON by boto3's
// client API: {'SK': {'S': 'ORDER#1'}}.
var typedSKRE = regexp.MustCompile(`'SK': \{'S': '([^']*)`)

// The code generated for a filtered, projected Query, a filtered Scan in
// segments and a PartiQL SELECT runs in the AWS CLI, boto3 and Go, and
// returns what dynascope's own request returned; the CLI's counts and RCU
// are DynamoDB's.
func TestCodeForFiltersScanAndPartiQL(t *testing.T) {
	awsCLI(t)
	_, app, _ := codegenTables(t)
	ctx := context.Background()
	c, err := dynamo.Connect(ctx, dynamo.Options{Endpoint: dynamotest.Endpoint(t), Region: "us-east-1", SchemaCacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	to := codegen.CodeTarget{Region: c.Region(), Endpoint: c.Endpoint()}
	tbl, err := c.DescribeTable(ctx, app)
	if err != nil {
		t.Fatal(err)
	}
	ks, _ := tbl.Schema("")

	type read struct {
		code           func(codegen.CodeLang) (string, error)
		items          []dynamo.Item
		count, scanned int32
		rcu            float64
	}
	reads := map[string]*read{}

	q := dynamo.QueryInput{Table: app, PK: "CUST#42", SK: dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"ORDER#"}},
		Filter: `total > 20 AND NOT contains(note, "x") AND attribute_type(total, "N")`, Project: "total, SK"}
	page, err := c.Query(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	reads["query"] = &read{func(l codegen.CodeLang) (string, error) { return codegen.QueryCode(l, ks, q, to) }, page.Items, page.Count, page.ScannedCount, page.Request.Capacity.Total}

	// A pattern's filter with parameters, filled as patterns fills it: a
	// value with quotes and OR in it is one value, so the code selects what
	// the filter selects (spliced into the text it would select every order).
	tpl, err := filterexpr.ParseTemplate(`total > {min} OR name = "{name}"`)
	if err != nil {
		t.Fatal(err)
	}
	filled, err := tpl.Fill(map[string]string{"min": "30", "name": `x" OR size(PK) > 0 OR '`})
	if err != nil {
		t.Fatal(err)
	}
	pq := dynamo.QueryInput{Table: app, PK: "CUST#42", SK: dynamo.SKCond{Op: dynamo.SKBeginsWith, Values: []string{"ORDER#"}}, Filter: filled.String()}
	page, err = c.Query(ctx, pq)
	if err != nil {
		t.Fatal(err)
	}
	if page.Count != 2 || page.ScannedCount != 3 {
		t.Fatalf("the filled filter kept %d of %d orders, want the 2 above 30 of 3", page.Count, page.ScannedCount)
	}
	reads["pattern filter"] = &read{func(l codegen.CodeLang) (string, error) { return codegen.QueryCode(l, ks, pq, to) }, page.Items, page.Count, page.ScannedCount, page.Request.Capacity.Total}

	s := dynamo.ScanInput{Table: app, Segments: 2, Filter: `attribute_exists(total) OR begins_with(SK, "ITEM#")`, Project: "SK"}
	var first *dynamo.ScanPage
	if _, err := c.Scan(ctx, dynamo.ScanInput{Table: s.Table, Segments: s.Segments, Filter: s.Filter, Project: s.Project, OnPage: func(p dynamo.ScanPage) error {
		if p.Segment == 0 && first == nil {
			first = &p
		}
		return nil
	}}); err != nil || first == nil {
		t.Fatalf("scan: %v", err)
	}
	reads["scan"] = &read{func(l codegen.CodeLang) (string, error) { return codegen.ScanCode(l, tbl, s, to) }, first.Items, first.Count, first.ScannedCount, first.Request.Capacity.Total}

	stmt := `SELECT * FROM "` + app + `" WHERE PK = 'CUST#42' AND total >= 35`
	plan, err := c.PlanPartiQL(ctx, stmt)
	if err != nil {
		t.Fatal(err)
	}
	var got []dynamo.Item
	if _, err := c.RunPartiQL(ctx, dynamo.PartiQLInput{Plan: plan, OnPage: func(p dynamo.Page) error { got = append(got, p.Items...); return nil }}); err != nil {
		t.Fatal(err)
	}
	reads["partiql"] = &read{func(l codegen.CodeLang) (string, error) { return codegen.PartiQLCode(l, stmt, false, to) }, got, int32(len(got)), -1, -1}

	for name, r := range reads {
		var want []string
		for _, it := range r.items {
			want = append(want, itemcodec.KeyString(it["SK"]))
		}
		if len(want) == 0 {
			t.Fatalf("%s: nothing to compare", name)
		}
		// The regular expressions stop at a quote inside a key (the
		// fixture's O'Q "x"); compare up to it.
		cut := func(s string) string {
			if i := strings.IndexAny(s, `'"\`); i >= 0 {
				return s[:i]
			}
			return s
		}
		sorted := func(ss []string) string {
			for i := range ss {
				ss[i] = cut(ss[i])
			}
			slices.Sort(ss)
			return strings.Join(ss, "|")
		}
		t.Run(name+"/cli", func(t *testing.T) {
			cmd, err := r.code(codegen.LangCLI)
			if err != nil {
				t.Fatal(err)
			}
			var out struct {
				Items            []json.RawMessage
				Count            int32
				ScannedCount     int32
				ConsumedCapacity *struct{ CapacityUnits float64 }
			}
			if err := json.Unmarshal(runShell(t, cmd), &out); err != nil {
				t.Fatal(err)
			}
			var sks []string
			for _, raw := range out.Items {
				it, err := itemcodec.ParseDynamoJSON(raw)
				if err != nil {
					t.Fatal(err)
				}
				sks = append(sks, itemcodec.KeyString(it["SK"]))
				if (name == "query" || name == "scan") && len(it) > 3 {
					t.Errorf("projection lost: %s", raw)
				}
			}
			if sorted(sks) != sorted(want) {
				t.Errorf("the CLI returned %v, dynascope %v\n%s", sks, want, cmd)
			}
			if r.scanned >= 0 && (out.Count != r.count || out.ScannedCount != r.scanned || out.ConsumedCapacity == nil || out.ConsumedCapacity.CapacityUnits != r.rcu) {
				t.Errorf("the CLI: %d of %d for %+v; dynascope %d of %d for %v", out.Count, out.ScannedCount, out.ConsumedCapacity, r.count, r.scanned, r.rcu)
			}
		})
		t.Run(name+"/python", func(t *testing.T) {
			py := pythonWithBoto3(t)
			code, err := r.code(codegen.LangPython)
			if err != nil {
				t.Fatal(err)
			}
			out := runShell(t, py+" - <<'EOF'\n"+code+"EOF\n")
			var sks []string
			for _, re := range []*regexp.Regexp{skRE, typedSKRE} {
				for _, m := range re.FindAllSubmatch(out, -1) {
					sks = append(sks, string(m[1]))
				}
			}
			if sorted(sks) != sorted(want) {
				t.Errorf("Python printed %v, dynascope %v\n%s\n%s", sks, want, code, out)
			}
		})
		t.Run(name+"/go", func(t *testing.T) {
			code, err := r.code(codegen.LangGo)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := runGo(t, code)
			var sks []string
			for _, m := range skRE.FindAllSubmatch(out, -1) {
				sks = append(sks, string(m[1]))
			}
			if sorted(sks) != sorted(want) {
				t.Errorf("Go printed %v, dynascope %v\n%s", sks, want, code)
			}
		})
	}
}
